#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace podcrawl::serve {

// Pick the best of the available locale tags for an Accept-Language header value with ICU's
// LocaleMatcher (CLDR language distances): ranges by descending q, a zero q excludes, "*" is
// ignored; "ar-EG" matches "ar", "zh-TW" matches "zh-Hant", "pt-PT" matches "pt-BR". Returns
// an empty string when nothing is close enough.
std::string negotiate_locale(std::string_view accept_language,
                             const std::vector<std::string>& available);

// The locale of the 404 page for a request: the locale the path starts with ("/ar/…"), else the
// best for Accept-Language, else the first available. Empty when none is available.
std::string not_found_locale(std::string_view path, std::string_view accept_language,
                             const std::vector<std::string>& available);

} // namespace podcrawl::serve

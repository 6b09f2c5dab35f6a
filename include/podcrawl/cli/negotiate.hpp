#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace podcrawl::cli {

// Pick the best of the available locale tags for an Accept-Language header value: highest q
// first, exact tag before its primary language ("ar-EG" matches "ar"), a zero q excludes.
// Returns an empty string when nothing matches.
std::string negotiate_locale(std::string_view accept_language,
                             const std::vector<std::string>& available);

} // namespace podcrawl::cli

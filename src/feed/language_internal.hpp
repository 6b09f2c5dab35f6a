#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace podcrawl::feed::internal {

// Return the canonical BCP 47 tag for a feed's language: "en-us" and "en_US" -> "en-US",
// "English" -> "en", "ar" -> "ar". Empty when the text names no known language.
std::string canonical_language(std::string_view text);

// Read an explicit-content flag: yes/true/explicit -> true, no/false/clean -> false, any
// case; nullopt for anything else.
std::optional<bool> parse_explicit(std::string_view text);

} // namespace podcrawl::feed::internal

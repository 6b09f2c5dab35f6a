#pragma once

#include <string>
#include <string_view>

// Text written inside a JSON string (RFC 8259), for the places that write JSON without a JSON
// library: the SPEC's JSON of a feed, the rows the store hands PostgreSQL as JSON, JSON log lines.
namespace podcrawl::core {

// Which control characters append_json_escaped writes as their two-character escapes (any of
// \b \t \n \f \r); every other control character is written \u00xx.
// All five, as nlohmann::json::dump writes them.
inline constexpr std::string_view k_json_short_escapes = "\b\t\n\f\r";
// None: every control character is written \u00xx.
inline constexpr std::string_view k_json_unicode_escapes = "";

// Append text to out as the inside of a JSON string, without its quotes: '"' and '\' escaped
// with a backslash, each control character U+0000..U+001F escaped (those in short_escapes by
// their letter, the others as \u00xx in lower-case hexadecimal), every other byte copied as it
// is: U+007F, '/', '<', non-ASCII, U+2028 and U+2029 included. Return false when text is not
// well-formed UTF-8; its bytes are then copied all the same, and a strict JSON reader refuses
// the result.
bool append_json_escaped(std::string& out, std::string_view text, std::string_view short_escapes);

} // namespace podcrawl::core

#pragma once

#include <string>
#include <string_view>

namespace podcrawl::html {

// Which characters markup escaping replaces, by where the text goes.
// HTML text: only `&` and `<` can start markup or a character reference.
inline constexpr std::string_view k_escape_html_text = "&<";
// Text that may later be read in a raw-text context as well.
inline constexpr std::string_view k_escape_text = "&<>";
// A double-quoted HTML attribute value.
inline constexpr std::string_view k_escape_attribute = "&<>\"";
// XML text or attribute values with either quote.
inline constexpr std::string_view k_escape_xml = "&<>\"'";

// Append text to out with each character listed in `characters` (any of & < > " ') written as
// its entity (&amp; &lt; &gt; &quot; &apos;); every other byte is copied.
void append_escaped(std::string& out, std::string_view text, std::string_view characters);

// The text with the listed characters escaped, as append_escaped writes it.
std::string escaped(std::string_view text, std::string_view characters);

// Text for XML, as text or as an attribute value with either quote: escaped(text, k_escape_xml).
inline std::string escaped_xml(std::string_view text) {
  return escaped(text, k_escape_xml);
}

} // namespace podcrawl::html

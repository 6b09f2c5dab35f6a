#pragma once

#include <string>
#include <string_view>

namespace podcrawl::feed::internal {

// Return the character Windows-1252 gives the byte 0x80..0x9F, as HTML reads the numeric
// references &#128;..&#159; and browsers a C1 control in a page; 0 for the five bytes it leaves
// undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D). Other code points are returned unchanged.
char32_t windows_1252_c1(char32_t c);

// Return the character HTML reads a numeric reference's number as (the number of "&#8217;",
// "&#x2019;", html::CharacterReference::number): C1 numbers as Windows-1252; zero, surrogates,
// numbers past U+10FFFF and the undefined C1 numbers as U+FFFD; any other number as itself.
char32_t numeric_reference_character(char32_t number);

// Return the text with UTF-8 that was decoded as Windows-1252 or Latin-1 once or more upstream
// ("donâ€™t", "Ã©tÃ©", "Ø§Ù„Ø¹Ø±Ø¨ÙŠØ©") decoded back, where that is unambiguous: each run of
// non-ASCII characters is replaced only when its Windows-1252 bytes are well-formed UTF-8 whose
// characters are ones text plausibly holds. Text that is legitimately Latin-1 ("Café", "Ü“")
// stays as it is. Invalid UTF-8 is returned unchanged.
std::string repair_mojibake(std::string_view text);

// Return the text with every well-formed HTML character reference ("&#8217;", "&eacute;",
// "&amp;") decoded, once: a plain-text field that still holds one after the XML was read was
// escaped twice upstream ("It&amp;#8217;s"). Anything else that starts with '&' stays.
std::string decode_references(std::string_view text);

// Return feed text for a plain-text field shown to readers (titles, names, categories):
// mojibake repaired, then clean_line, then references left by double escaping decoded.
std::string plain_line(std::string_view text);

// Return feed text for a markup field before it is sanitized: mojibake repaired, then
// clean_block. Its escaping is the markup's own and is left alone.
std::string markup_block(std::string_view text);

} // namespace podcrawl::feed::internal

#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace podcrawl::html {

// Bytes of HTML looked at; longer input is cut (at a character boundary) before parsing.
inline constexpr std::size_t k_max_input_bytes = 1024 * 1024;
// Elements nested deeper than this keep only their text.
inline constexpr std::size_t k_max_depth = 100;
// Open tags (counted without a parser) allowed at once; input is cut before the tag that
// would go past it. Parsing time grows with the square of nesting, so this bounds it.
inline constexpr std::size_t k_max_open_tags = 256;
// Attributes read from one tag; the rest are dropped before parsing. The parser compares each
// attribute with every earlier one of its tag, so a tag costs the square of its count.
inline constexpr std::size_t k_max_attributes = 256;
// The rel value every sanitized link carries.
inline constexpr std::string_view k_link_rel = "nofollow ugc noopener";

// Return the HTML with only allowlisted tags and attributes; links are made absolute against
// base_url and carry rel="nofollow ugc noopener"; URL attributes keep only http(s)/mailto.
// Plain text (no tags) is escaped and returned with line breaks kept as <br>.
// Elements that carry code or documents (script, style, svg, iframe, form, ...) are dropped
// with their content; other unknown elements are dropped but their text kept. Images are
// dropped: a page shows no image from another host (cover art is the directory's own copy,
// and its Content-Security-Policy allows no other). Headings h1-h6 are kept as they are. Text and
// attribute values come out escaped. Never throws on bad HTML.
std::string sanitize(std::string_view html, std::string_view base_url);

// Return the visible text of the HTML, whitespace collapsed, cut at a word boundary to at most
// max_chars characters (with an ellipsis when cut).
// Characters are Unicode code points, the ellipsis included; a grapheme is never split.
std::string plain_text(std::string_view html, std::size_t max_chars);

} // namespace podcrawl::html

#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

// Small helpers on UTF-8 text that every module needs.
namespace podcrawl::core {

// The longest start of text of at most max_bytes that does not split a UTF-8 sequence.
inline std::string_view utf8_prefix(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) {
    return text;
  }
  std::size_t end = max_bytes;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0U) == 0x80U) {
    --end;
  }
  return text.substr(0, end);
}

// The code point of the well-formed UTF-8 sequence at text[at] and its length in bytes; length 0
// when the bytes there are not one (a stray continuation byte, a lead byte not followed by its
// continuation bytes, an overlong form, a surrogate, a code point past U+10FFFF). `at` must be
// inside text.
std::pair<char32_t, std::size_t> decode_utf8(std::string_view text, std::size_t at);

// Whether the bytes are well-formed UTF-8 throughout (RFC 3629).
bool is_valid_utf8(std::string_view bytes);

// Append the UTF-8 of a code point to out; nothing for a surrogate or a value past U+10FFFF,
// which have none.
void append_utf8(std::string& out, char32_t code);

} // namespace podcrawl::core

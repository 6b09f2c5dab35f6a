#pragma once

#include <cstddef>
#include <string_view>

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

} // namespace podcrawl::core

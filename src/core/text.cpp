#include "podcrawl/core/text.hpp"

#include <cstdint>
#include <cstring>

namespace podcrawl::core {

std::pair<char32_t, std::size_t> decode_utf8(std::string_view text, std::size_t at) {
  const auto lead = static_cast<unsigned char>(text[at]);
  if (lead < 0x80) {
    return {lead, 1};
  }
  const std::size_t length = lead >= 0xC2 && lead <= 0xDF   ? 2
                             : lead >= 0xE0 && lead <= 0xEF ? 3
                             : lead >= 0xF0 && lead <= 0xF4 ? 4
                                                            : 0;
  if (length == 0 || at + length > text.size()) {
    return {0, 0};
  }
  char32_t code = lead & (0x7FU >> length);
  for (std::size_t k = 1; k < length; ++k) {
    const auto next = static_cast<unsigned char>(text[at + k]);
    if ((next & 0xC0U) != 0x80U) {
      return {0, 0};
    }
    code = (code << 6) | (next & 0x3FU);
  }
  const bool overlong = (length == 3 && code < 0x800) || (length == 4 && code < 0x10000);
  if (overlong || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
    return {0, 0};
  }
  return {code, length};
}

bool is_valid_utf8(std::string_view bytes) {
  constexpr std::uint64_t k_high_bits = 0x8080808080808080U;
  std::size_t i = 0;
  while (i < bytes.size()) {
    if (static_cast<unsigned char>(bytes[i]) < 0x80) {
      ++i;
      // ASCII eight bytes at a time.
      std::uint64_t word = 0;
      while (i + sizeof word <= bytes.size() &&
             (std::memcpy(&word, bytes.data() + i, sizeof word), (word & k_high_bits) == 0)) {
        i += sizeof word;
      }
      continue;
    }
    const std::size_t length = decode_utf8(bytes, i).second;
    if (length == 0) {
      return false;
    }
    i += length;
  }
  return true;
}

void append_utf8(std::string& out, char32_t code) {
  const auto byte = [](char32_t value) { return static_cast<char>(value); };
  if (code < 0x80) {
    out += byte(code);
  } else if (code < 0x800) {
    out += byte(0xC0 | (code >> 6));
    out += byte(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    if (code >= 0xD800 && code <= 0xDFFF) {
      return;
    }
    out += byte(0xE0 | (code >> 12));
    out += byte(0x80 | ((code >> 6) & 0x3F));
    out += byte(0x80 | (code & 0x3F));
  } else if (code <= 0x10FFFF) {
    out += byte(0xF0 | (code >> 18));
    out += byte(0x80 | ((code >> 12) & 0x3F));
    out += byte(0x80 | ((code >> 6) & 0x3F));
    out += byte(0x80 | (code & 0x3F));
  }
}

} // namespace podcrawl::core

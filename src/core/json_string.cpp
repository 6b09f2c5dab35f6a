#include "podcrawl/core/json_string.hpp"

#include <algorithm>

#include "podcrawl/core/text.hpp"

namespace podcrawl::core {
namespace {

// The letter of the two-character escape of a control character (\b \t \n \f \r), or 0 for a
// control character that has none.
char short_escape_letter(char c) {
  switch (c) {
    case '\b':
      return 'b';
    case '\t':
      return 't';
    case '\n':
      return 'n';
    case '\f':
      return 'f';
    case '\r':
      return 'r';
    default:
      return 0;
  }
}

// Append the escape of '"', '\' or a control character.
void append_escape(std::string& out, char c, std::string_view short_escapes) {
  if (c == '"' || c == '\\') {
    out += '\\';
    out += c;
    return;
  }
  const char letter = short_escape_letter(c);
  if (letter != 0 && short_escapes.find(c) != std::string_view::npos) {
    out += '\\';
    out += letter;
    return;
  }
  constexpr std::string_view k_hex = "0123456789abcdef";
  const auto byte = static_cast<unsigned char>(c);
  out.append("\\u00");
  out += k_hex[byte >> 4];
  out += k_hex[byte & 0xf];
}

} // namespace

bool append_json_escaped(std::string& out, std::string_view text, std::string_view short_escapes) {
  bool valid = true;
  std::size_t copied = 0; // text[copied, i) needs no escape and is not in out yet
  std::size_t i = 0;
  while (i < text.size()) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte >= 0x80) {
      const std::size_t length = decode_utf8(text, i).second;
      valid = valid && length != 0;
      i += std::max<std::size_t>(length, 1);
    } else if (byte < 0x20 || byte == '"' || byte == '\\') {
      out.append(text.substr(copied, i - copied));
      append_escape(out, text[i], short_escapes);
      copied = ++i;
    } else {
      ++i;
    }
  }
  out.append(text.substr(copied));
  return valid;
}

} // namespace podcrawl::core

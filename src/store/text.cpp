#include <regex>
#include <string>
#include <string_view>

#include "store_internal.hpp"

namespace podcrawl::store {
namespace {

// Length of the valid UTF-8 sequence starting at text[i], or 0 when it is not one.
std::size_t utf8_sequence_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  std::size_t length = 0;
  unsigned char min_second = 0x80;
  unsigned char max_second = 0xBF;
  if (lead < 0x80) {
    return 1;
  } else if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    min_second = lead == 0xE0 ? 0xA0 : 0x80; // no overlong forms
    max_second = lead == 0xED ? 0x9F : 0xBF; // no surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    min_second = lead == 0xF0 ? 0x90 : 0x80;
    max_second = lead == 0xF4 ? 0x8F : 0xBF; // nothing above U+10FFFF
  } else {
    return 0;
  }
  if (i + length > text.size() || byte(i + 1) < min_second || byte(i + 1) > max_second) {
    return 0;
  }
  for (std::size_t k = 2; k < length; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) {
      return 0;
    }
  }
  return length;
}

} // namespace

std::string storable_text(std::string_view text) {
  static constexpr std::string_view k_replacement = "\xEF\xBF\xBD";
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '\0') {
      ++i;
      continue;
    }
    const std::size_t length = utf8_sequence_length(text, i);
    if (length == 0) {
      out += k_replacement;
      ++i;
      continue;
    }
    out.append(text.substr(i, length));
    i += length;
  }
  return out;
}

std::string bounded_text(std::string_view text, std::size_t max_bytes) {
  std::string out = storable_text(text);
  if (out.size() <= max_bytes) {
    return out;
  }
  std::size_t cut = max_bytes;
  // Step back over continuation bytes so no character is split.
  while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) {
    --cut;
  }
  out.resize(cut);
  return out;
}

std::string redact_database_url(const std::string& url) {
  if (url.empty()) {
    return "libpq defaults";
  }
  // postgresql://user:secret@host/db and key=value connection strings with password=...
  static const std::regex k_url_password(R"(^([a-zA-Z][a-zA-Z0-9+.-]*://[^:/@?#]*):[^@/?#]*@)");
  static const std::regex k_keyword_password(R"((password\s*=\s*)('([^'\\]|\\.)*'|\S+))",
                                             std::regex::icase);
  std::string redacted = std::regex_replace(url, k_url_password, "$1:***@");
  redacted = std::regex_replace(redacted, k_keyword_password, "$1***");
  return redacted;
}

} // namespace podcrawl::store

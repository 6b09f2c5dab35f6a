#include <unicode/utf8.h>

#include <array>
#include <cstdint>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <utility>

#include "podcrawl/core/text.hpp"
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

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

int digit_value(char c, bool hex) {
  if (c >= '0' && c <= '9') {
    return c - '0';
  }
  if (hex && c >= 'a' && c <= 'f') {
    return c - 'a' + 10;
  }
  if (hex && c >= 'A' && c <= 'F') {
    return c - 'A' + 10;
  }
  return -1;
}

// A character reference: the character it stands for and the bytes it takes.
struct Reference {
  char32_t code = 0;
  std::size_t length = 0;
};

// The reference starting with the '&' at text[i], when it is one search_notes decodes.
std::optional<Reference> character_reference(std::string_view text, std::size_t i) {
  static constexpr std::array<std::pair<std::string_view, char32_t>, 6> k_named = {{
      {"&amp;", U'&'},
      {"&lt;", U'<'},
      {"&gt;", U'>'},
      {"&quot;", U'"'},
      {"&apos;", U'\''},
      {"&nbsp;", U' '},
  }};
  // Digits read from a numeric reference: enough for U+10FFFF in decimal.
  constexpr std::size_t k_max_reference_digits = 7;
  const std::string_view rest = text.substr(i);
  for (const auto& [name, code] : k_named) {
    if (rest.starts_with(name)) {
      return Reference{code, name.size()};
    }
  }
  if (!rest.starts_with("&#")) {
    return std::nullopt;
  }
  std::size_t k = 2;
  const bool hex = k < rest.size() && (rest[k] == 'x' || rest[k] == 'X');
  k += hex ? 1 : 0;
  const std::size_t first_digit = k;
  std::uint32_t code = 0;
  for (int digit = 0; k < rest.size() && k - first_digit < k_max_reference_digits &&
                      (digit = digit_value(rest[k], hex)) >= 0;
       ++k) {
    code = code * (hex ? 16 : 10) + static_cast<std::uint32_t>(digit);
  }
  if (k == first_digit || k >= rest.size() || rest[k] != ';' || code == 0 || code > 0x10FFFF ||
      (code >= 0xD800 && code <= 0xDFFF)) {
    return std::nullopt;
  }
  return Reference{static_cast<char32_t>(code), k + 1};
}

// Append a valid code point (not a surrogate, at most U+10FFFF) as UTF-8.
void append_utf8(std::string& out, char32_t code) {
  std::array<char, U8_MAX_LENGTH> bytes{};
  std::int32_t length = 0;
  U8_APPEND_UNSAFE(bytes.data(), length, static_cast<UChar32>(code));
  out.append(bytes.data(), static_cast<std::size_t>(length));
}

} // namespace

std::string search_notes(std::string_view html, std::size_t max_bytes) {
  std::string out;
  bool pending_space = false;
  const auto append = [&](std::string_view piece) {
    if (pending_space && !out.empty()) {
      out += ' ';
    }
    pending_space = false;
    out.append(piece);
  };
  // Past max_bytes nothing more is kept; bounded_text cuts what went over at a character.
  for (std::size_t i = 0; i < html.size() && out.size() <= max_bytes;) {
    const char c = html[i];
    if (c == '<') {
      if (const auto end = html.find('>', i); end != std::string_view::npos) {
        pending_space = true;
        i = end + 1;
        continue;
      }
    }
    if (is_space(c)) {
      pending_space = true;
      ++i;
      continue;
    }
    if (c == '&') {
      if (const auto reference = character_reference(html, i)) {
        if (reference->code == U' ') {
          pending_space = true;
        } else {
          std::string decoded;
          append_utf8(decoded, reference->code);
          append(decoded);
        }
        i += reference->length;
        continue;
      }
    }
    append(html.substr(i, 1));
    ++i;
  }
  return bounded_text(out, max_bytes);
}

std::string search_words(std::string_view query) {
  std::string words;
  bool pending_space = false;
  for (const char c : storable_text(query)) {
    if (is_space(c) || c == '\v') {
      pending_space = !words.empty();
      continue;
    }
    if (pending_space) {
      words += ' ';
      pending_space = false;
    }
    words += c;
  }
  return words;
}

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
  out.resize(core::utf8_prefix(out, max_bytes).size());
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

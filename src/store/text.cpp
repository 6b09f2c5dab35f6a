#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <utility>

#include "podcrawl/core/ascii.hpp"
#include "podcrawl/core/text.hpp"
#include "podcrawl/html/search_text.hpp"
#include "store_internal.hpp"

namespace podcrawl::store::internal {

std::string search_notes(std::string_view html, std::size_t max_bytes) {
  return bounded_text(html::search_text(html, max_bytes), max_bytes);
}

std::string search_words(std::string_view query) {
  std::string words;
  bool pending_space = false;
  for (const char c : storable_text(query)) {
    if (core::k_ascii_space.find(c) != std::string_view::npos) {
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
  if (text.find('\0') == std::string_view::npos && core::is_valid_utf8(text)) {
    return std::string(text);
  }
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '\0') {
      ++i;
      continue;
    }
    const std::size_t length = core::decode_utf8(text, i).second;
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

} // namespace podcrawl::store::internal

#include <optional>

#include "podcrawl/core/ascii.hpp"
#include "render_internal.hpp"

namespace podcrawl::render::internal {

namespace {

constexpr std::size_t k_max_language_tag_length = 35;
constexpr std::size_t k_max_url_length = 2048;
constexpr std::int64_t k_last_plausible_time = 253402300799; // 9999-12-31T23:59:59Z
constexpr std::string_view k_first_strong_isolate = "\u2068";
constexpr std::string_view k_pop_directional_isolate = "\u2069";
// A private-use character stands in for the argument while a message is split around it.
constexpr std::string_view k_argument_marker = "\uE000";

bool starts_with_ignoring_case(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) {
    return false;
  }
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (core::ascii_lower(text[i]) != prefix[i]) {
      return false;
    }
  }
  return true;
}

} // namespace

bool is_safe_slug(std::string_view slug) {
  return is_page_segment(slug);
}

std::string language_tag_or_empty(std::string_view language) {
  if (language.empty() || language.size() > k_max_language_tag_length ||
      !core::is_ascii_alpha(language.front())) {
    return {};
  }
  for (const char c : language) {
    if (!core::is_ascii_alnum(c) && c != '-') {
      return {};
    }
  }
  return std::string(language);
}

std::string http_url_or_empty(std::string_view url) {
  if (url.size() > k_max_url_length ||
      !(starts_with_ignoring_case(url, "http://") || starts_with_ignoring_case(url, "https://"))) {
    return {};
  }
  for (const char c : url) {
    if (static_cast<unsigned char>(c) <= ' ' || c == 0x7F) {
      return {};
    }
  }
  return std::string(url);
}

std::string isolate(std::string_view text) {
  std::string result(k_first_strong_isolate);
  result += text;
  result += k_pop_directional_isolate;
  return result;
}

Around split_message(const l10n::Localizer& localizer, std::string_view key) {
  const std::string message = localizer.format(key, k_argument_marker);
  const auto marker = message.find(k_argument_marker);
  if (marker == std::string::npos) {
    return {message + " ", ""};
  }
  return {message.substr(0, marker), message.substr(marker + k_argument_marker.size())};
}

std::string iso_duration(std::int64_t seconds) {
  std::string result = "PT";
  if (seconds >= 3600) {
    result += std::to_string(seconds / 3600) + "H";
  }
  if (seconds % 3600 >= 60) {
    result += std::to_string(seconds % 3600 / 60) + "M";
  }
  if (seconds % 60 != 0 || seconds < 60) {
    result += std::to_string(seconds % 60) + "S";
  }
  return result;
}

std::optional<std::int64_t> plausible_time(std::optional<std::int64_t> t) {
  if (!t || *t < 0 || *t > k_last_plausible_time) {
    return std::nullopt;
  }
  return t;
}

} // namespace podcrawl::render::internal

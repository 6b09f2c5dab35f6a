#include "podcrawl/serve/negotiate.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include <unicode/localematcher.h>
#include <unicode/locid.h>

namespace podcrawl::serve {

namespace {

// Accept-Language comes from strangers: ranges past this many are ignored.
constexpr std::size_t k_max_language_ranges = 32;

struct Range {
  std::string tag; // lower case
  double quality = 1.0;
};

std::string trim_lower(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (!std::isspace(static_cast<unsigned char>(c))) {
      out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    }
  }
  return out;
}

// The header's language ranges, highest q first (stable), without q=0 and without "*".
std::vector<Range> parse_ranges(std::string_view header) {
  std::vector<Range> ranges;
  std::size_t start = 0;
  while (start <= header.size() && ranges.size() < k_max_language_ranges) {
    const std::size_t end = std::min(header.find(',', start), header.size());
    const std::string_view item = header.substr(start, end - start);
    const std::size_t semicolon = item.find(';');
    Range range;
    range.tag = trim_lower(item.substr(0, semicolon));
    std::replace(range.tag.begin(), range.tag.end(), '_', '-');
    if (semicolon != std::string_view::npos) {
      const std::string parameter = trim_lower(item.substr(semicolon + 1));
      if (parameter.starts_with("q=")) {
        range.quality = std::strtod(parameter.c_str() + 2, nullptr);
      }
    }
    if (!range.tag.empty() && range.tag != "*" && range.quality > 0) {
      ranges.push_back(range);
    }
    start = end + 1;
  }
  std::stable_sort(ranges.begin(), ranges.end(),
                   [](const Range& a, const Range& b) { return a.quality > b.quality; });
  return ranges;
}

std::vector<icu::Locale> to_locales(const std::vector<std::string>& tags) {
  std::vector<icu::Locale> locales;
  for (const auto& tag : tags) {
    UErrorCode status = U_ZERO_ERROR;
    icu::Locale locale = icu::Locale::forLanguageTag(tag, status);
    // A tag ICU cannot read matches nothing: "und" has no language to be close to.
    locales.push_back(U_SUCCESS(status) ? locale : icu::Locale::getRoot());
  }
  return locales;
}

} // namespace

std::string negotiate_locale(std::string_view accept_language,
                             const std::vector<std::string>& available) {
  std::vector<std::string> wanted;
  for (const auto& range : parse_ranges(accept_language)) {
    wanted.push_back(range.tag);
  }
  const std::vector<icu::Locale> desired = to_locales(wanted);
  const std::vector<icu::Locale> supported = to_locales(available);
  if (desired.empty() || supported.empty()) {
    return {};
  }
  UErrorCode status = U_ZERO_ERROR;
  const icu::LocaleMatcher matcher = icu::LocaleMatcher::Builder()
                                         .setSupportedLocales(supported.begin(), supported.end())
                                         .setNoDefaultLocale()
                                         .build(status);
  if (U_FAILURE(status)) {
    return {};
  }
  auto iterator = icu::Locale::RangeIterator(desired.begin(), desired.end());
  const auto result = matcher.getBestMatchResult(iterator, status);
  const int32_t index = result.getSupportedIndex();
  if (U_FAILURE(status) || index < 0 || static_cast<std::size_t>(index) >= available.size()) {
    return {};
  }
  return available[static_cast<std::size_t>(index)];
}

std::string not_found_locale(std::string_view path, std::string_view accept_language,
                             const std::vector<std::string>& available) {
  if (available.empty()) {
    return {};
  }
  if (path.starts_with('/')) {
    const std::string_view first = path.substr(1, path.find('/', 1) - 1);
    for (const auto& tag : available) {
      if (tag == first) {
        return tag;
      }
    }
  }
  const std::string negotiated = negotiate_locale(accept_language, available);
  return negotiated.empty() ? available.front() : negotiated;
}

} // namespace podcrawl::serve

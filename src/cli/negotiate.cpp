#include "podcrawl/cli/negotiate.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace podcrawl::cli {

namespace {

struct Range {
  std::string tag; // lower case
  double quality = 1.0;
  std::size_t order = 0;
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

std::vector<Range> parse_ranges(std::string_view header) {
  std::vector<Range> ranges;
  std::size_t start = 0;
  while (start <= header.size()) {
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
    range.order = ranges.size();
    if (!range.tag.empty() && range.quality > 0) {
      ranges.push_back(range);
    }
    start = end + 1;
  }
  std::stable_sort(ranges.begin(), ranges.end(),
                   [](const Range& a, const Range& b) { return a.quality > b.quality; });
  return ranges;
}

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string primary(std::string_view tag) {
  return std::string(tag.substr(0, tag.find('-')));
}

} // namespace

std::string negotiate_locale(std::string_view accept_language,
                             const std::vector<std::string>& available) {
  for (const auto& range : parse_ranges(accept_language)) {
    for (const auto& tag : available) {
      if (lower(tag) == range.tag) {
        return tag;
      }
    }
    for (const auto& tag : available) {
      if (primary(lower(tag)) == primary(range.tag)) {
        return tag;
      }
    }
  }
  return {};
}

} // namespace podcrawl::cli

#include "podcrawl/render/layout.hpp"

#include <algorithm>

#include "podcrawl/model/artwork.hpp"

namespace podcrawl::render {

namespace {

using Kind = PagePath::Kind;

constexpr std::string_view k_folder_file = "index.html";
constexpr std::string_view k_not_found_file = "404.html";
constexpr std::string_view k_opml_suffix = ".opml";

// "page/<n>/" below a list's address for its page n, nothing for its first.
std::string paged(std::string base, std::int64_t page) {
  if (page > 1) {
    base += "page/" + std::to_string(page) + "/";
  }
  return base;
}

// A page number of a "page/<n>/" address: 2 or more, no leading zero.
std::optional<std::int64_t> page_number(std::string_view text) {
  if (text.empty() || text.size() > 10 || text.front() == '0') {
    return std::nullopt;
  }
  std::int64_t n = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') {
      return std::nullopt;
    }
    n = n * 10 + (c - '0');
  }
  if (n < 2 || n > k_max_page_number) {
    return std::nullopt;
  }
  return n;
}

std::vector<std::string_view> split(std::string_view path) {
  std::vector<std::string_view> segments;
  for (std::size_t start = 0; start <= path.size();) {
    const std::size_t end = std::min(path.find('/', start), path.size());
    segments.push_back(path.substr(start, end - start));
    start = end + 1;
  }
  return segments;
}

// The page number of a list's folders after its slug: none (page 1) or "page/<n>".
std::optional<std::int64_t> list_page(const std::vector<std::string_view>& rest) {
  if (rest.empty()) {
    return 1;
  }
  if (rest.size() == 2 && rest[0] == "page") {
    return page_number(rest[1]);
  }
  return std::nullopt;
}

// A page of a locale's folder: `parts` are the folders below the locale's.
std::optional<PagePath> parse_locale_folder(const std::vector<std::string_view>& parts,
                                            PagePath page) {
  if (parts.empty()) {
    page.kind = Kind::home;
    return page;
  }
  if (parts.size() == 1 && parts[0] == "add") {
    page.kind = Kind::submit;
    return page;
  }
  if (parts[0] == "search") {
    const auto number = list_page({parts.begin() + 1, parts.end()});
    if (!number) {
      return std::nullopt;
    }
    page.kind = Kind::search;
    page.page = *number;
    return page;
  }
  if (parts.size() < 2 || !is_page_segment(parts[1])) {
    return std::nullopt;
  }
  const std::vector<std::string_view> rest(parts.begin() + 2, parts.end());
  page.slug = std::string(parts[1]);
  if (parts[0] == "categories" || parts[0] == "languages" || parts[0] == "podcasts") {
    if (const auto number = list_page(rest)) {
      page.kind = parts[0] == "categories"  ? Kind::category
                  : parts[0] == "languages" ? Kind::language
                                            : Kind::show;
      page.page = *number;
      return page;
    }
  }
  if (parts[0] == "podcasts" && rest.size() == 1 && is_page_segment(rest[0])) {
    page.kind = Kind::episode;
    page.episode = std::string(rest[0]);
    return page;
  }
  return std::nullopt;
}

std::optional<PagePath> parse_file(const std::vector<std::string_view>& parts,
                                   const std::vector<std::string>& locales) {
  const std::string_view name = parts.back();
  PagePath page;
  if (parts.size() == 1) {
    if (name != k_stylesheet_file && name != k_locale_script_file) {
      return std::nullopt;
    }
    page.kind = name == k_stylesheet_file ? Kind::stylesheet : Kind::script;
    return page;
  }
  if (parts.size() != 2) {
    return std::nullopt;
  }
  if (parts[0] == "opml" && name.ends_with(k_opml_suffix) &&
      is_page_segment(name.substr(0, name.size() - k_opml_suffix.size()))) {
    page.kind = Kind::opml;
    page.slug = std::string(name.substr(0, name.size() - k_opml_suffix.size()));
    return page;
  }
  if (parts[0] == "art" && model::is_art_file_name(name)) {
    page.kind = Kind::art;
    page.slug = std::string(name);
    return page;
  }
  if (name == k_not_found_file &&
      std::find(locales.begin(), locales.end(), parts[0]) != locales.end()) {
    page.kind = Kind::not_found;
    page.locale = std::string(parts[0]);
    return page;
  }
  return std::nullopt;
}

} // namespace

bool is_page_segment(std::string_view segment) {
  if (segment.empty() || segment.size() > k_max_segment_bytes || segment.front() == '-') {
    return false;
  }
  return std::all_of(segment.begin(), segment.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  });
}

std::string locale_path_of(const PagePath& page) {
  switch (page.kind) {
    case Kind::home:
      return "";
    case Kind::not_found:
      return std::string(k_not_found_file);
    case Kind::category:
      return paged("categories/" + page.slug + "/", page.page);
    case Kind::language:
      return paged("languages/" + page.slug + "/", page.page);
    case Kind::show:
      return paged("podcasts/" + page.slug + "/", page.page);
    case Kind::episode:
      return "podcasts/" + page.slug + "/" + page.episode + "/";
    case Kind::search:
      return paged("search/", page.page);
    case Kind::submit:
      return "add/";
    default:
      return path_of(page);
  }
}

std::string path_of(const PagePath& page) {
  switch (page.kind) {
    case Kind::chooser:
      return "";
    case Kind::stylesheet:
      return std::string(k_stylesheet_file);
    case Kind::script:
      return std::string(k_locale_script_file);
    case Kind::opml:
      return "opml/" + page.slug + std::string(k_opml_suffix);
    case Kind::art:
      return "art/" + page.slug;
    default:
      return page.locale + "/" + locale_path_of(page);
  }
}

std::string file_in(std::string_view path) {
  std::string file(path);
  if (file.empty() || file.back() == '/') {
    file += k_folder_file;
  }
  return file;
}

std::string file_of(const PagePath& page) {
  return file_in(path_of(page));
}

std::optional<PagePath> parse_path(std::string_view path, const std::vector<std::string>& locales) {
  if (path.empty()) {
    return PagePath{};
  }
  std::vector<std::string_view> parts = split(path);
  const bool folder = parts.back().empty();
  if (folder) {
    parts.pop_back();
  }
  if (std::any_of(parts.begin(), parts.end(), [](std::string_view part) { return part.empty(); })) {
    return std::nullopt;
  }
  if (!folder) {
    return parse_file(parts, locales);
  }
  const auto locale = std::find(locales.begin(), locales.end(), parts[0]);
  if (locale == locales.end()) {
    return std::nullopt;
  }
  PagePath page;
  page.locale = *locale;
  return parse_locale_folder({parts.begin() + 1, parts.end()}, std::move(page));
}

std::string page_url(std::string_view site_url, std::string_view locale, std::string_view path) {
  std::string url(site_url);
  url += '/';
  url += locale;
  url += '/';
  url += path;
  return url;
}

std::string default_url(std::string_view site_url, std::string_view first_locale,
                        std::string_view path) {
  if (path.empty()) {
    return std::string(site_url) + "/";
  }
  return page_url(site_url, first_locale, path);
}

} // namespace podcrawl::render

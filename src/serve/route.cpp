#include "podcrawl/serve/route.hpp"

#include "podcrawl/l10n/localizer.hpp"

#include <algorithm>
#include <optional>

#include "podcrawl/core/hash.hpp"
#include "podcrawl/l10n/localizer.hpp"
#include "podcrawl/store/artwork.hpp"

namespace podcrawl::serve {

namespace {

using Kind = Route::Kind;

// The path with %XX decoded; nullopt for a malformed escape or a decoded NUL.
std::optional<std::string> percent_decoded(std::string_view path) {
  std::string out;
  out.reserve(path.size());
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (path[i] != '%') {
      out += path[i];
      continue;
    }
    if (i + 2 >= path.size()) {
      return std::nullopt;
    }
    const auto high = core::hex_value(path[i + 1]);
    const auto low = core::hex_value(path[i + 2]);
    if (!high || !low || (*high == 0 && *low == 0)) {
      return std::nullopt;
    }
    out += static_cast<char>(*high * 16 + *low);
    i += 2;
  }
  return out;
}

bool is_segment(std::string_view text) {
  if (text.empty() || text.size() > 200 || text.front() == '-') {
    return false;
  }
  return std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  });
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
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t end = std::min(path.find('/', start), path.size());
    segments.push_back(path.substr(start, end - start));
    start = end + 1;
  }
  return segments;
}

// A list or show address after its slug: nothing (page 1) or "page/<n>".
std::optional<std::int64_t> list_page(const std::vector<std::string_view>& rest) {
  if (rest.empty()) {
    return 1;
  }
  if (rest.size() == 2 && rest[0] == "page") {
    return page_number(rest[1]);
  }
  return std::nullopt;
}

// The folder of page `page` below a list's address: "" for the first, else "page/<n>/".
std::string page_folder(std::int64_t page) {
  return page > 1 ? "page/" + std::to_string(page) + "/" : "";
}

// Route the segments of a directory address (each folder of the path, the last one included).
Route route_folder(const std::vector<std::string_view>& parts,
                   const std::vector<std::string>& locales) {
  Route route;
  if (parts.empty()) {
    route.kind = Kind::root;
    return route;
  }
  const auto locale = std::find(locales.begin(), locales.end(), parts[0]);
  if (locale == locales.end()) {
    return route;
  }
  route.locale = *locale;
  if (parts.size() == 1) {
    route.kind = Kind::home;
    return route;
  }
  if (parts[1] == "search") {
    if (const auto page = list_page({parts.begin() + 2, parts.end()})) {
      route.kind = Kind::search;
      route.page = *page;
    }
    return route;
  }
  if (parts.size() < 3 || !is_segment(parts[2])) {
    return route;
  }
  const std::vector<std::string_view> rest(parts.begin() + 3, parts.end());
  route.slug = std::string(parts[2]);
  if (parts[1] == "categories" || parts[1] == "languages") {
    if (const auto page = list_page(rest)) {
      route.kind = parts[1] == "categories" ? Kind::category : Kind::language;
      route.page = *page;
    }
    return route;
  }
  if (parts[1] != "podcasts") {
    return route;
  }
  if (const auto page = list_page(rest)) {
    route.kind = Kind::show;
    route.page = *page;
  } else if (rest.size() == 1 && is_segment(rest[0])) {
    route.kind = Kind::episode;
    route.episode = std::string(rest[0]);
  }
  return route;
}

// Route a file name at the site's root or in a locale.
Route route_file(const std::vector<std::string_view>& parts,
                 const std::vector<std::string>& locales) {
  Route route;
  const std::string_view name = parts.back();
  if (parts.size() == 1) {
    route.kind = name == "site.css"           ? Kind::stylesheet
                 : name == "choose-locale.js" ? Kind::script
                                              : Kind::not_found;
    return route;
  }
  if (parts.size() == 2 && parts[0] == "opml" && name.ends_with(".opml") &&
      is_segment(name.substr(0, name.size() - 5))) {
    route.kind = Kind::opml;
    route.slug = std::string(name.substr(0, name.size() - 5));
    return route;
  }
  if (parts.size() == 2 && parts[0] == "art" && store::is_art_file_name(name)) {
    route.kind = Kind::art;
    route.slug = std::string(name);
    return route;
  }
  if (parts.size() == 2 && name == "404.html" &&
      std::find(locales.begin(), locales.end(), parts[0]) != locales.end()) {
    route.kind = Kind::not_found_page;
    route.locale = std::string(parts[0]);
  }
  return route;
}

} // namespace

Route route(std::string_view path, const std::vector<std::string>& locales,
            std::string_view site_path) {
  Route result;
  if (path.size() > k_max_path_bytes || !path.starts_with(site_path) ||
      !path.substr(site_path.size()).starts_with('/')) {
    return result;
  }
  const auto decoded = percent_decoded(path.substr(site_path.size() + 1));
  if (!decoded) {
    return result;
  }
  std::vector<std::string_view> parts = split(*decoded);
  // A folder's address ends in '/', and its index.html names the same page.
  const bool folder = parts.back().empty() || parts.back() == "index.html";
  const bool last_is_file = parts.back().find('.') != std::string_view::npos;
  if (folder) {
    parts.pop_back();
  }
  for (const auto part : parts) {
    if (part.empty() || part == "." || part == "..") {
      return result;
    }
  }
  if (!folder && parts.size() == 1 && parts[0] == "metrics") {
    result.kind = Kind::metrics;
  } else if (!folder && parts.size() == 2 && parts[0] == "admin" && parts[1] == "report") {
    result.kind = Kind::report;
  } else if (!folder && last_is_file) {
    result = route_file(parts, locales);
  } else {
    result = route_folder(parts, locales);
    if (!folder && result.kind != Kind::not_found && result.kind != Kind::root) {
      result.location = std::string(path) + "/";
      result.kind = Kind::redirect;
      return result;
    }
    // A language page under a region's tag (earlier renders made one per region): the page of
    // the language that lists its shows now.
    if (result.kind == Kind::language) {
      const std::string language = l10n::language_group(result.slug);
      if (!language.empty() && language != result.slug) {
        result.location = std::string(site_path) + "/" + result.locale + "/languages/" + language +
                          "/" + page_folder(result.page);
        result.kind = Kind::redirect;
        return result;
      }
    }
  }
  switch (result.kind) {
    case Kind::root:
      break;
    case Kind::home:
      result.key = result.locale + "/";
      break;
    case Kind::category:
    case Kind::language:
    case Kind::show:
      result.key = result.locale + "/" +
                   (result.kind == Kind::category   ? "categories/"
                    : result.kind == Kind::language ? "languages/"
                                                    : "podcasts/") +
                   result.slug + "/" + page_folder(result.page);
      break;
    case Kind::episode:
      result.key = result.locale + "/podcasts/" + result.slug + "/" + result.episode + "/";
      break;
    case Kind::search:
      result.key = result.locale + "/search/" + page_folder(result.page);
      break;
    case Kind::opml:
      result.key = "opml/" + result.slug + ".opml";
      break;
    case Kind::art:
      result.key = "art/" + result.slug;
      break;
    case Kind::not_found_page:
      result.key = result.locale + "/404.html";
      break;
    default:
      result.key = *decoded;
  }
  return result;
}

std::string query_value(std::string_view query, std::string_view name) {
  std::size_t start = 0;
  while (start <= query.size()) {
    const std::size_t end = std::min(query.find('&', start), query.size());
    const std::string_view field = query.substr(start, end - start);
    start = end + 1;
    const std::size_t equals = field.find('=');
    if (field.substr(0, equals) != name) {
      continue;
    }
    if (equals == std::string_view::npos) {
      return {};
    }
    std::string value;
    const std::string_view encoded = field.substr(equals + 1);
    for (std::size_t i = 0; i < encoded.size(); ++i) {
      const char c = encoded[i];
      const auto high =
          c == '%' && i + 2 < encoded.size() ? core::hex_value(encoded[i + 1]) : std::nullopt;
      const auto low = high ? core::hex_value(encoded[i + 2]) : std::nullopt;
      if (low) {
        value += static_cast<char>(*high * 16 + *low);
        i += 2;
      } else {
        value += c == '+' ? ' ' : c;
      }
    }
    return value;
  }
  return {};
}

Route request_route(std::string_view path, std::string_view query,
                    const std::vector<std::string>& locales, std::string_view site_path) {
  Route result = route(path, locales, site_path);
  if (result.kind == Route::Kind::search) {
    result.words = query_value(query, "q");
    result.key += "?q=" + result.words;
  }
  return result;
}

const char* to_string(Route::Kind kind) {
  switch (kind) {
    case Kind::root:
      return "root";
    case Kind::stylesheet:
    case Kind::script:
      return "asset";
    case Kind::metrics:
      return "metrics";
    case Kind::report:
      return "report";
    case Kind::opml:
      return "opml";
    case Kind::art:
      return "art";
    case Kind::home:
      return "home";
    case Kind::not_found_page:
      return "not_found_page";
    case Kind::category:
      return "category";
    case Kind::language:
      return "language";
    case Kind::show:
      return "show";
    case Kind::episode:
      return "episode";
    case Kind::search:
      return "search";
    case Kind::redirect:
      return "redirect";
    case Kind::not_found:
      return "not_found";
  }
  return "not_found";
}

} // namespace podcrawl::serve

#include "podcrawl/serve/route.hpp"

#include <algorithm>
#include <optional>

#include "api_internal.hpp"
#include "podcrawl/core/hash.hpp"
#include "podcrawl/l10n/localizer.hpp"
#include "podcrawl/render/layout.hpp"
#include "podcrawl/serve/websub.hpp"

namespace podcrawl::serve {

namespace {

using Kind = Route::Kind;

// Where WebSub callbacks live below the site: "websub/<token>".
constexpr std::string_view k_websub_prefix = "websub/";

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

Kind kind_of(render::PagePath::Kind kind) {
  using Page = render::PagePath::Kind;
  switch (kind) {
    case Page::chooser:
      return Kind::root;
    case Page::stylesheet:
      return Kind::stylesheet;
    case Page::script:
      return Kind::script;
    case Page::home:
      return Kind::home;
    case Page::not_found:
      return Kind::not_found_page;
    case Page::category:
      return Kind::category;
    case Page::language:
      return Kind::language;
    case Page::show:
      return Kind::show;
    case Page::episode:
      return Kind::episode;
    case Page::search:
      return Kind::search;
    case Page::submit:
      return Kind::submit;
    case Page::opml:
      return Kind::opml;
    case Page::art:
      return Kind::art;
  }
  return Kind::not_found;
}

Route route_of(const render::PagePath& page) {
  Route route;
  route.kind = kind_of(page.kind);
  route.path = page;
  route.key = render::path_of(page);
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
  // A folder's address ends in '/', and its index.html names the same page.
  std::string_view page_path = *decoded;
  if (page_path == "index.html" || page_path.ends_with("/index.html")) {
    page_path.remove_suffix(std::string_view("index.html").size());
  }
  // Empty, "." and ".." segments are no page's (render::parse_path refuses them).
  const std::string_view last = page_path.substr(page_path.rfind('/') + 1);
  if (decoded->starts_with(k_websub_prefix)) {
    result.key = decoded->substr(k_websub_prefix.size());
    result.kind = is_websub_token(result.key) ? Kind::websub : Kind::not_found;
    return result;
  }
  if (internal::endpoint_of(*decoded)) {
    result.kind = Kind::api;
    result.key = *decoded;
    return result;
  }
  if (page_path == "metrics" || page_path == "admin/report") {
    result.kind = page_path == "metrics" ? Kind::metrics : Kind::report;
    result.key = *decoded;
    return result;
  }
  const bool folder_without_slash =
      !last.empty() && last.find('.') == std::string_view::npos && !page_path.empty();
  if (folder_without_slash) {
    const auto page = render::parse_path(std::string(page_path) + "/", locales);
    if (page && page->kind != render::PagePath::Kind::chooser) {
      result.location = std::string(path) + "/";
      result.kind = Kind::redirect;
    } else {
      result.key = *decoded;
    }
    return result;
  }
  const auto page = render::parse_path(page_path, locales);
  if (!page) {
    result.key = *decoded;
    return result;
  }
  result = route_of(*page);
  // A language page under a region's tag (earlier renders made one per region): the page of
  // the language that lists its shows now.
  if (result.kind == Kind::language) {
    const std::string language = l10n::language_group(result.path.slug);
    if (!language.empty() && language != result.path.slug) {
      render::PagePath moved = *page;
      moved.slug = language;
      result.location = std::string(site_path) + "/" + render::path_of(moved);
      result.kind = Kind::redirect;
    }
  }
  return result;
}

std::string form_decoded(std::string_view encoded) {
  std::string value;
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
    return form_decoded(field.substr(equals + 1));
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
    case Kind::api:
      return "api";
    case Kind::report:
      return "report";
    case Kind::websub:
      return "websub";
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
    case Kind::submit:
      return "submit";
    case Kind::redirect:
      return "redirect";
    case Kind::not_found:
      return "not_found";
  }
  return "not_found";
}

} // namespace podcrawl::serve

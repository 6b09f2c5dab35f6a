#include "podcrawl/render/paths.hpp"

#include "podcrawl/render/layout.hpp"

namespace podcrawl::render {

namespace {

using Kind = PagePath::Kind;

std::string in_locale(Kind kind, std::string_view slug, std::int64_t page = 1) {
  return locale_path_of(PagePath(kind, {}, std::string(slug), {}, page));
}

} // namespace

std::string category_path(std::string_view slug, std::int64_t page) {
  return in_locale(Kind::category, slug, page);
}

std::string language_path(std::string_view tag, std::int64_t page) {
  return in_locale(Kind::language, tag, page);
}

std::string show_path(std::string_view slug, std::int64_t page) {
  return in_locale(Kind::show, slug, page);
}

std::string episode_path(std::string_view show_slug, std::string_view episode_slug) {
  return locale_path_of(
      PagePath(Kind::episode, {}, std::string(show_slug), std::string(episode_slug)));
}

std::string search_path(std::int64_t page) {
  return in_locale(Kind::search, {}, page);
}

std::string submit_path() {
  return in_locale(Kind::submit, {});
}

std::string search_query_suffix(std::string_view query) {
  if (query.empty()) {
    return {};
  }
  static constexpr char k_hex[] = "0123456789ABCDEF";
  std::string suffix = "?q=";
  for (const char c : query) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z') ||
        (byte >= '0' && byte <= '9') || c == '-' || c == '.' || c == '_' || c == '*') {
      suffix += c;
    } else if (c == ' ') {
      suffix += '+';
    } else {
      suffix += '%';
      suffix += k_hex[byte >> 4];
      suffix += k_hex[byte & 0x0F];
    }
  }
  return suffix;
}

std::string list_path(const model::ShowListPage& list, std::int64_t page) {
  return list.kind == model::ListKind::category ? category_path(list.category.slug, page)
                                                : language_path(list.language.tag, page);
}

std::string opml_path(std::string_view show_slug) {
  return path_of(PagePath(Kind::opml, {}, std::string(show_slug)));
}

} // namespace podcrawl::render

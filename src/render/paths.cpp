#include "render_internal.hpp"

namespace podcrawl::render::internal {

namespace {

std::string paged(std::string base, std::int64_t page) {
  if (page > 1) {
    base += "page/" + std::to_string(page) + "/";
  }
  return base;
}

} // namespace

std::string category_path(std::string_view slug, std::int64_t page) {
  return paged("categories/" + std::string(slug) + "/", page);
}

std::string language_path(std::string_view tag, std::int64_t page) {
  return paged("languages/" + std::string(tag) + "/", page);
}

std::string show_path(std::string_view slug, std::int64_t page) {
  return paged("podcasts/" + std::string(slug) + "/", page);
}

std::string episode_path(std::string_view show_slug, std::string_view episode_slug) {
  return show_path(show_slug) + std::string(episode_slug) + "/";
}

std::string list_path(const store::ShowListPage& list, std::int64_t page) {
  return list.kind == store::ListKind::category ? category_path(list.category.slug, page)
                                                : language_path(list.language.tag, page);
}

std::string opml_path(std::string_view show_slug) {
  return "opml/" + std::string(show_slug) + ".opml";
}

} // namespace podcrawl::render::internal

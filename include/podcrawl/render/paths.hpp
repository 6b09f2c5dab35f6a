#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "podcrawl/model/pages.hpp"

// The pages' paths by kind, as the pages link each other and the exported site writes them:
// render::locale_path_of (layout.hpp) for each kind of page.
namespace podcrawl::render {

// Locale-relative page paths: "" for the home page, else ending in '/'. Page `page` (1-based) of
// a list; page 1 is the list's own address, the others at <list>/page/<n>/.
std::string category_path(std::string_view slug, std::int64_t page = 1);
std::string language_path(std::string_view tag, std::int64_t page = 1);
std::string show_path(std::string_view slug, std::int64_t page = 1);
std::string episode_path(std::string_view show_slug, std::string_view episode_slug);
std::string search_path(std::int64_t page = 1);
// The form that adds a podcast.
std::string submit_path();
// "?q=<query>" as an HTML form writes it (application/x-www-form-urlencoded); "" for no query.
std::string search_query_suffix(std::string_view query);
// The locale-relative path of page `page` of a list page model.
std::string list_path(const model::ShowListPage& list, std::int64_t page);
// Where a show's OPML file lives, relative to the site root (one file for every locale).
std::string opml_path(std::string_view show_slug);

} // namespace podcrawl::render

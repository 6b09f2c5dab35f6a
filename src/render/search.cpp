#include "render_internal.hpp"

namespace podcrawl::render::internal {

namespace {

Data result_item(const Site& site, const l10n::Localizer& localizer,
                 const model::SearchResult& result, std::string_view from_path) {
  Data item = show_item(localizer, result.show, from_path);
  const std::string show_language = language_tag_or_empty(result.show.language);
  Data episodes{Data::type::list};
  for (const auto& entry : result.episodes) {
    if (is_safe_slug(entry.slug)) {
      episodes.push_back(episode_item(site, localizer, result.show.slug, show_language,
                                      entry.episode, entry.slug, from_path));
    }
  }
  item.set("has_episodes", !episodes.is_empty_list());
  item.set("episodes", std::move(episodes));
  return item;
}

} // namespace

Data search_page(const Site& site, const l10n::Localizer& localizer,
                 const model::SearchPage& page) {
  const std::string path = search_path(page.page);
  const bool searched = !page.query.empty() && !page.too_long;
  const std::string suffix = search_query_suffix(searched ? page.query : "");
  std::string title = searched ? localizer.format("search_results_for", isolate(page.query))
                               : localizer.text("search");
  if (page.page > 1) {
    title += " – " + localizer.count("page_number", page.page);
  }
  Data data = page_frame(site, localizer, path, title + " – " + localizer.text("site_name"));
  // Results are not pages of the directory: not indexed, not canonical, not in the sitemap.
  data.set("has_canonical", false);
  data.set("noindex", true);
  data.set("alternates", Data{Data::type::list});
  data.set("languages", language_links(site, localizer, path, {}, suffix));
  data.set("search_query", page.query);
  data.set("searched", searched);
  data.set("query", page.query);
  const Around heading = split_message(localizer, "search_results_for");
  data.set("heading_before", heading.before);
  data.set("heading_after", heading.after);
  data.set("has_page_name", page.page > 1);
  data.set("page_name", localizer.count("page_number", page.page));

  std::string message;
  if (page.too_long) {
    message = localizer.count("search_too_long",
                              static_cast<std::int64_t>(model::k_max_search_query_chars));
  } else if (page.query.empty()) {
    message = localizer.text("search_empty");
  } else if (page.total == 0) {
    message = localizer.text("search_none");
  }
  data.set("has_message", !message.empty());
  data.set("message", message);
  data.set("has_result_count", searched && page.total > 0);
  data.set("result_count",
           localizer.count(page.more ? "search_more" : "search_results", page.total));

  Data results{Data::type::list};
  for (const auto& result : page.results) {
    if (is_safe_slug(result.show.slug)) {
      results.push_back(result_item(site, localizer, result, path));
    }
  }
  data.set("has_results", !results.is_empty_list());
  data.set("results", std::move(results));
  set_pagination(
      data, localizer, model::page_count(page.total, model::k_search_results_per_page), page.page,
      [](std::int64_t n) { return search_path(n); }, suffix);
  return data;
}

} // namespace podcrawl::render::internal

#include <algorithm>
#include <numeric>

#include "render_internal.hpp"

namespace podcrawl::render::internal {

Data show_item(const l10n::Localizer& localizer, const model::ShowSummary& show,
               std::string_view from_path) {
  Data item;
  item.set("title", show.title);
  item.set("feed_lang", language_tag_or_empty(show.language));
  item.set("href", relative_link(from_path, show_path(show.slug)));
  item.set("has_author", !show.author.empty());
  item.set("author", show.author);
  const Around by = split_message(localizer, "by_author");
  item.set("by_before", by.before);
  item.set("by_after", by.after);
  item.set("episode_count", localizer.count("episodes", show.episode_count));
  set_artwork(item, localizer, show.artwork, show.title, from_path, ArtPlace::list);
  return item;
}

namespace {

// Shows in the order the model gives (the store's list order, the same in every locale); with
// `regions`, each labelled with the region its language tag names, if any (a language page
// lists the shows of every region together).
Data show_list(const l10n::Localizer& localizer, const std::vector<model::ShowSummary>& shows,
               std::string_view from_path, bool regions = false) {
  Data list{Data::type::list};
  for (const auto& show : shows) {
    if (is_safe_slug(show.slug)) {
      Data item = show_item(localizer, show, from_path);
      const std::string region = regions ? localizer.region_name(show.language) : "";
      item.set("has_region", !region.empty());
      item.set("region", region);
      list.push_back(std::move(item));
    }
  }
  return list;
}

std::string display_name(const l10n::Localizer& localizer, const model::CategoryEntry& category) {
  return localizer.category_name(category.slug).value_or(category.name);
}

// Indices of `names` in the locale's collation order; indices break ties so output is stable.
std::vector<std::size_t> collated_order(const l10n::Localizer& localizer,
                                        const std::vector<std::string>& names) {
  std::vector<std::size_t> order(names.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (localizer.collate_less(names[a], names[b])) {
      return true;
    }
    return !localizer.collate_less(names[b], names[a]) && a < b;
  });
  return order;
}

// The home page's categories (the most populated ones) in the locale's order of their names.
Data category_list(const l10n::Localizer& localizer,
                   const std::vector<model::CategoryEntry>& categories) {
  std::vector<std::string> names;
  for (const auto& category : categories) {
    names.push_back(display_name(localizer, category));
  }
  Data list{Data::type::list};
  for (const std::size_t index : collated_order(localizer, names)) {
    const auto& category = categories[index];
    if (!is_safe_slug(category.slug)) {
      continue;
    }
    Data item;
    set_category_name(item, localizer, category);
    item.set("href", category_path(category.slug));
    item.set("podcast_count", localizer.count("podcasts", category.show_count));
    list.push_back(std::move(item));
  }
  return list;
}

Data latest_episodes(const Site& site, const l10n::Localizer& localizer,
                     const std::vector<model::EpisodeEntry>& latest) {
  Data list{Data::type::list};
  for (const auto& entry : latest) {
    if (!is_safe_slug(entry.show_slug) || !is_safe_slug(entry.slug)) {
      continue;
    }
    Data item =
        episode_item(site, localizer, entry.show_slug, language_tag_or_empty(entry.show_language),
                     entry.episode, entry.slug, "");
    item.set("show_title", entry.show_title);
    item.set("show_lang", language_tag_or_empty(entry.show_language));
    item.set("show_href", show_path(entry.show_slug));
    list.push_back(std::move(item));
  }
  return list;
}

// The languages the shows are in, named in the interface language, most shows first (the
// model's order).
Data content_languages(const l10n::Localizer& localizer,
                       const std::vector<model::LanguageEntry>& languages) {
  Data list{Data::type::list};
  for (const auto& language : languages) {
    if (!is_safe_slug(language.tag)) {
      continue;
    }
    Data item;
    item.set("name", localizer.language_name(language.tag));
    item.set("href", language_path(language.tag));
    item.set("podcast_count", localizer.count("podcasts", language.show_count));
    list.push_back(std::move(item));
  }
  return list;
}

} // namespace

Data home_page(const Site& site, const l10n::Localizer& localizer, const model::HomePage& home) {
  Data data = page_frame(site, localizer, "",
                         localizer.text("home_title") + " – " + localizer.text("site_name"));
  data.set("has_description", true);
  data.set("description", localizer.text("site_tagline"));
  data.set("has_shows", home.show_count > 0);
  data.set("podcast_count", localizer.count("podcasts", home.show_count));
  Data categories = category_list(localizer, home.categories);
  data.set("has_categories", !categories.is_empty_list());
  data.set("categories", std::move(categories));
  Data latest = latest_episodes(site, localizer, home.latest);
  data.set("has_latest", !latest.is_empty_list());
  data.set("latest", std::move(latest));
  Data languages = content_languages(localizer, home.languages);
  data.set("has_content_languages", !languages.is_empty_list());
  data.set("content_languages", std::move(languages));
  return data;
}

Data list_page(const Site& site, const l10n::Localizer& localizer,
               const model::ShowListPage& list) {
  const std::string path = list_path(list, list.page);
  const bool category = list.kind == model::ListKind::category;
  const std::string name = category ? display_name(localizer, list.category)
                                    : localizer.language_name(list.language.tag);
  const std::string page_name =
      list.page > 1 ? " – " + localizer.count("page_number", list.page) : "";
  const char* title_key = category ? "category_title" : "language_title";
  Data data = page_frame(
      site, localizer, path,
      localizer.format(title_key, isolate(name)) + page_name + " – " + localizer.text("site_name"));
  const Around heading = split_message(localizer, title_key);
  data.set("heading_before", heading.before);
  data.set("heading_after", heading.after);
  if (category) {
    set_category_name(data, localizer, list.category);
  } else {
    data.set("name", name);
    data.set("name_lang", localizer.tag());
  }
  data.set("has_page_name", list.page > 1);
  data.set("page_name", localizer.count("page_number", list.page));
  data.set("podcast_count", localizer.count("podcasts", list.total));
  data.set("has_shows", !list.shows.empty());
  data.set("shows", show_list(localizer, list.shows, path, !category));
  set_pagination(data, localizer, model::page_count(list.total, model::k_shows_per_page), list.page,
                 [&](std::int64_t page) { return list_path(list, page); });
  return data;
}

} // namespace podcrawl::render::internal

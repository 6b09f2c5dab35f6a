#include <algorithm>
#include <numeric>

#include "render_internal.hpp"

namespace podcrawl::render::internal {

namespace {

Data show_item(const Site& site, const l10n::Localizer& localizer, std::size_t index,
               std::string_view from_path) {
  const auto& planned = site.plan.shows[index];
  const auto& show = planned.stored->show;
  Data item;
  item.set("title", show.title);
  item.set("feed_lang", planned.language);
  item.set("href", relative_link(from_path, show_path(planned)));
  item.set("has_author", !show.author.empty());
  item.set("author", show.author);
  const Around by = split_message(localizer, "by_author");
  item.set("by_before", by.before);
  item.set("by_after", by.after);
  item.set("episode_count",
           localizer.count("episodes", static_cast<std::int64_t>(planned.episodes.size())));
  return item;
}

// Shows in the locale's alphabetical order of titles; slugs break ties so output is stable.
Data show_list(const Site& site, const l10n::Localizer& localizer, std::vector<std::size_t> indices,
               std::string_view from_path) {
  std::sort(indices.begin(), indices.end(), [&](std::size_t a, std::size_t b) {
    const auto& left = site.plan.shows[a].stored->show.title;
    const auto& right = site.plan.shows[b].stored->show.title;
    if (localizer.collate_less(left, right)) {
      return true;
    }
    return !localizer.collate_less(right, left) && a < b;
  });
  Data list{Data::type::list};
  for (const std::size_t index : indices) {
    list.push_back(show_item(site, localizer, index, from_path));
  }
  return list;
}

Data category_list(const Site& site, const l10n::Localizer& localizer) {
  std::vector<std::size_t> indices(site.plan.categories.size());
  std::iota(indices.begin(), indices.end(), std::size_t{0});
  std::sort(indices.begin(), indices.end(), [&](std::size_t a, std::size_t b) {
    const auto& left = site.plan.categories[a].name;
    const auto& right = site.plan.categories[b].name;
    if (localizer.collate_less(left, right)) {
      return true;
    }
    return !localizer.collate_less(right, left) && a < b;
  });
  Data list{Data::type::list};
  for (const std::size_t index : indices) {
    const auto& category = site.plan.categories[index];
    Data item;
    item.set("name", category.name);
    item.set("href", category_path(category));
    item.set("podcast_count",
             localizer.count("podcasts", static_cast<std::int64_t>(category.shows.size())));
    list.push_back(item);
  }
  return list;
}

} // namespace

Data home_page(const Site& site, const l10n::Localizer& localizer) {
  Data data = page_frame(site, localizer, "",
                         localizer.text("home_title") + " – " + localizer.text("site_name"));
  data.set("has_description", true);
  data.set("description", localizer.text("site_tagline"));
  std::vector<std::size_t> all(site.plan.shows.size());
  std::iota(all.begin(), all.end(), std::size_t{0});
  data.set("has_shows", !all.empty());
  data.set("shows", show_list(site, localizer, all, ""));
  data.set("podcast_count", localizer.count("podcasts", static_cast<std::int64_t>(all.size())));
  data.set("has_categories", !site.plan.categories.empty());
  data.set("categories", category_list(site, localizer));
  return data;
}

Data category_page(const Site& site, const l10n::Localizer& localizer, std::size_t index) {
  const auto& category = site.plan.categories[index];
  const std::string path = category_path(category);
  Data data = page_frame(site, localizer, path,
                         localizer.format("category_title", isolate(category.name)) + " – " +
                             localizer.text("site_name"));
  const Around heading = split_message(localizer, "category_title");
  data.set("heading_before", heading.before);
  data.set("heading_after", heading.after);
  data.set("name", category.name);
  data.set("podcast_count",
           localizer.count("podcasts", static_cast<std::int64_t>(category.shows.size())));
  data.set("has_shows", !category.shows.empty());
  data.set("shows", show_list(site, localizer, category.shows, path));
  return data;
}

} // namespace podcrawl::render::internal

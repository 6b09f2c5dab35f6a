#include <algorithm>
#include <map>
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

std::string display_name(const l10n::Localizer& localizer, const PlannedCategory& category) {
  return localizer.category_name(category.slug).value_or(category.name);
}

Data category_list(const Site& site, const l10n::Localizer& localizer) {
  std::vector<std::size_t> indices(site.plan.categories.size());
  std::iota(indices.begin(), indices.end(), std::size_t{0});
  std::vector<std::string> names;
  for (const auto& category : site.plan.categories) {
    names.push_back(display_name(localizer, category));
  }
  std::sort(indices.begin(), indices.end(), [&](std::size_t a, std::size_t b) {
    const auto& left = names[a];
    const auto& right = names[b];
    if (localizer.collate_less(left, right)) {
      return true;
    }
    return !localizer.collate_less(right, left) && a < b;
  });
  Data list{Data::type::list};
  for (const std::size_t index : indices) {
    const auto& category = site.plan.categories[index];
    Data item;
    set_category_name(item, localizer, category);
    item.set("href", category_path(category));
    item.set("podcast_count",
             localizer.count("podcasts", static_cast<std::int64_t>(category.shows.size())));
    list.push_back(item);
  }
  return list;
}

// The newest episodes of all shows: by publication time, newest first; show and episode
// order break ties so the list is stable. Undated episodes are left out.
Data latest_episodes(const Site& site, const l10n::Localizer& localizer) {
  struct Entry {
    std::int64_t published;
    std::size_t show;
    std::size_t episode;
  };
  std::vector<Entry> entries;
  for (std::size_t show = 0; show < site.plan.shows.size(); ++show) {
    const auto& planned = site.plan.shows[show];
    for (const std::size_t episode : planned.episodes) {
      if (const auto when = plausible_time(planned.stored->show.episodes[episode].published)) {
        entries.push_back({*when, show, episode});
      }
    }
  }
  const std::size_t count = std::min(entries.size(), k_latest_episodes);
  std::partial_sort(entries.begin(), entries.begin() + static_cast<std::ptrdiff_t>(count),
                    entries.end(), [](const Entry& a, const Entry& b) {
                      if (a.published != b.published) {
                        return a.published > b.published;
                      }
                      return a.show != b.show ? a.show < b.show : a.episode < b.episode;
                    });
  Data list{Data::type::list};
  for (std::size_t i = 0; i < count; ++i) {
    const auto& planned = site.plan.shows[entries[i].show];
    Data item = episode_item(site, localizer, planned, entries[i].episode, "");
    item.set("show_title", planned.stored->show.title);
    item.set("show_lang", planned.language);
    item.set("show_href", show_path(planned));
    list.push_back(item);
  }
  return list;
}

// The languages the shows are in, named in the interface language, most shows first.
Data content_languages(const Site& site, const l10n::Localizer& localizer) {
  std::map<std::string, std::int64_t> counts;
  for (const auto& show : site.plan.shows) {
    if (!show.language.empty()) {
      // "en-US" and "en" are one language to a listener.
      ++counts[show.language.substr(0, show.language.find('-'))];
    }
  }
  std::vector<std::pair<std::string, std::int64_t>> languages(counts.begin(), counts.end());
  std::stable_sort(languages.begin(), languages.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  Data list{Data::type::list};
  for (const auto& [tag, shows] : languages) {
    Data item;
    item.set("name", localizer.language_name(tag));
    item.set("podcast_count", localizer.count("podcasts", shows));
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
  const Data latest = latest_episodes(site, localizer);
  data.set("has_latest", !latest.is_empty_list());
  data.set("latest", latest);
  const Data languages = content_languages(site, localizer);
  data.set("has_content_languages", !languages.is_empty_list());
  data.set("content_languages", languages);
  return data;
}

Data category_page(const Site& site, const l10n::Localizer& localizer, std::size_t index) {
  const auto& category = site.plan.categories[index];
  const std::string path = category_path(category);
  const std::string name = display_name(localizer, category);
  Data data = page_frame(
      site, localizer, path,
      localizer.format("category_title", isolate(name)) + " – " + localizer.text("site_name"));
  const Around heading = split_message(localizer, "category_title");
  data.set("heading_before", heading.before);
  data.set("heading_after", heading.after);
  set_category_name(data, localizer, category);
  data.set("podcast_count",
           localizer.count("podcasts", static_cast<std::int64_t>(category.shows.size())));
  data.set("has_shows", !category.shows.empty());
  data.set("shows", show_list(site, localizer, category.shows, path));
  return data;
}

} // namespace podcrawl::render::internal

#include <algorithm>
#include <map>
#include <set>

#include "render_internal.hpp"

namespace podcrawl::render::internal {

namespace {

// Feeds may list any number of categories; a show page links at most this many.
constexpr std::size_t k_max_categories_per_show = 16;

bool has_page(const store::StoredShow& show) {
  // Removed and gone feeds drop out of the directory; their stored data stays in the database.
  return show.active && !show.show.title.empty() && is_safe_slug(show.slug);
}

std::vector<std::size_t> plan_episodes(const store::StoredShow& show, std::int64_t& skipped) {
  std::vector<std::size_t> episodes;
  std::set<std::string_view> seen;
  for (std::size_t i = 0; i < show.show.episodes.size(); ++i) {
    const bool has_slug = i < show.episode_slugs.size() && is_safe_slug(show.episode_slugs[i]);
    if (!has_slug || !seen.insert(show.episode_slugs[i]).second) {
      ++skipped;
      continue;
    }
    episodes.push_back(i);
  }
  return episodes;
}

void plan_categories(SitePlan& plan) {
  std::map<std::string, std::size_t> by_slug;
  for (std::size_t show = 0; show < plan.shows.size(); ++show) {
    auto& planned = plan.shows[show];
    for (const auto& name : planned.stored->show.categories) {
      const std::string slug = l10n::slugify(name);
      if (slug.empty() || planned.categories.size() >= k_max_categories_per_show) {
        continue;
      }
      const auto [found, added] = by_slug.emplace(slug, plan.categories.size());
      if (added) {
        plan.categories.push_back({slug, name, planned.language, {}});
      }
      auto& shows = plan.categories[found->second].shows;
      if (shows.empty() || shows.back() != show) {
        shows.push_back(show);
        planned.categories.push_back(found->second);
      }
    }
  }
}

// Categories were numbered in order of appearance; renumber them in slug order.
void sort_categories(SitePlan& plan) {
  std::vector<std::size_t> order(plan.categories.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    order[i] = i;
  }
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return plan.categories[a].slug < plan.categories[b].slug;
  });
  std::vector<std::size_t> new_index(order.size());
  std::vector<PlannedCategory> sorted;
  for (std::size_t i = 0; i < order.size(); ++i) {
    new_index[order[i]] = i;
    sorted.push_back(std::move(plan.categories[order[i]]));
  }
  plan.categories = std::move(sorted);
  for (auto& show : plan.shows) {
    for (auto& category : show.categories) {
      category = new_index[category];
    }
  }
}

} // namespace

SitePlan plan_site(const std::vector<store::StoredShow>& shows) {
  std::vector<const store::StoredShow*> candidates;
  for (const auto& show : shows) {
    if (has_page(show)) {
      candidates.push_back(&show);
    }
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const auto* a, const auto* b) { return a->slug < b->slug; });
  SitePlan plan;
  plan.skipped_shows = static_cast<std::int64_t>(shows.size() - candidates.size());
  for (const auto* show : candidates) {
    if (!plan.shows.empty() && plan.shows.back().stored->slug == show->slug) {
      ++plan.skipped_shows; // a slug names one show only
      continue;
    }
    PlannedShow planned;
    planned.stored = show;
    planned.episodes = plan_episodes(*show, plan.skipped_episodes);
    planned.language = language_tag_or_empty(show->show.language);
    plan.shows.push_back(std::move(planned));
  }
  plan_categories(plan);
  sort_categories(plan);
  return plan;
}

std::string category_path(const PlannedCategory& category) {
  return "categories/" + category.slug + "/";
}

std::string show_path(const PlannedShow& show) {
  return "podcasts/" + show.stored->slug + "/";
}

std::size_t page_count(const PlannedShow& show) {
  return std::max<std::size_t>(
      1, (show.episodes.size() + k_episodes_per_page - 1) / k_episodes_per_page);
}

std::string show_page_path(const PlannedShow& show, std::size_t page) {
  if (page <= 1) {
    return show_path(show);
  }
  return show_path(show) + "page/" + std::to_string(page) + "/";
}

std::string opml_path(const PlannedShow& show) {
  return "opml/" + show.stored->slug + ".opml";
}

std::string episode_path(const PlannedShow& show, std::size_t episode) {
  return show_path(show) + show.stored->episode_slugs[episode] + "/";
}

std::vector<std::string> all_page_paths(const SitePlan& plan) {
  std::vector<std::string> paths = {""};
  for (const auto& category : plan.categories) {
    paths.push_back(category_path(category));
  }
  for (const auto& show : plan.shows) {
    for (std::size_t page = 1; page <= page_count(show); ++page) {
      paths.push_back(show_page_path(show, page));
    }
  }
  for (const auto& show : plan.shows) {
    for (const std::size_t episode : show.episodes) {
      paths.push_back(episode_path(show, episode));
    }
  }
  return paths;
}

} // namespace podcrawl::render::internal

#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "podcrawl/model/pages.hpp"
#include "podcrawl/store/database.hpp"
#include "podcrawl/store/records.hpp"

namespace podcrawl::store {

// The directory as its pages show it: the page models (pages.hpp) read from the store, the
// walks over every show a render makes, and the changes an incremental reader catches up on.
class DirectoryPages {
public:
  explicit DirectoryPages(Database& database);

  // A stored show by feed URL (normalized) or slug, with its current episodes; nullopt if none.
  std::optional<model::StoredShow> load_show(const std::string& feed_url_or_slug);

  // Each reads one snapshot and only what its page shows. A page that does not exist (no listed
  // show, category or language of that name, a page number past the last) is nullopt. Listed
  // shows are the active ones with a title.
  model::HomePage load_home_page();
  std::optional<model::ShowListPage> load_category_page(const std::string& slug, std::int64_t page);
  // `tag` in lower case, as model::LanguageEntry::tag.
  std::optional<model::ShowListPage> load_language_page(const std::string& tag, std::int64_t page);
  std::optional<model::ShowPage> load_show_page(const std::string& slug, std::int64_t page);
  std::optional<model::EpisodePage> load_episode_page(const std::string& show_slug,
                                                      const std::string& episode_slug);
  // Prepare the statements of the show, episode, category and language pages on this
  // connection and run each once for a page that cannot exist: a server's first requests then
  // find the connection's catalogs read and the statements planned. From then on, this
  // connection's statements use generic plans (plan_cache_mode = force_generic_plan).
  void prepare_pages();
  // For a walk over the whole directory, one bounded batch at a time: the listed shows with a
  // slug after `after_slug`, in slug order, at most `limit`, each with all current episodes.
  std::vector<model::WholeShow> load_show_batch(const std::string& after_slug, int limit);
  // One listed show with all current episodes, as in load_show_batch; nullopt when no listed
  // show has that slug (never stored, removed, or without a title).
  std::optional<model::WholeShow> load_show_pages(const std::string& slug);
  // The listed shows among `slugs` (at most a batch's worth), in slug order; a slug that names
  // no listed show is left out.
  std::vector<model::WholeShow> load_show_pages(const std::vector<std::string>& slugs);
  // For readers that catch up on changes (an incremental render, a server on a replica): a
  // token for the database's state now, to pass to shows_changed_since later. Take it before
  // reading: every change it does not cover is reported later.
  std::string directory_snapshot();
  // The slugs of the shows changed (saved, removed) since `snapshot` was taken, listed or not,
  // in slug order; some changed just before may be among them. Throws core::UsageError for a
  // token not from directory_snapshot.
  std::vector<std::string> shows_changed_since(const std::string& snapshot);
  // The categories with listed shows, slug after `after_slug`, in slug order, at most `limit`.
  std::vector<model::CategoryEntry> load_categories(const std::string& after_slug, int limit);
  // The content languages with listed shows, tag after `after_tag`, in tag order.
  std::vector<model::LanguageEntry> load_languages(const std::string& after_tag, int limit);

private:
  Database::Impl* m_impl;
};

} // namespace podcrawl::store

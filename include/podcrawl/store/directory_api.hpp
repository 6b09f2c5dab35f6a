#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "podcrawl/model/api.hpp"
#include "podcrawl/store/database.hpp"

namespace podcrawl::store {

// Which recent shows recent_feeds() answers.
struct RecentFeedsFilter {
  std::int64_t max = 40;
  std::optional<std::int64_t> since;       // changed at or after (Unix seconds)
  std::vector<std::string> languages;      // declared languages, lower case; "" for none declared
  std::vector<std::string> categories;     // ids or names (any case): in one of them
  std::vector<std::string> not_categories; // in none of them
};

// The directory as its APIs read it: shows and episodes by their stable ids, feed URLs and
// podcast:guids, the newest of them, the categories and the counts. Each read is bounded by its
// arguments (model::k_api_max_results, model::k_api_max_ids); those whose filters can make the
// database scan run under a statement timeout, the lookups by key as one statement on its own.
class DirectoryApi {
public:
  explicit DirectoryApi(Database& database);

  // The stored shows with these ids, in the order asked; ids not stored are left out.
  std::vector<model::DirectoryFeed> feeds_by_ids(const std::vector<std::int64_t>& ids);
  // The show of the feed with this URL, its URL now or one it had before a move.
  std::optional<model::DirectoryFeed> feed_by_url(const std::string& url);
  // The show known by this podcast:guid (compared in lower case).
  std::optional<model::DirectoryFeed> feed_by_guid(const std::string& guid);

  // The current episodes of these shows, newest first (then by id), published at or after
  // `since` when given; at most `max`.
  std::vector<model::DirectoryEpisode> episodes_of(const std::vector<std::int64_t>& feed_ids,
                                                   std::optional<std::int64_t> since,
                                                   std::int64_t max);
  // The newest current episode of each of these shows, in the order asked.
  std::vector<model::DirectoryEpisode> newest_episode_of(const std::vector<std::int64_t>& feed_ids);
  std::optional<model::DirectoryEpisode> episode_by_id(std::int64_t id);
  // The episodes most recently added to the directory (of listed shows), newest first: those
  // with ids below `before` when given, without `exclude` (case-insensitively) in their or
  // their show's title when it is not empty; at most `max`.
  std::vector<model::DirectoryEpisode> recent_episodes(std::int64_t max,
                                                       std::optional<std::int64_t> before,
                                                       const std::string& exclude);
  // The listed shows most recently changed, newest first.
  std::vector<model::DirectoryFeed> recent_feeds(const RecentFeedsFilter& filter);

  // Every category a listed show is in, by id.
  std::vector<model::CategoryRef> categories();
  model::DirectoryCounts counts();

private:
  Database::Impl* m_impl;
};

} // namespace podcrawl::store

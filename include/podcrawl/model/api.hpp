#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "podcrawl/model/show.hpp"

// The directory as its APIs answer it (Podcast Index, iTunes Search, gpodder.net): a show with
// its stable id and what the crawl knows of its feed, and episodes with theirs. `store` reads
// them and `render` writes the JSON; each is bounded by the request that loads it.
namespace podcrawl::model {

// Most shows or episodes one answer holds (Podcast Index's `max`), and its default.
inline constexpr std::int64_t k_api_max_results = 1000;
// Matching shows an API search ranks when it asks for fewer results (SearchRequest::candidates):
// five pages of the default 40. Ranking 500 made a search of common words cost a third more.
inline constexpr std::int64_t k_api_search_candidates = 200;
// Most feed ids one request names (episodes/byfeedid), and most ids of a lookup.
inline constexpr std::size_t k_api_max_ids = 200;

// A category with its stable id.
struct CategoryRef {
  std::int64_t id = 0;
  std::string name;
};

// A show as the APIs describe it.
struct DirectoryFeed {
  std::int64_t id = 0;                 // the show's id: stable for as long as the show is stored
  std::string podcast_guid;            // podcast:guid, or the UUIDv5 of its feed URL
  StoredShow show;                     // the show without episodes; show.feed_url is its URL now
  std::string original_url;            // the URL it was first added by (an alias after a move)
  std::vector<CategoryRef> categories; // in the feed's order
  std::string status;                  // the crawl list's: active, failing, gone, removed
  std::optional<int> last_http_status;
  std::optional<std::int64_t> last_fetch_at;   // Unix seconds
  std::optional<std::int64_t> last_success_at; // the last fetch answered 2xx or 304
  int failures = 0;                            // consecutive failed fetches
  std::string content_hash;       // md5 of title, link, language, author, owner name and e-mail
  std::int64_t episode_count = 0; // episodes the feed carries now
  std::optional<std::int64_t> newest_item_at; // the newest episode's date
  std::optional<std::int64_t> oldest_item_at;
};

// An episode as the APIs describe it, with the fields of its show that each answer repeats.
struct DirectoryEpisode {
  std::int64_t id = 0;            // stable for as long as the episode is stored
  std::int64_t first_seen_at = 0; // when a crawl first stored it
  StoredEpisode episode;
  std::int64_t feed_id = 0;
  std::string feed_title;
  std::string feed_url;
  std::string feed_image;
  std::string feed_language;
  std::string podcast_guid;
  bool feed_dead = false;
};

// The directory's counts (stats/current).
struct DirectoryCounts {
  std::int64_t feeds = 0;
  std::int64_t episodes = 0;
  // Listed shows with an episode published in the last 3, 10, 30 and 90 days.
  std::int64_t feeds_new_3_days = 0;
  std::int64_t feeds_new_10_days = 0;
  std::int64_t feeds_new_30_days = 0;
  std::int64_t feeds_new_90_days = 0;
};

} // namespace podcrawl::model

#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "podcrawl/feed/model.hpp"
#include "podcrawl/store/artwork.hpp"

namespace podcrawl::store {

enum class FeedStatus { active, failing, gone, removed };

// "active", "failing", "gone", "removed".
const char* to_string(FeedStatus status);
// Inverse of to_string; nullopt for anything else.
std::optional<FeedStatus> parse_feed_status(std::string_view text);

// One entry of the crawl list with its fetch state.
struct FeedRecord {
  std::int64_t id = 0;
  std::string url;
  FeedStatus status = FeedStatus::active;
  std::optional<std::int64_t> last_fetch_at;
  std::optional<std::int64_t> next_fetch_at;
  std::optional<int> last_status; // HTTP status of the last fetch
  std::string last_error;
  int failures = 0;      // consecutive
  int failure_score = 0; // weighted failures since the last success
  std::string show_slug; // empty until the feed first parsed
  std::string etag;
  std::string last_modified;
  std::string content_hash; // of the last body stored; empty until one is
};

// One failed fetch or parse, as record_failure stores it on the feed.
struct FetchFailure {
  std::optional<int> http_status; // none when no response arrived
  std::string error;              // one line, for humans
  bool gone = false;              // 410: the feed becomes gone, whatever its score
  int weight = 1;                 // added to the feed's failure score
  int failing_score = 4;          // the score from which the feed shows as failing
};

// A stored show as the renderer and `show` need it: the normalized show, its slugs and dates.
struct StoredShow {
  std::string slug;
  std::string feed_url;
  bool active = true;          // false once its feed was removed or gone
  std::int64_t added_at = 0;   // first stored, Unix seconds
  std::int64_t updated_at = 0; // last changed
  feed::Show show;             // episodes newest first, only those the feed still carries
  std::vector<std::string> episode_slugs; // parallel to show.episodes; unique within the show
  std::optional<StoredArtwork> artwork;   // its cover art, once fetched and re-encoded
  // Parallel to episode_slugs, or empty: each episode's own picture, when the store has one.
  std::vector<std::optional<StoredArtwork>> episode_artwork;
};

struct CrawlRunStats {
  std::optional<std::int64_t> started_at;
  std::optional<std::int64_t> finished_at;
  std::int64_t fetched = 0;
  std::int64_t not_modified = 0;
  std::int64_t failed = 0;
  std::int64_t new_episodes = 0;
};

// Hosts whose learned pace a crawl loads, the most recently asked first.
inline constexpr int k_max_learned_hosts = 200000;
// Hosts `stats` reports for the last crawl.
inline constexpr int k_max_stats_hosts = 50;

// One host's pace as the crawler learned it, and what the run that last asked it saw.
struct HostPaceRecord {
  std::string host;
  double concurrency = 0; // transfers in flight the host ended the run at
  std::int64_t requests = 0;
  std::int64_t throttled = 0;  // answered 429 or 503
  std::int64_t overloaded = 0; // timeouts, cut connections, 502, 504
  int peak = 0;                // most transfers in flight at once
  double mean_latency_seconds = 0;
};

struct Stats {
  std::int64_t feeds_total = 0, feeds_active = 0, feeds_failing = 0, feeds_gone = 0,
               feeds_removed = 0;
  std::int64_t shows = 0;
  std::int64_t episodes = 0;         // episodes their feeds still carry
  std::int64_t removed_episodes = 0; // kept after they vanished from their feed
  std::optional<CrawlRunStats> last_crawl;
  // The hosts the last crawl asked, most requests first (at most k_max_stats_hosts).
  std::vector<HostPaceRecord> last_crawl_hosts;
};

} // namespace podcrawl::store

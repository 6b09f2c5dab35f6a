#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

// Hosts whose learned pace a crawl loads, the most recently asked first.
inline constexpr int k_max_learned_hosts = 200000;
} // namespace podcrawl::store

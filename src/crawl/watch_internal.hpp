#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "podcrawl/crawl/crawler.hpp"
#include "podcrawl/store/changes.hpp"

namespace podcrawl::crawl::internal {

// The longest a watcher waits before it asks the database again when to look for due feeds:
// feeds added to the list announce nothing, and a dead crawler's lease ends unannounced.
inline constexpr std::chrono::seconds k_longest_rest{60};
// The shortest: a feed due that could not be claimed is being claimed by another crawler.
inline constexpr std::chrono::seconds k_shortest_rest{1};

// When a crawl that stays up looks for due feeds, and what wakes it: the feeds announced urgent
// (heard on a connection of its own), its stop signal, and the time the next feed falls due. Not
// thread-safe: the crawl's fetching thread alone uses it.
class Watch {
public:
  // Listen for urgent feeds. Throws store::ConnectionLost when the database cannot be reached.
  Watch(const std::string& database_url, const WatchOptions& options);

  const WatchOptions& options() const { return m_options; }
  // True once the stop signal fired. Does not block.
  bool stop_requested() const;
  // Take the urgent feeds announced so far, without blocking.
  void hear();
  // Up to `limit` of the feeds heard urgent and not taken yet, ascending.
  std::vector<std::int64_t> take_urgent(std::size_t limit);
  bool has_urgent() const { return !m_heard.empty(); }
  // True when due feeds are to be looked for: an urgent feed was heard, or the time came.
  bool time_to_look() const;
  // Nothing was found to claim at `now` (Unix seconds): look again when the next feed falls due
  // (next_due_at, as store::CrawlList::next_due_at gives it), within [k_shortest_rest,
  // k_longest_rest] from now.
  void rest_until(std::optional<std::int64_t> next_due_at, std::int64_t now);
  // When the next look is, on the wall clock (Unix seconds).
  std::int64_t next_look_at() const;
  // Block until the time to look, `until`, an urgent feed or the stop signal, whichever comes
  // first. Throws store::ConnectionLost when the listening connection broke.
  void sleep(std::chrono::steady_clock::time_point until);

private:
  // Add announced feeds to those heard, up to store::k_max_urgent_heard.
  void keep(const std::vector<std::int64_t>& ids);

  WatchOptions m_options;
  store::UrgentFeeds m_urgent;
  std::set<std::int64_t> m_heard;
  std::chrono::steady_clock::time_point m_next_look;
};

} // namespace podcrawl::crawl::internal

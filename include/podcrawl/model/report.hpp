#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

// What crawls saw, as `stats` prints it and the crawl health report shows it: the report's
// page model. Values only, with the arithmetic of their figures.
namespace podcrawl::model {

struct CrawlRunStats {
  std::optional<std::int64_t> started_at;
  std::optional<std::int64_t> finished_at;
  std::int64_t fetched = 0;
  std::int64_t not_modified = 0;
  std::int64_t failed = 0;
  std::int64_t new_episodes = 0;
};

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

// A WebSub hub's worth: the new episodes of the feeds subscribed there, by what saw each first
// (a fetch a delivery from the hub caused, or the crawl's schedule). A hub whose poll count
// grows while its push count stands still has gone silent.
struct WebSubHubFigures {
  std::string hub;
  std::int64_t push = 0;
  std::int64_t poll = 0;
  std::int64_t subscriptions = 0;           // active now
  std::optional<std::int64_t> last_push_at; // its last delivery whose signature held
};

// Hubs `stats` and the report list, most subscriptions first.
inline constexpr int k_max_stats_hubs = 100;

struct Stats {
  std::int64_t feeds_total = 0, feeds_active = 0, feeds_failing = 0, feeds_gone = 0,
               feeds_removed = 0;
  std::int64_t shows = 0;
  std::int64_t episodes = 0;         // episodes their feeds still carry
  std::int64_t removed_episodes = 0; // kept after they vanished from their feed
  std::optional<CrawlRunStats> last_crawl;
  // The hosts the last crawl asked, most requests first (at most k_max_stats_hosts).
  std::vector<HostPaceRecord> last_crawl_hosts;
  // WebSub hubs, at most k_max_stats_hubs.
  std::vector<WebSubHubFigures> websub_hubs;
};

// How one fetch of a feed ended, as the crawl history counts it.
enum class FetchKind {
  ok,           // 2xx, parsed and stored
  unchanged,    // 2xx with the very body stored last time
  not_modified, // 304
  deferred,     // not asked: its host asked for a pause
  network,      // DNS, connect, TLS, timeout, a connection cut short
  client_error, // 4xx other than 410
  server_error, // 5xx
  http_other,   // too many redirects, an encoding not decoded, any other status
  not_a_feed,   // arrived, but not a feed or malformed
  too_large,    // over the body or header cap
  refused,      // an address the policy refuses
  gone,         // 410
};
inline constexpr std::size_t k_fetch_kinds = 12;

// True for the kinds that are failures (network to gone).
constexpr bool is_failure(FetchKind kind) {
  return static_cast<int>(kind) >= static_cast<int>(FetchKind::network);
}

// Fetch latencies counted in buckets of a logarithmic scale, 8 to a tenfold: bucket 0 holds
// answers under 1 ms, bucket i (1..39) those in [10^((i-1)/8), 10^(i/8)) ms, and the last
// those of 75 s (10^(39/8) ms) and more. The counts of two spans add up bucket by bucket, so the
// hours written by many runs merge.
inline constexpr std::size_t k_latency_buckets = 41;
using LatencyCounts = std::array<std::int64_t, k_latency_buckets>;
std::size_t latency_bucket(double seconds);
// The latency (seconds) below which a share q in [0, 1] of the counted answers fall, read from
// the buckets (geometric interpolation within a bucket); nullopt when nothing was counted.
std::optional<double> latency_quantile(const LatencyCounts& counts, double q);

// What a crawl saw over some span (a run, an hour, a host in an hour).
struct CrawlFigures {
  std::array<std::int64_t, k_fetch_kinds> outcomes{};
  std::int64_t new_episodes = 0;
  std::int64_t bytes = 0; // received, compressed as sent
  LatencyCounts latency{};

  std::int64_t& operator[](FetchKind kind) { return outcomes[static_cast<std::size_t>(kind)]; }
  std::int64_t operator[](FetchKind kind) const { return outcomes[static_cast<std::size_t>(kind)]; }
  // Count one fetch; its latency when seconds >= 0 (a request was sent).
  void add(FetchKind kind, double seconds, std::int64_t bytes_received);
  void add(const CrawlFigures& other);
  // Every kind but deferred.
  std::int64_t requests() const {
    std::int64_t total = 0;
    for (std::size_t i = 0; i < k_fetch_kinds; ++i) {
      total += static_cast<FetchKind>(i) == FetchKind::deferred ? 0 : outcomes[i];
    }
    return total;
  }
  std::int64_t failures() const {
    std::int64_t total = 0;
    for (std::size_t i = 0; i < k_fetch_kinds; ++i) {
      total += is_failure(static_cast<FetchKind>(i)) ? outcomes[i] : 0;
    }
    return total;
  }
};

// One host over a report's period.
struct HostFigures {
  std::string host;
  CrawlFigures figures;
  std::optional<double> median_seconds; // latency_quantile 0.5 and 0.9 of its figures
  std::optional<double> slow_seconds;
};

// A feed that is failing, for the report.
struct FailingFeed {
  std::string url;
  std::optional<int> last_status;
  std::string last_error;
  std::optional<std::int64_t> last_fetch_at;
  std::optional<std::int64_t> failing_since; // its first failure since its last success
};

// Everything `podcrawl report` shows: the page model of the crawl health report.
struct CrawlReport {
  std::int64_t now = 0;   // when it was read
  std::int64_t since = 0; // the start of its first day (UTC)
  int days = 0;
  Stats stats;              // as `stats --json` prints them
  std::int64_t runs = 0;    // crawl runs started in the period
  std::int64_t overdue = 0; // feeds due for more than an hour and not fetched
  std::vector<std::pair<std::int64_t, CrawlFigures>> by_day; // each day, oldest first
  CrawlFigures total;                                        // the period's
  std::optional<double> median_seconds; // the period's latency_quantile 0.5 and 0.9
  std::optional<double> slow_seconds;
  std::vector<HostFigures> hosts;         // most requests first, at most k_max_report_hosts
  std::vector<FailingFeed> failing_feeds; // the most failing first, at most k_max_failing_feeds
  std::int64_t failing_total = 0;
};

inline constexpr std::size_t k_max_report_hosts = 5000;
inline constexpr std::size_t k_max_failing_feeds = 100;

} // namespace podcrawl::model

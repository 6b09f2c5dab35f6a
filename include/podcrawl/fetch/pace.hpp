#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "podcrawl/core/config.hpp"
#include "podcrawl/net/url.hpp"

namespace podcrawl::fetch {

// What one answer says of its host's load.
enum class Load {
  clean,      // an HTTP answer that is not a sign of load (2xx, 3xx, 304, most 4xx)
  throttled,  // 429 or 503: the host asks for fewer requests (and may say for how long)
  overloaded, // a timeout, a refused or cut connection, 502 or 504
  neutral     // says nothing of the load (a DNS failure, a refused address)
};

// Where a host's pace may go: [floor, ceiling] transfers in flight, and at most
// requests_per_second starts (0: no rate limit).
struct PaceBounds {
  int floor = 1;
  int ceiling = 32;
  int requests_per_second = 0;
};

// Handed out when a transfer starts and handed back with its answer.
struct PaceTicket {
  std::uint64_t sequence = 0;
  double started_at = 0; // seconds on the caller's clock
  int window = 1;        // the host's transfers in flight once it started, itself included
};

// The figures of one host for one crawl.
struct HostFigures {
  std::string host;
  double concurrency = 0; // the pace it ended at
  int peak = 0;           // most transfers in flight at once
  std::int64_t requests = 0;
  std::int64_t throttled = 0;  // answered 429 or 503
  std::int64_t overloaded = 0; // timeouts, cut connections, 502, 504
  double waited_seconds = 0;   // time paused by Retry-After
  double mean_latency_seconds = 0;
};

// How many transfers one host may have in flight, found from its answers as TCP finds a
// window: from a start it doubles each round trip of clean answers until the first sign of load,
// then grows by one per round trip (additive increase); a timeout halves it, a 429 or 503 cuts it
// to 0.7 of what the host had in flight when it refused, a sharp rise in latency to 0.75, at
// most once per round trip (multiplicative decrease); a Retry-After pauses the host for its time.
// After a 429 or 503 it grows back quickly to just under the level the host refused at, and past
// it ever more slowly each time the host refuses again. Times are seconds on the caller's
// monotonic clock. Not thread-safe.
class HostPace {
public:
  // `learned`: a pace remembered from earlier crawls, which starts without the doubling.
  HostPace(PaceBounds bounds, double start, bool learned);

  // True when one more transfer may start at `now` with `in_flight` already running.
  bool may_start(int in_flight, double now) const;
  // Record a transfer starting at `now` with `in_flight` already running.
  PaceTicket on_start(int in_flight, double now);
  // Record its answer at `now`. retry_after_seconds: what a throttling answer asked for.
  void on_answer(const PaceTicket& ticket, Load load, double now,
                 std::optional<std::int64_t> retry_after_seconds);

  // Transfers allowed in flight: the pace rounded down, within the bounds.
  int allowed() const;
  double pace() const { return m_pace; }
  // When the host may be asked again; <= now when it is not paused.
  double paused_until() const { return m_paused_until; }
  // When the host may start a transfer again, paused or rate-limited; <= now when it may now.
  double resumes_at() const { return std::max(m_paused_until, m_next_start); }
  HostFigures figures(std::string host) const;

private:
  // Cut the pace to `from` x `factor`, once per round trip.
  void cut(double factor, const PaceTicket& ticket, double from);

  PaceBounds m_bounds;
  double m_pace;
  bool m_doubling;
  std::uint64_t m_next_sequence = 0;
  std::uint64_t m_cut_sequence = 0; // answers to transfers started before this cut no more
  // The last start that filled the host's window: a transfer started at or before it was in
  // flight while the host had all it may take, so its clean answer is news that it can take more.
  std::optional<std::uint64_t> m_filled_sequence;
  double m_paused_until = 0;
  double m_throttled_at = 0;   // the window of the transfer it last refused; 0: never
  double m_probe_slowdown = 0; // how much slower the pace grows past m_throttled_at
  double m_next_start = 0;     // the rate limit's next free start
  double m_base_latency = -1;
  double m_smoothed_latency = -1;
  int m_peak = 0;
  std::int64_t m_requests = 0;
  std::int64_t m_throttled = 0;
  std::int64_t m_overloaded = 0;
  double m_waited = 0;
  double m_latency_sum = 0;
  std::int64_t m_answers = 0;
};

// The name a host is paced under: its name, with its port when not the scheme's default
// ("feeds.example.com", "127.0.0.1:8080", "[::1]:8443"). A different port is a different server.
std::string host_key(const net::Url& url);

// The paces of every host of one crawl: each starts at the pace learned by earlier crawls, else
// at `[crawl] per_host`, and stays within `[crawl] per_host_max` and the host's own rule.
class Pacer {
public:
  explicit Pacer(const core::CrawlConfig& crawl);

  // Paces remembered from earlier crawls, by host name. Call before the first host().
  void learn(const std::map<std::string, double>& paces);
  // The pace of a host, created on first use.
  HostPace& host(const std::string& name);
  // The figures of every host asked this crawl.
  std::vector<HostFigures> figures() const;
  // The bounds that apply to a host (a host_key): the longest matching rule of `[crawl.hosts]`
  // (a rule for "libsyn.com" matches it and its subdomains on any port; one for
  // "feeds.example.com:8080" that port only) over the defaults.
  PaceBounds bounds_for(std::string_view host) const;

private:
  const core::CrawlConfig& m_crawl;
  std::map<std::string, double> m_learned;
  std::map<std::string, HostPace> m_hosts;
};

} // namespace podcrawl::fetch

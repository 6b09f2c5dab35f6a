#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>

#include "podcrawl/http/cache.hpp"
#include "podcrawl/model/report.hpp"
#include "podcrawl/serve/fresh_cache.hpp"

namespace podcrawl::serve::internal {

// Request counts by route and status, a latency histogram, for /metrics.
class Metrics {
public:
  void observe(const char* route, int status, std::chrono::nanoseconds latency);
  // An API request also counts by endpoint and key ("" for none): only keys that passed
  // the check, so the labels are as many as the keys.
  void observe_api(const char* endpoint, const std::string& key, int status);
  // An answer from memory past its freshness, the database being unreachable.
  void count_stale() { m_stale.fetch_add(1, std::memory_order_relaxed); }
  // The Prometheus text exposition of the requests, the cache and the directory's figures.
  std::string text(const http::PageCache& cache, const FreshCache::FeedFigures& feed_cache,
                   const model::Stats& stats) const;

private:
  // Upper bounds of the latency buckets, in seconds.
  static constexpr std::array<double, 10> k_buckets = {0.0005, 0.001, 0.0025, 0.005, 0.01,
                                                       0.025,  0.05,  0.1,    0.25,  1.0};
  std::atomic<std::uint64_t> m_stale{0};
  mutable std::mutex m_mutex;
  std::map<std::pair<std::string, int>, std::uint64_t> m_requests;
  std::map<std::tuple<std::string, std::string, int>, std::uint64_t> m_api_requests;
  std::array<std::uint64_t, k_buckets.size()> m_bucket_counts{};
  std::uint64_t m_count = 0;
  double m_sum_seconds = 0;
};

} // namespace podcrawl::serve::internal

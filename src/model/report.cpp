#include "podcrawl/model/report.hpp"

#include <algorithm>
#include <cmath>

namespace podcrawl::model {
namespace {

constexpr double k_buckets_per_tenfold = 8.0;

} // namespace

std::size_t latency_bucket(double seconds) {
  const double ms = seconds * 1000.0;
  if (!(ms >= 1.0)) {
    return 0;
  }
  const double index = std::floor(k_buckets_per_tenfold * std::log10(ms)) + 1.0;
  return static_cast<std::size_t>(std::min(index, static_cast<double>(k_latency_buckets - 1)));
}

std::optional<double> latency_quantile(const LatencyCounts& counts, double q) {
  std::int64_t total = 0;
  for (const auto count : counts) {
    total += count;
  }
  if (total <= 0) {
    return std::nullopt;
  }
  const double target = std::clamp(q, 0.0, 1.0) * static_cast<double>(total);
  double before = 0;
  for (std::size_t i = 0; i < k_latency_buckets; ++i) {
    const auto count = static_cast<double>(counts[i]);
    if (count <= 0 || before + count < target) {
      before += count;
      continue;
    }
    const double share = std::clamp((target - before) / count, 0.0, 1.0);
    if (i == 0) {
      return share / 1000.0; // linear within [0, 1 ms)
    }
    const double low = std::pow(10.0, static_cast<double>(i - 1) / k_buckets_per_tenfold);
    if (i == k_latency_buckets - 1) {
      return low / 1000.0; // open-ended: its lower bound
    }
    return low * std::pow(10.0, share / k_buckets_per_tenfold) / 1000.0;
  }
  return std::pow(10.0, static_cast<double>(k_latency_buckets - 2) / k_buckets_per_tenfold) /
         1000.0;
}

void CrawlFigures::add(FetchKind kind, double seconds, std::int64_t bytes_received) {
  ++(*this)[kind];
  bytes += std::max<std::int64_t>(bytes_received, 0);
  if (kind != FetchKind::deferred && seconds >= 0) {
    ++latency[latency_bucket(seconds)];
  }
}

void CrawlFigures::add(const CrawlFigures& other) {
  for (std::size_t i = 0; i < k_fetch_kinds; ++i) {
    outcomes[i] += other.outcomes[i];
  }
  new_episodes += other.new_episodes;
  bytes += other.bytes;
  for (std::size_t i = 0; i < k_latency_buckets; ++i) {
    latency[i] += other.latency[i];
  }
}

} // namespace podcrawl::model

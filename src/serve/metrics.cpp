#include <sstream>
#include <string>
#include <string_view>

#include "metrics_internal.hpp"

namespace podcrawl::serve::internal {

namespace {

// Text as a Prometheus label value: backslash, double quote and line feed escaped.
std::string label_value(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    if (c == '\\' || c == '"') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

} // namespace

void Metrics::observe(const char* route, int status, std::chrono::nanoseconds latency) {
  const double seconds = std::chrono::duration<double>(latency).count();
  std::lock_guard lock(m_mutex);
  ++m_requests[{route, status}];
  for (std::size_t i = 0; i < k_buckets.size(); ++i) {
    if (seconds <= k_buckets[i]) {
      ++m_bucket_counts[i];
    }
  }
  ++m_count;
  m_sum_seconds += seconds;
}

void Metrics::observe_api(const char* endpoint, const std::string& key, int status) {
  std::lock_guard lock(m_mutex);
  ++m_api_requests[{endpoint, key, status}];
}

std::string Metrics::text(const http::PageCache& cache, const FreshCache::FeedFigures& feed_cache,
                          const model::Stats& stats) const {
  std::ostringstream out;
  {
    std::lock_guard lock(m_mutex);
    out << "# HELP podcrawl_http_requests_total Requests answered, by route and status.\n"
           "# TYPE podcrawl_http_requests_total counter\n";
    for (const auto& [key, count] : m_requests) {
      out << "podcrawl_http_requests_total{route=\"" << key.first << "\",status=\"" << key.second
          << "\"} " << count << '\n';
    }
    out << "# HELP podcrawl_api_requests_total API requests answered, by endpoint, key and "
           "status.\n"
           "# TYPE podcrawl_api_requests_total counter\n";
    for (const auto& [key, count] : m_api_requests) {
      out << "podcrawl_api_requests_total{endpoint=\"" << std::get<0>(key) << "\",key=\""
          << std::get<1>(key) << "\",status=\"" << std::get<2>(key) << "\"} " << count << '\n';
    }
    out << "# HELP podcrawl_http_request_duration_seconds Time to answer a request.\n"
           "# TYPE podcrawl_http_request_duration_seconds histogram\n";
    for (std::size_t i = 0; i < k_buckets.size(); ++i) {
      out << "podcrawl_http_request_duration_seconds_bucket{le=\"" << k_buckets[i] << "\"} "
          << m_bucket_counts[i] << '\n';
    }
    out << "podcrawl_http_request_duration_seconds_bucket{le=\"+Inf\"} " << m_count << '\n'
        << "podcrawl_http_request_duration_seconds_sum " << m_sum_seconds << '\n'
        << "podcrawl_http_request_duration_seconds_count " << m_count << '\n';
  }
  out << "# HELP podcrawl_cache_hits_total Pages answered from the cache.\n"
         "# TYPE podcrawl_cache_hits_total counter\n"
      << "podcrawl_cache_hits_total " << cache.hits() << '\n'
      << "# HELP podcrawl_cache_misses_total Pages rendered because the cache lacked them.\n"
         "# TYPE podcrawl_cache_misses_total counter\n"
      << "podcrawl_cache_misses_total " << cache.misses() << '\n'
      << "# HELP podcrawl_cache_bytes Bytes of rendered pages held.\n"
         "# TYPE podcrawl_cache_bytes gauge\n"
      << "podcrawl_cache_bytes " << cache.bytes() << '\n'
      << "# HELP podcrawl_cache_entries Pages held.\n"
         "# TYPE podcrawl_cache_entries gauge\n"
      << "podcrawl_cache_entries " << cache.entries() << '\n'
      << "# HELP podcrawl_feed_cache_hits_total Feeds of search results read from memory.\n"
         "# TYPE podcrawl_feed_cache_hits_total counter\n"
      << "podcrawl_feed_cache_hits_total " << feed_cache.hits << '\n'
      << "# HELP podcrawl_feed_cache_misses_total Feeds of search results read from the "
         "database.\n"
         "# TYPE podcrawl_feed_cache_misses_total counter\n"
      << "podcrawl_feed_cache_misses_total " << feed_cache.misses << '\n'
      << "# HELP podcrawl_feed_cache_entries Feeds held.\n"
         "# TYPE podcrawl_feed_cache_entries gauge\n"
      << "podcrawl_feed_cache_entries " << feed_cache.entries << '\n'
      << "# HELP podcrawl_stale_answers_total Pages answered from memory while the database was "
         "unreachable.\n"
      << "# TYPE podcrawl_stale_answers_total counter\n"
      << "podcrawl_stale_answers_total " << m_stale.load(std::memory_order_relaxed) << '\n';
  out << "# HELP podcrawl_feeds Feeds of the crawl list, by status.\n"
         "# TYPE podcrawl_feeds gauge\n";
  const std::pair<const char*, std::int64_t> feeds[] = {{"active", stats.feeds_active},
                                                        {"failing", stats.feeds_failing},
                                                        {"gone", stats.feeds_gone},
                                                        {"removed", stats.feeds_removed}};
  for (const auto& [status, count] : feeds) {
    out << "podcrawl_feeds{status=\"" << status << "\"} " << count << '\n';
  }
  out << "# HELP podcrawl_shows Shows stored.\n# TYPE podcrawl_shows gauge\n"
      << "podcrawl_shows " << stats.shows << '\n'
      << "# HELP podcrawl_episodes Episodes their feeds still carry.\n"
         "# TYPE podcrawl_episodes gauge\n"
      << "podcrawl_episodes " << stats.episodes << '\n';
  if (!stats.websub_hubs.empty()) {
    out << "# HELP podcrawl_websub_new_episodes_total New episodes of feeds subscribed at a WebSub "
           "hub, by hub and by what saw them first: a fetch the hub's push caused, or the poll.\n"
           "# TYPE podcrawl_websub_new_episodes_total counter\n";
    for (const auto& hub : stats.websub_hubs) {
      const std::string label = label_value(hub.hub);
      out << "podcrawl_websub_new_episodes_total{hub=\"" << label << "\",first=\"push\"} "
          << hub.push << '\n'
          << "podcrawl_websub_new_episodes_total{hub=\"" << label << "\",first=\"poll\"} "
          << hub.poll << '\n';
    }
    out << "# HELP podcrawl_websub_subscriptions Active WebSub subscriptions, by hub.\n"
           "# TYPE podcrawl_websub_subscriptions gauge\n";
    for (const auto& hub : stats.websub_hubs) {
      out << "podcrawl_websub_subscriptions{hub=\"" << label_value(hub.hub) << "\"} "
          << hub.subscriptions << '\n';
    }
  }
  if (stats.last_crawl) {
    const auto& run = *stats.last_crawl;
    out << "# HELP podcrawl_last_crawl_feeds Feeds of the last crawl, by outcome.\n"
           "# TYPE podcrawl_last_crawl_feeds gauge\n"
        << "podcrawl_last_crawl_feeds{outcome=\"fetched\"} " << run.fetched << '\n'
        << "podcrawl_last_crawl_feeds{outcome=\"not_modified\"} " << run.not_modified << '\n'
        << "podcrawl_last_crawl_feeds{outcome=\"failed\"} " << run.failed << '\n'
        << "# HELP podcrawl_last_crawl_new_episodes Episodes the last crawl stored first.\n"
           "# TYPE podcrawl_last_crawl_new_episodes gauge\n"
        << "podcrawl_last_crawl_new_episodes " << run.new_episodes << '\n';
    if (run.started_at) {
      out << "# HELP podcrawl_last_crawl_started_seconds When the last crawl started.\n"
             "# TYPE podcrawl_last_crawl_started_seconds gauge\n"
          << "podcrawl_last_crawl_started_seconds " << *run.started_at << '\n';
    }
  }
  return out.str();
}

} // namespace podcrawl::serve::internal

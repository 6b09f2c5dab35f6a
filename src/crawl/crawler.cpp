#include "podcrawl/crawl/crawler.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include <spdlog/spdlog.h>

#include "podcrawl/core/time.hpp"
#include "podcrawl/feed/parser.hpp"
#include "podcrawl/fetch/fetcher.hpp"
#include "podcrawl/net/url.hpp"
#include "podcrawl/store/database.hpp"

namespace podcrawl::crawl {

namespace {

// A feed is leased for longer than any single fetch may take, so a crashed crawler's claims
// expire on their own.
std::int64_t lease_seconds(const core::FetchConfig& fetch) {
  return (fetch.total_timeout_seconds + fetch.connect_timeout_seconds) * (fetch.max_redirects + 1) +
         60;
}

// Shared by the workers of one run.
class Run {
public:
  Run(const std::string& database_url, const core::Config& config, const CrawlOptions& options,
      const Progress& progress)
      : m_database_url(database_url),
        m_config(config),
        m_options(options),
        m_progress(progress),
        m_started(core::now()),
        m_deadline(std::chrono::steady_clock::now() +
                   std::chrono::seconds(options.deadline_seconds.value_or(365L * 86400))) {}

  CrawlSummary execute();

private:
  void work();
  bool take_slot();
  std::optional<store::FeedRecord> claim(store::Database& database, std::int64_t lease);
  void process(store::Database& database, const store::FeedRecord& feed);
  void store_fetched(store::Database& database, const store::FeedRecord& feed,
                     const fetch::FetchResult& result);
  void fail(store::Database& database, const store::FeedRecord& feed,
            std::optional<int> http_status, const std::string& error, bool gone);
  void count(std::int64_t CrawlSummary::*field, std::int64_t amount = 1);
  double jitter();

  const std::string& m_database_url;
  const core::Config& m_config;
  const CrawlOptions& m_options;
  const Progress& m_progress;
  const std::int64_t m_started;
  const std::chrono::steady_clock::time_point m_deadline;
  std::mutex m_mutex;
  CrawlSummary m_summary;
  std::mt19937_64 m_random{std::random_device{}()};
  std::exception_ptr m_error;
  std::mutex m_cursor_mutex;
  std::int64_t m_cursor = 0; // with --all: the highest feed id claimed so far
};

CrawlSummary Run::execute() {
  store::Database bookkeeping(m_database_url);
  const std::int64_t run_id = bookkeeping.begin_crawl_run(m_started);
  const int workers = std::max(1, m_options.concurrency);
  std::vector<std::thread> threads;
  threads.reserve(static_cast<std::size_t>(workers));
  for (int i = 0; i < workers; ++i) {
    threads.emplace_back([this] { work(); });
  }
  for (auto& thread : threads) {
    thread.join();
  }
  if (m_error) {
    std::rethrow_exception(m_error);
  }
  store::CrawlRunStats totals;
  totals.started_at = m_started;
  totals.finished_at = core::now();
  totals.fetched = m_summary.fetched;
  totals.not_modified = m_summary.not_modified;
  totals.failed = m_summary.failed;
  totals.new_episodes = m_summary.new_episodes;
  bookkeeping.finish_crawl_run(run_id, totals);
  return m_summary;
}

// Reserves one feed of the --limit budget; false when the run should claim nothing more.
bool Run::take_slot() {
  std::lock_guard lock(m_mutex);
  if (m_error || std::chrono::steady_clock::now() >= m_deadline) {
    return false;
  }
  if (m_options.limit && m_summary.claimed >= *m_options.limit) {
    return false;
  }
  ++m_summary.claimed;
  return true;
}

// One due feed, or nullopt when none is left. With --all the workers walk the list by id
// together, so the run reaches every feed once.
std::optional<store::FeedRecord> Run::claim(store::Database& database, std::int64_t lease) {
  std::vector<store::FeedRecord> claimed;
  if (m_options.all) {
    std::lock_guard lock(m_cursor_mutex);
    claimed = database.claim_due_feeds(1, true, core::now(), lease, m_cursor);
    if (!claimed.empty()) {
      m_cursor = claimed.front().id;
    }
  } else {
    claimed = database.claim_due_feeds(1, false, core::now(), lease);
  }
  if (claimed.empty()) {
    return std::nullopt;
  }
  return std::move(claimed.front());
}

void Run::work() {
  try {
    store::Database database(m_database_url);
    const std::int64_t lease = lease_seconds(m_config.fetch);
    while (take_slot()) {
      const auto claimed = claim(database, lease);
      if (!claimed) {
        std::lock_guard lock(m_mutex);
        --m_summary.claimed;
        return;
      }
      process(database, *claimed);
    }
  } catch (...) {
    std::lock_guard lock(m_mutex);
    if (!m_error) {
      m_error = std::current_exception();
    }
  }
}

void Run::process(store::Database& database, const store::FeedRecord& feed) {
  fetch::FetchRequest request;
  request.url = feed.url;
  request.etag = feed.etag;
  request.last_modified = feed.last_modified;
  const fetch::FetchResult result = fetch::fetch(request, m_config.fetch);
  switch (result.outcome) {
    case fetch::FetchOutcome::ok:
      store_fetched(database, feed, result);
      break;
    case fetch::FetchOutcome::not_modified:
      database.record_not_modified(feed.id, core::now(),
                                   core::now() + m_config.crawl.refresh_interval_seconds);
      count(&CrawlSummary::not_modified);
      break;
    default:
      fail(database, feed,
           result.http_status > 0 ? std::optional(result.http_status) : std::nullopt, result.error,
           result.outcome == fetch::FetchOutcome::gone);
      break;
  }
  if (!result.permanent_url.empty()) {
    if (const auto moved = net::normalize_feed_url(result.permanent_url);
        moved && *moved != feed.url && database.move_feed(feed.id, *moved)) {
      spdlog::info("{} moved permanently to {}", net::redact(feed.url), net::redact(*moved));
    }
  }
  if (m_progress) {
    std::lock_guard lock(m_mutex);
    m_progress(m_summary);
  }
}

void Run::store_fetched(store::Database& database, const store::FeedRecord& feed,
                        const fetch::FetchResult& result) {
  feed::ParseOptions parse_options;
  parse_options.feed_url = result.final_url;
  parse_options.content_type = result.content_type;
  feed::ParseResult parsed = feed::parse_feed(result.body, parse_options);
  if (parsed.outcome != feed::ParseOutcome::ok) {
    fail(database, feed, result.http_status, parsed.error, false);
    return;
  }
  parsed.show.feed_url = feed.url;
  const auto max_episodes = static_cast<std::size_t>(m_config.crawl.max_episodes_per_feed);
  if (parsed.show.episodes.size() > max_episodes) {
    parsed.show.episodes.resize(max_episodes);
  }
  store::FetchMeta meta;
  meta.http_status = result.http_status;
  meta.etag = result.etag;
  meta.last_modified = result.last_modified;
  const std::int64_t now = core::now();
  const auto saved = database.record_success(feed.id, meta, parsed.show, now,
                                             now + m_config.crawl.refresh_interval_seconds);
  count(&CrawlSummary::fetched);
  count(&CrawlSummary::new_episodes, saved.new_episodes);
  spdlog::debug("{}: {} episodes, {} new", net::redact(feed.url), parsed.show.episodes.size(),
                saved.new_episodes);
  if (const auto moved = net::normalize_feed_url(parsed.show.new_feed_url);
      moved && *moved != feed.url && database.move_feed(feed.id, *moved)) {
    spdlog::info("{} announces its new URL {}", net::redact(feed.url), net::redact(*moved));
  }
}

void Run::fail(store::Database& database, const store::FeedRecord& feed,
               std::optional<int> http_status, const std::string& error, bool gone) {
  const std::int64_t now = core::now();
  const std::int64_t wait = backoff_seconds(feed.failures + 1, m_config.crawl, jitter());
  database.record_failure(feed.id, http_status, error, gone, now, now + wait);
  count(&CrawlSummary::failed);
  spdlog::warn("{}: {}", net::redact(feed.url), error);
}

void Run::count(std::int64_t CrawlSummary::*field, std::int64_t amount) {
  std::lock_guard lock(m_mutex);
  m_summary.*field += amount;
}

double Run::jitter() {
  std::lock_guard lock(m_mutex);
  return std::uniform_real_distribution<double>(0.0, 1.0)(m_random);
}

} // namespace

std::int64_t backoff_seconds(int failures, const core::CrawlConfig& config, double jitter) {
  const int exponent = std::clamp(failures - 1, 0, 40);
  const double raw = static_cast<double>(config.backoff_base_seconds) * std::ldexp(1.0, exponent);
  const double capped = std::min(raw, static_cast<double>(config.backoff_ceiling_seconds));
  const double spread = capped * 0.25 * std::clamp(jitter, 0.0, 1.0);
  return static_cast<std::int64_t>(capped * 0.75 + spread);
}

CrawlSummary run_crawl(const std::string& database_url, const core::Config& config,
                       const CrawlOptions& options, const Progress& progress) {
  Run run(database_url, config, options, progress);
  return run.execute();
}

} // namespace podcrawl::crawl

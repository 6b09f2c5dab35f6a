#include "podcrawl/crawl/crawler.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <exception>
#include <iterator>
#include <limits>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include <spdlog/spdlog.h>

#include "podcrawl/core/bounded_queue.hpp"
#include "podcrawl/core/error.hpp"
#include "podcrawl/core/hash.hpp"
#include "podcrawl/core/time.hpp"
#include "podcrawl/crawl/websub.hpp"
#include "podcrawl/feed/parser.hpp"
#include "podcrawl/fetch/pool.hpp"
#include "podcrawl/net/url.hpp"
#include "podcrawl/store/crawl_history.hpp"
#include "podcrawl/store/crawl_list.hpp"
#include "podcrawl/store/database.hpp"
#include "podcrawl/store/fetch_outcomes.hpp"
#include "podcrawl/store/history.hpp"
#include "podcrawl/store/websub.hpp"
#include "watch_internal.hpp"

namespace podcrawl::crawl {

namespace {

// Feeds claimed in one query, at most.
constexpr int k_max_claim_batch = 256;
// Fetched feeds waiting for a worker, per worker: bounds memory whatever the crawl list's size.
constexpr std::size_t k_queue_per_worker = 4;
// Feeds claimed beyond the transfer slots, per slot, so that feeds waiting for a host at its pace
// (or paused) leave the slots to other hosts' feeds.
constexpr std::int64_t k_claimed_per_slot = 4;
// How often the hosts' paces are saved during a run (and once at its end), and the progress
// line's slowest hosts found.
constexpr auto k_pace_save_interval = std::chrono::seconds(15);
constexpr auto k_slowest_hosts_interval = std::chrono::milliseconds(500);
constexpr std::size_t k_slowest_hosts = 3;
// Hosts a run writes to the history per hour, for each of: the most failures, the most
// requests, the slowest answers (the same host may be in several). The hour's own row counts
// every host. Until its hour is over, a run holds the hosts of that hour in memory, trimmed to
// k_held_hosts_per_rank of each when they grow past three times that.
constexpr std::size_t k_history_hosts_per_rank = 200;
constexpr std::size_t k_held_hosts_per_rank = 2000;
constexpr std::int64_t k_hour_seconds = 3600;
constexpr std::int64_t k_day_seconds = 86400;
// A watcher's work is recorded as a crawl run an hour, so that `stats` shows the figures of the
// latest hour, `report` counts a watcher's runs as it counts cron's, and the history is pruned
// as often.
constexpr auto k_watch_run_length = std::chrono::hours(1);
// A watcher that never runs dry reports a batch this often.
constexpr auto k_batch_report_interval = std::chrono::seconds(60);
// A watcher fetches the cover art that is due after a batch that stored shows, and at least
// this often (images fall due again on their own), as a crawl from cron every 15 minutes does.
constexpr auto k_art_interval = std::chrono::minutes(15);
// How long a watcher that lost the database waits before it connects again.
constexpr auto k_reconnect_pause = std::chrono::seconds(5);
// No deadline.
constexpr auto k_far_away = std::chrono::hours(24 * 365);

// One row of the failure weights: outcome, HTTP status range (inclusive), weight.
struct WeightRule {
  fetch::FetchOutcome outcome;
  int first_status;
  int last_status;
  int weight;
};

// The weight of a failure is how little the next try is likely to change: 1 for what usually
// passes by itself (network errors and timeouts, 408, 429, 5xx), 2 for what the publisher has to
// fix but may be passing (a document that is not a feed or is malformed, a body over the cap, a
// redirect loop or unsupported encoding, any other status), 3 for a URL that is wrong or closed
// to podcrawl (404, 401, 403, an address the policy refuses, 410). The first matching row wins.
constexpr WeightRule k_failure_weights[] = {
    {fetch::FetchOutcome::network_error, 0, 999, 1}, // DNS, connect, TLS, timeout, cut short
    {fetch::FetchOutcome::http_error, 408, 408, 1},  // Request Timeout
    {fetch::FetchOutcome::http_error, 429, 429, 1},  // Too Many Requests
    {fetch::FetchOutcome::http_error, 500, 599, 1},
    {fetch::FetchOutcome::http_error, 401, 401, 3},
    {fetch::FetchOutcome::http_error, 403, 403, 3},
    {fetch::FetchOutcome::http_error, 404, 404, 3},
    {fetch::FetchOutcome::http_error, 0, 999, 2}, // redirect loop, encoding, other 4xx, odd 3xx
    {fetch::FetchOutcome::ok, 0, 999, 2},         // arrived, but not a feed or malformed
    {fetch::FetchOutcome::too_large, 0, 999, 2},
    {fetch::FetchOutcome::refused, 0, 999, 3},
    {fetch::FetchOutcome::gone, 0, 999, 3},
};
// Anything the table does not name.
constexpr int k_default_failure_weight = 2;

// A feed is leased for longer than any single fetch may take. (A crawler that dies frees its
// claims sooner: a lease also ends with the claiming connection, which `claims` holds for the
// whole run.)
// A claimed feed may also wait for its host: for a Retry-After pause and for the feeds ahead
// of it on that host.
constexpr std::int64_t k_lease_waiting_seconds = 900;
std::int64_t lease_seconds(const core::FetchConfig& fetch) {
  return (fetch.total_timeout_seconds + fetch.connect_timeout_seconds) * (fetch.max_redirects + 1) +
         60 + k_lease_waiting_seconds;
}

// The hosts' paces a run saves: those whose figures changed since its last save, counted from
// the start of the current run (a watcher's hourly runs share one Pacer).
class PaceLedger {
public:
  std::vector<model::HostPaceRecord> changed(const fetch::Pacer& pacer) {
    std::vector<model::HostPaceRecord> records;
    for (const auto& figures : pacer.figures()) {
      model::HostPaceRecord record{figures.host,
                                   figures.concurrency,
                                   figures.requests,
                                   figures.throttled,
                                   figures.overloaded,
                                   figures.peak,
                                   figures.mean_latency_seconds};
      if (const auto base = m_run_start.find(figures.host); base != m_run_start.end()) {
        record.requests -= base->second.requests;
        record.throttled -= base->second.throttled;
        record.overloaded -= base->second.overloaded;
      }
      if (record.requests <= 0) {
        continue;
      }
      auto& saved = m_saved[figures.host];
      if (same(saved, record)) {
        continue;
      }
      saved = record;
      records.push_back(std::move(record));
    }
    return records;
  }

  // Count from here on, for a new run.
  void start_run(const fetch::Pacer& pacer) {
    m_run_start.clear();
    m_saved.clear();
    for (auto& figures : pacer.figures()) {
      m_run_start.emplace(figures.host, figures);
    }
  }

private:
  static bool same(const model::HostPaceRecord& a, const model::HostPaceRecord& b) {
    return a.concurrency == b.concurrency && a.requests == b.requests &&
           a.throttled == b.throttled && a.overloaded == b.overloaded && a.peak == b.peak &&
           a.mean_latency_seconds == b.mean_latency_seconds;
  }

  std::unordered_map<std::string, fetch::HostFigures> m_run_start;
  std::unordered_map<std::string, model::HostPaceRecord> m_saved;
};

struct Job {
  store::FeedRecord feed;
  fetch::FetchResult result;
};

// How a fetch that failed is counted in the history.
model::FetchKind failure_kind(fetch::FetchOutcome outcome, int http_status) {
  switch (outcome) {
    case fetch::FetchOutcome::ok:
      return model::FetchKind::not_a_feed;
    case fetch::FetchOutcome::gone:
      return model::FetchKind::gone;
    case fetch::FetchOutcome::refused:
      return model::FetchKind::refused;
    case fetch::FetchOutcome::too_large:
      return model::FetchKind::too_large;
    case fetch::FetchOutcome::network_error:
      return model::FetchKind::network;
    case fetch::FetchOutcome::http_error:
      return http_status >= 500 && http_status <= 599   ? model::FetchKind::server_error
             : http_status >= 400 && http_status <= 499 ? model::FetchKind::client_error
                                                        : model::FetchKind::http_other;
    case fetch::FetchOutcome::not_modified:
    case fetch::FetchOutcome::deferred:
      break;
  }
  return model::FetchKind::http_other;
}

using HostHours = std::map<std::pair<std::int64_t, std::string>, model::CrawlFigures>;

std::int64_t hour_of(std::int64_t t) {
  return t - (t % k_hour_seconds + k_hour_seconds) % k_hour_seconds;
}

// Of host-hours, keep those of the hosts with the most failures, the most requests and the
// slowest answers, per_rank of each.
void keep_ranked_hosts(HostHours& host_hours, std::size_t per_rank) {
  std::map<std::string, model::CrawlFigures> by_host;
  for (const auto& [key, figures] : host_hours) {
    by_host[key.second].add(figures);
  }
  if (by_host.size() <= per_rank) {
    return;
  }
  struct Ranked {
    const std::string* host;
    std::int64_t failures;
    std::int64_t requests;
    double slow;
  };
  std::vector<Ranked> ranked;
  ranked.reserve(by_host.size());
  for (const auto& [host, figures] : by_host) {
    ranked.push_back({&host, figures.failures(), figures.requests(),
                      model::latency_quantile(figures.latency, 0.9).value_or(0.0)});
  }
  std::set<std::string> kept;
  const auto keep_top = [&](auto score) {
    const auto count = std::min(per_rank, ranked.size());
    std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(count),
                      ranked.end(), [&](const Ranked& a, const Ranked& b) {
                        return score(a) != score(b) ? score(a) > score(b) : *a.host < *b.host;
                      });
    for (std::size_t i = 0; i < count; ++i) {
      if (score(ranked[i]) > 0) {
        kept.insert(*ranked[i].host);
      }
    }
  };
  keep_top([](const Ranked& r) { return static_cast<double>(r.failures); });
  keep_top([](const Ranked& r) { return static_cast<double>(r.requests); });
  keep_top([](const Ranked& r) { return r.slow; });
  std::erase_if(host_hours, [&](const auto& entry) { return !kept.contains(entry.first.second); });
}

// A summary's counts less another's (the slowest hosts: a's).
CrawlSummary since(const CrawlSummary& a, const CrawlSummary& b) {
  CrawlSummary out = a;
  out.claimed -= b.claimed;
  out.fetched -= b.fetched;
  out.not_modified -= b.not_modified;
  out.failed -= b.failed;
  out.deferred -= b.deferred;
  out.new_episodes -= b.new_episodes;
  return out;
}

bool is_connection_lost(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const store::ConnectionLost&) {
    return true;
  } catch (...) {
    return false;
  }
}

// Shared by the fetching thread and the workers of one run. A watching run (with a Watch) goes
// on claiming until it is stopped, and records itself as a crawl run an hour.
class Run {
public:
  Run(const std::string& database_url, const core::Config& config, const CrawlOptions& options,
      const Progress& progress, std::chrono::steady_clock::time_point deadline,
      internal::Watch* watch)
      : m_database_url(database_url),
        m_config(config),
        m_options(options),
        m_progress(progress),
        m_deadline(deadline),
        m_watch(watch),
        m_workers(worker_count(options)),
        m_queue(m_workers * k_queue_per_worker) {}

  CrawlSummary execute();

private:
  // The feeds claimed and not yet handed to a worker, and where the claims stand.
  struct Flow {
    std::unordered_map<std::uint64_t, store::FeedRecord> in_flight;
    std::int64_t cursor = 0; // with --all: the highest feed id claimed so far
    bool exhausted = false;  // the last claim found nothing (more) to claim
  };

  static std::size_t worker_count(const CrawlOptions& options);
  void fetch_all(store::Database& claims);
  void claim(store::Database& claims, fetch::TransferPool& pool, Flow& flow);
  void tend(store::Database& claims, const fetch::Pacer& pacer, const fetch::TransferPool& pool);
  void follow_watch(store::Database& claims, fetch::TransferPool& pool, Flow& flow);
  void rest(store::Database& claims, const fetch::Pacer& pacer);
  std::optional<ArtSummary> fetch_art();
  void tend_websub(store::Database& claims);
  void report_batch(const std::optional<ArtSummary>& art, bool idle);
  bool batch_has_work();
  bool claims_held() const;
  void wait_until_stored();
  void begin_run(store::Database& claims);
  void next_run_when_due(store::Database& claims, const fetch::Pacer& pacer);
  void finish_run(store::Database& claims);
  void save_paces(store::Database& claims, const fetch::Pacer& pacer);
  void write_history(store::Database& claims, bool last);
  void store_history(store::Database& claims, const model::CrawlFigures& run,
                     store::HistoryDelta delta, bool last);
  void record(const Job& job, model::FetchKind kind, std::int64_t new_episodes = 0);
  bool may_claim() const;
  void work();
  void process(store::Database& database, const Job& job);
  void store_fetched(store::Database& database, const Job& job);
  void note_websub(store::Database& database, const Job& job, const feed::Show& show,
                   std::int64_t new_episodes, double fetch_seconds_ago);
  void fail(store::Database& database, const Job& job, const std::string& error);
  void count(std::int64_t CrawlSummary::*field, std::int64_t amount = 1);
  double jitter();

  const std::string& m_database_url;
  const core::Config& m_config;
  const CrawlOptions& m_options;
  const Progress& m_progress;
  const std::chrono::steady_clock::time_point m_deadline;
  internal::Watch* const m_watch; // nullptr: one crawl
  const std::size_t m_workers;
  core::BoundedQueue<Job> m_queue;
  std::mutex m_mutex; // guards the members below, up to the fetching thread's
  std::condition_variable m_job_done;
  CrawlSummary m_summary;
  std::mt19937_64 m_random{std::random_device{}()};
  std::exception_ptr m_error;
  std::atomic<bool> m_failed{false};
  model::CrawlFigures m_run_figures; // the run's, for its history row
  store::HistoryDelta m_history;     // since the last history write
  std::int64_t m_recorded = 0;       // fetches recorded
  std::int64_t m_jobs_pushed = 0;    // handed to the workers
  std::int64_t m_jobs_done = 0;      // and done with by them
  // The fetching thread's.
  HostHours m_held_hosts; // host-hours not written yet
  PaceLedger m_paces;
  std::int64_t m_run_id = 0;
  std::int64_t m_run_started = 0;
  CrawlSummary m_run_base; // the summary when the run began
  std::int64_t m_recorded_at_save = 0;
  std::chrono::steady_clock::time_point m_paces_saved = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point m_slowest_found = m_paces_saved;
  // A watching run's.
  bool m_stopping = false;
  std::chrono::steady_clock::time_point m_run_ends = std::chrono::steady_clock::time_point::max();
  CrawlSummary m_reported; // the summary at the last batch reported
  std::chrono::steady_clock::time_point m_reported_at = m_paces_saved;
  std::int64_t m_batch_urgent = 0;
  std::int64_t m_fetched_at_art = 0;                               // m_summary.fetched then
  std::chrono::steady_clock::time_point m_art_due = m_paces_saved; // the next pass at the latest
  std::int64_t m_fetched_at_websub = 0; // m_summary.fetched at the last pass over subscriptions
  std::chrono::steady_clock::time_point m_websub_due = m_paces_saved; // and the next one's time
};

std::size_t Run::worker_count(const CrawlOptions& options) {
  // Parsing needs the cores; storing waits on the database, so a few more workers than cores.
  const std::size_t cores = std::max(2U, std::thread::hardware_concurrency());
  return std::clamp<std::size_t>(static_cast<std::size_t>(options.concurrency), 1, 2 * cores);
}

CrawlSummary Run::execute() {
  store::Database claims(m_database_url);
  begin_run(claims);
  std::vector<std::thread> workers;
  workers.reserve(m_workers);
  for (std::size_t i = 0; i < m_workers; ++i) {
    workers.emplace_back([this] { work(); });
  }
  try {
    fetch_all(claims);
  } catch (...) {
    std::lock_guard lock(m_mutex);
    m_error = m_error ? m_error : std::current_exception();
  }
  m_queue.close();
  for (auto& worker : workers) {
    worker.join();
  }
  if (m_error) {
    // A watcher that lost the database says so once, and connects again.
    if (m_watch == nullptr || !is_connection_lost(m_error)) {
      write_history(claims, true);
    }
    std::rethrow_exception(m_error);
  }
  finish_run(claims);
  return m_summary;
}

void Run::begin_run(store::Database& claims) {
  m_run_started = core::now();
  m_run_id = store::CrawlHistory(claims).begin_crawl_run(m_run_started);
  if (m_watch != nullptr) {
    m_run_ends = std::chrono::steady_clock::now() + k_watch_run_length;
  }
}

// A watcher's hour is over: its run ends as a crawl's does, and the next begins.
void Run::next_run_when_due(store::Database& claims, const fetch::Pacer& pacer) {
  if (std::chrono::steady_clock::now() < m_run_ends) {
    return;
  }
  save_paces(claims, pacer);
  finish_run(claims);
  begin_run(claims);
  m_paces.start_run(pacer);
}

// The run's row gets its totals and figures, and the history is pruned.
void Run::finish_run(store::Database& claims) {
  model::CrawlRunStats totals;
  model::CrawlFigures figures;
  store::HistoryDelta delta;
  {
    std::lock_guard lock(m_mutex);
    const CrawlSummary run = since(m_summary, m_run_base);
    m_run_base = m_summary;
    totals.fetched = run.fetched;
    totals.not_modified = run.not_modified;
    totals.failed = run.failed;
    totals.new_episodes = run.new_episodes;
    figures = std::exchange(m_run_figures, {});
    delta = std::exchange(m_history, {});
  }
  totals.started_at = m_run_started;
  totals.finished_at = core::now();
  store::CrawlHistory(claims).finish_crawl_run(m_run_id, totals);
  store_history(claims, figures, std::move(delta), true);
  try {
    const std::int64_t pruned = store::CrawlHistory(claims).prune_history(
        *totals.finished_at - std::int64_t{m_config.crawl.history_days} * k_day_seconds);
    if (pruned > 0) {
      spdlog::debug("pruned {} rows of crawl history", pruned);
    }
  } catch (const core::EnvironmentError& error) {
    spdlog::warn("the crawl history was not pruned: {}", error.what());
  }
}

void Run::save_paces(store::Database& claims, const fetch::Pacer& pacer) {
  store::CrawlHistory(claims).save_host_paces(m_run_id, m_paces.changed(pacer), core::now());
  write_history(claims, false);
  m_paces_saved = std::chrono::steady_clock::now();
}

// What the run saw since the last write: the run's figures so far, and the hours' additions.
void Run::write_history(store::Database& claims, bool last) {
  model::CrawlFigures run;
  store::HistoryDelta delta;
  {
    std::lock_guard lock(m_mutex);
    run = m_run_figures;
    delta = std::exchange(m_history, {});
    m_recorded_at_save = m_recorded;
  }
  store_history(claims, run, std::move(delta), last);
}

// The history is the crawl's account of itself, not its work: a write that fails is logged and
// the crawl goes on.
void Run::store_history(store::Database& claims, const model::CrawlFigures& run,
                        store::HistoryDelta delta, bool last) {
  // Host-hours are held until their hour is over (or the run ends), then ranked once: a run
  // writes at most 3 x k_history_hosts_per_rank hosts an hour.
  for (auto& [key, figures] : delta.host_hours) {
    m_held_hosts[key].add(figures);
  }
  delta.host_hours.clear();
  if (m_held_hosts.size() > 3 * k_held_hosts_per_rank) {
    keep_ranked_hosts(m_held_hosts, k_held_hosts_per_rank);
  }
  const std::int64_t current_hour = hour_of(core::now());
  for (auto it = m_held_hosts.begin(); it != m_held_hosts.end();) {
    if (last || it->first.first < current_hour) {
      delta.host_hours.insert(m_held_hosts.extract(it++));
    } else {
      ++it;
    }
  }
  keep_ranked_hosts(delta.host_hours, k_history_hosts_per_rank);
  try {
    store::CrawlHistory(claims).add_history(m_run_id, run, delta);
  } catch (const core::EnvironmentError& error) {
    spdlog::warn("the crawl history was not written: {}", error.what());
  }
}

void Run::record(const Job& job, model::FetchKind kind, std::int64_t new_episodes) {
  const std::int64_t hour = hour_of(core::now());
  // The host as the fetch pool paces it, of the URL that answered (after redirects).
  const auto url =
      net::parse_url(job.result.final_url.empty() ? job.feed.url : job.result.final_url);
  const std::string host = url ? fetch::host_key(*url) : std::string();
  const double seconds = job.result.seconds;
  const std::int64_t bytes = job.result.received_bytes;
  std::lock_guard lock(m_mutex);
  for (model::CrawlFigures* figures :
       {&m_run_figures, &m_history.hours[hour], &m_history.host_hours[{hour, host}]}) {
    figures->add(kind, seconds, bytes);
    figures->new_episodes += new_episodes;
  }
  ++m_recorded;
}

bool Run::may_claim() const {
  if (m_failed || m_stopping || std::chrono::steady_clock::now() >= m_deadline) {
    return false;
  }
  return !m_options.limit || m_summary.claimed < *m_options.limit;
}

// Claims feeds as transfer slots free up and hands every finished transfer to the workers; a
// watching run rests when it has nothing in flight, until it is stopped.
void Run::fetch_all(store::Database& claims) {
  fetch::Pacer pacer(m_config.crawl);
  pacer.learn(store::CrawlHistory(claims).load_host_paces());
  fetch::TransferPool pool(m_config.fetch, std::max(1, m_options.concurrency), pacer);
  Flow flow;
  const auto on_done = [&](std::uint64_t tag, fetch::FetchResult result) {
    auto node = flow.in_flight.extract(tag);
    {
      std::lock_guard lock(m_mutex);
      ++m_jobs_pushed;
    }
    m_queue.push(Job{std::move(node.mapped()), std::move(result)});
  };
  while (true) {
    if (m_watch != nullptr) {
      follow_watch(claims, pool, flow);
    }
    claim(claims, pool, flow);
    if (flow.in_flight.empty() && (flow.exhausted || !may_claim() || claims_held())) {
      if (m_watch == nullptr || !may_claim()) {
        save_paces(claims, pacer);
        return;
      }
      rest(claims, pacer);
      continue;
    }
    pool.perform(on_done, 100);
    tend(claims, pacer, pool);
  }
}

void Run::claim(store::Database& claims, fetch::TransferPool& pool, Flow& flow) {
  // Claimed feeds fill the free transfer slots. After perform() every feed still waiting
  // waits for its host's pace (or for a slot), so it holds none; at most k_claimed_per_slot
  // feeds a slot are claimed in all.
  const auto concurrency = static_cast<std::int64_t>(std::max(1, m_options.concurrency));
  const auto free_slots =
      std::min(concurrency - static_cast<std::int64_t>(pool.running()),
               k_claimed_per_slot * concurrency - static_cast<std::int64_t>(flow.in_flight.size()));
  if (free_slots <= 0 || !may_claim()) {
    return;
  }
  std::int64_t batch = std::min<std::int64_t>(free_slots, k_max_claim_batch);
  if (m_options.limit) {
    batch = std::min(batch, *m_options.limit - m_summary.claimed);
  }
  const std::int64_t now = core::now();
  const std::int64_t lease = lease_seconds(m_config.fetch);
  std::vector<store::FeedRecord> claimed;
  if (m_watch != nullptr) {
    // Feeds announced urgent go ahead of the others due, and of a pass over the cover art.
    claimed = store::CrawlList(claims).claim_feeds(
        m_watch->take_urgent(static_cast<std::size_t>(batch)), now, lease);
    m_batch_urgent += static_cast<std::int64_t>(claimed.size());
  }
  if (!flow.exhausted && !claims_held() && batch > static_cast<std::int64_t>(claimed.size())) {
    auto due = store::CrawlList(claims).claim_due_feeds(
        static_cast<int>(batch - static_cast<std::int64_t>(claimed.size())), m_options.all, now,
        lease, flow.cursor);
    flow.exhausted = due.empty();
    if (flow.exhausted && m_watch != nullptr) {
      m_watch->rest_until(store::CrawlList(claims).next_due_at(now), now);
    }
    claimed.insert(claimed.end(), std::make_move_iterator(due.begin()),
                   std::make_move_iterator(due.end()));
  }
  std::int64_t added = 0;
  for (const auto& feed : claimed) {
    flow.cursor = std::max(flow.cursor, feed.id);
    // A feed still in flight from a claim whose lease ran out is not asked twice.
    if (!flow.in_flight.emplace(static_cast<std::uint64_t>(feed.id), feed).second) {
      continue;
    }
    fetch::FetchRequest request;
    request.url = feed.url;
    request.etag = feed.etag;
    request.last_modified = feed.last_modified;
    pool.add(static_cast<std::uint64_t>(feed.id), request);
    ++added;
  }
  std::lock_guard lock(m_mutex);
  m_summary.claimed += added;
}

// Between transfers: the history and the hosts' paces every k_pace_save_interval, the slowest
// hosts for the progress line; a watcher's hourly run, and its report when it never runs dry.
void Run::tend(store::Database& claims, const fetch::Pacer& pacer,
               const fetch::TransferPool& pool) {
  const auto now = std::chrono::steady_clock::now();
  if (now - m_paces_saved >= k_pace_save_interval) {
    bool recorded = true;
    if (m_watch != nullptr) {
      std::lock_guard lock(m_mutex);
      recorded = m_recorded != m_recorded_at_save;
    }
    if (recorded) {
      save_paces(claims, pacer);
    }
  }
  if (now - m_slowest_found >= k_slowest_hosts_interval) {
    m_slowest_found = now;
    std::vector<std::string> slowest;
    for (const auto& [host, feeds] : pool.most_waiting(k_slowest_hosts)) {
      slowest.push_back(host + " (" + std::to_string(feeds) + " waiting)");
    }
    std::lock_guard lock(m_mutex);
    m_summary.slowest_hosts = std::move(slowest);
  }
  if (m_watch == nullptr) {
    return;
  }
  next_run_when_due(claims, pacer);
  if (now - m_reported_at >= k_batch_report_interval && batch_has_work()) {
    report_batch(std::nullopt, false);
  }
}

// A watcher's look around between transfers: its stop signal, the feeds announced urgent, and,
// when the last claim found nothing, whether a feed has fallen due since (one indexed read).
void Run::follow_watch(store::Database& claims, fetch::TransferPool& pool, Flow& flow) {
  if (!m_stopping && m_watch->stop_requested()) {
    m_stopping = true;
    // A second signal ends the process, as it would have.
    m_watch->options().stop->restore();
    pool.stop_starting("not asked: the crawler stopped");
    spdlog::info("crawl --watch: stopping, finishing {} transfers in flight", pool.running());
  }
  if (m_stopping) {
    return;
  }
  m_watch->hear();
  if (flow.exhausted && !m_watch->has_urgent() && m_watch->time_to_look()) {
    const std::int64_t now = core::now();
    const auto next = store::CrawlList(claims).next_due_at(now);
    if (next && *next <= now) {
      flow.exhausted = false;
    } else {
      m_watch->rest_until(next, now);
    }
  }
}

// A watcher with nothing in flight: the batch is stored, recorded and reported, the cover art
// fetched when due, and the watcher sleeps until a feed falls due or is announced urgent.
void Run::rest(store::Database& claims, const fetch::Pacer& pacer) {
  wait_until_stored();
  if (m_failed) {
    return;
  }
  const bool worked = batch_has_work();
  if (worked) {
    save_paces(claims, pacer);
  }
  std::optional<ArtSummary> art;
  bool stored;
  {
    std::lock_guard lock(m_mutex);
    stored = m_summary.fetched > m_fetched_at_art;
  }
  if (m_watch->options().art && (stored || std::chrono::steady_clock::now() >= m_art_due)) {
    art = fetch_art();
  }
  if (worked || (art && art->claimed > 0)) {
    report_batch(art, true);
  }
  tend_websub(claims);
  next_run_when_due(claims, pacer);
  auto until = std::min({m_deadline, m_run_ends, m_websub_due});
  if (m_watch->options().art) {
    until = std::min(until, m_art_due);
  }
  m_watch->sleep(until);
}

// The WebSub requests due (subscriptions of the feeds just stored that declare a hub, renewals,
// unsubscriptions), then when the next falls due, which the watcher's sleep ends at.
void Run::tend_websub(store::Database& claims) {
  if (m_config.websub.callback_base.empty()) {
    return;
  }
  std::int64_t fetched;
  {
    std::lock_guard lock(m_mutex);
    fetched = m_summary.fetched;
  }
  const auto steady = std::chrono::steady_clock::now();
  if (fetched > m_fetched_at_websub || steady >= m_websub_due) {
    m_fetched_at_websub = fetched;
    const auto sent = tend_subscriptions(m_database_url, m_config);
    if (sent.subscribed + sent.unsubscribed + sent.failed > 0) {
      spdlog::info("crawl --watch: websub: {} subscribed, {} unsubscribed, {} failed",
                   sent.subscribed, sent.unsubscribed, sent.failed);
    }
  }
  const std::int64_t now = core::now();
  const auto next = store::WebSubSubscriptions(claims).next_request_at();
  m_websub_due = next ? steady + std::chrono::seconds(std::max<std::int64_t>(*next - now, 0))
                      : std::chrono::steady_clock::time_point::max();
}

// The cover art that is due, as a crawl fetches it after its feeds; it claims no more images
// once a feed is announced urgent or the watcher is stopped. A failure other than the database's
// is logged, and the next pass is k_art_interval away.
std::optional<ArtSummary> Run::fetch_art() {
  ArtOptions options;
  options.concurrency = std::min(m_options.concurrency, m_watch->options().art_concurrency);
  if (m_options.deadline_seconds) {
    options.deadline = m_deadline;
  }
  options.keep_claiming = [this] {
    m_watch->hear();
    return !m_watch->has_urgent() && !m_watch->stop_requested();
  };
  {
    std::lock_guard lock(m_mutex);
    m_fetched_at_art = m_summary.fetched;
  }
  m_art_due = std::chrono::steady_clock::now() + k_art_interval;
  try {
    return refresh_artwork(m_database_url, m_config, options);
  } catch (const store::ConnectionLost&) {
    throw;
  } catch (const core::EnvironmentError& error) {
    spdlog::warn("crawl --watch: cover art: {}", error.what());
    return std::nullopt;
  }
}

void Run::report_batch(const std::optional<ArtSummary>& art, bool idle) {
  WatchBatch batch;
  {
    std::lock_guard lock(m_mutex);
    batch.feeds = since(m_summary, m_reported);
    m_reported = m_summary;
  }
  batch.urgent = std::exchange(m_batch_urgent, 0);
  batch.art = art;
  if (idle) {
    batch.next_look_at = m_watch->next_look_at();
  }
  m_reported_at = std::chrono::steady_clock::now();
  if (m_watch->options().on_batch) {
    m_watch->options().on_batch(batch);
  }
}

bool Run::batch_has_work() {
  std::lock_guard lock(m_mutex);
  return m_summary.claimed != m_reported.claimed;
}

// A busy watcher whose cover art is overdue claims nothing until its transfers are done, so
// that the art pass runs (its images are fetched with the transfer slots the feeds leave).
bool Run::claims_held() const {
  return m_watch != nullptr && m_watch->options().art &&
         std::chrono::steady_clock::now() >= m_art_due;
}

void Run::wait_until_stored() {
  std::unique_lock lock(m_mutex);
  m_job_done.wait(lock, [this] { return m_jobs_done == m_jobs_pushed || m_failed; });
}

void Run::work() {
  std::unique_ptr<store::Database> database;
  while (auto job = m_queue.pop()) {
    // After a failure the queue is drained, so the fetching thread never blocks on a full one.
    if (!m_failed) {
      try {
        if (!database) {
          database = std::make_unique<store::Database>(m_database_url);
        }
        process(*database, *job);
      } catch (...) {
        std::lock_guard lock(m_mutex);
        m_error = m_error ? m_error : std::current_exception();
        m_failed = true;
      }
    }
    std::lock_guard lock(m_mutex);
    ++m_jobs_done;
    m_job_done.notify_all();
  }
}

void Run::process(store::Database& database, const Job& job) {
  const store::FeedRecord& feed = job.feed;
  const fetch::FetchResult& result = job.result;
  switch (result.outcome) {
    case fetch::FetchOutcome::ok:
      store_fetched(database, job);
      break;
    case fetch::FetchOutcome::not_modified:
      store::FetchOutcomes(database).record_not_modified(
          feed.id, core::now(), core::now() + m_config.crawl.refresh_interval_seconds);
      count(&CrawlSummary::not_modified);
      record(job, model::FetchKind::not_modified);
      break;
    case fetch::FetchOutcome::deferred:
      store::CrawlList(database).defer_feed(
          feed.id, core::now() + std::clamp<std::int64_t>(result.retry_after_seconds.value_or(0), 0,
                                                          m_config.crawl.backoff_ceiling_seconds));
      count(&CrawlSummary::deferred);
      record(job, model::FetchKind::deferred);
      break;
    default:
      fail(database, job, result.error);
      break;
  }
  if (!result.permanent_url.empty()) {
    if (const auto moved = net::normalize_feed_url(result.permanent_url);
        moved && *moved != feed.url && store::CrawlList(database).move_feed(feed.id, *moved)) {
      spdlog::info("{} moved permanently to {}", net::redact(feed.url), net::redact(*moved));
    }
  }
  if (m_progress) {
    std::lock_guard lock(m_mutex);
    m_progress(m_summary);
  }
}

void Run::store_fetched(store::Database& database, const Job& job) {
  const auto started = std::chrono::steady_clock::now();
  const store::FeedRecord& feed = job.feed;
  store::FetchMeta meta;
  meta.http_status = job.result.http_status;
  meta.etag = job.result.etag;
  meta.last_modified = job.result.last_modified;
  meta.content_hash = core::content_hash(job.result.body);
  if (!feed.content_hash.empty() && meta.content_hash == feed.content_hash) {
    // A 200 with the very body stored last time: nothing to parse or store.
    const std::int64_t now = core::now();
    store::FetchOutcomes(database).record_unchanged(feed.id, meta, now,
                                                    now + m_config.crawl.refresh_interval_seconds);
    count(&CrawlSummary::not_modified);
    record(job, model::FetchKind::unchanged);
    return;
  }
  feed::ParseOptions parse_options;
  parse_options.feed_url = job.result.final_url;
  parse_options.content_type = job.result.content_type;
  feed::ParseResult parsed = feed::parse_feed(job.result.body, parse_options);
  if (parsed.outcome != feed::ParseOutcome::ok) {
    fail(database, job, parsed.error);
    return;
  }
  parsed.show.feed_url = feed.url;
  const auto max_episodes = static_cast<std::size_t>(m_config.crawl.max_episodes_per_feed);
  if (parsed.show.episodes.size() > max_episodes) {
    parsed.show.episodes.resize(max_episodes);
  }
  const std::int64_t now = core::now();
  const auto saved = store::FetchOutcomes(database).record_success(
      feed.id, meta, parsed.show, now, now + refresh_seconds(parsed.show, m_config.crawl));
  note_websub(
      database, job, parsed.show, saved.new_episodes,
      std::max(0.0, job.result.seconds) +
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  count(&CrawlSummary::fetched);
  count(&CrawlSummary::new_episodes, saved.new_episodes);
  record(job, model::FetchKind::ok, saved.new_episodes);
  spdlog::debug("{}: {} episodes, {} new", net::redact(feed.url), parsed.show.episodes.size(),
                saved.new_episodes);
  if (const auto moved = net::normalize_feed_url(parsed.show.new_feed_url);
      moved && *moved != feed.url && store::CrawlList(database).move_feed(feed.id, *moved)) {
    spdlog::info("{} announces its new URL {}", net::redact(feed.url), net::redact(*moved));
  }
}

// The hub the feed declares now, and for a feed subscribed there, what saw its new episodes
// first: a delivery from the hub that came before this fetch began, or the schedule.
// `fetch_seconds_ago`: since the fetch's transfer began (its requests, then parsing and storing).
void Run::note_websub(store::Database& database, const Job& job, const feed::Show& show,
                      std::int64_t new_episodes, double fetch_seconds_ago) {
  const auto declared = websub_topic(job.result, show, job.feed.url);
  store::WebSubSubscriptions subscriptions(database);
  subscriptions.record_hub(job.feed.id, declared.hub, declared.topic);
  if (!declared.hub.empty()) {
    subscriptions.count_new_episodes(job.feed.id, new_episodes, fetch_seconds_ago);
  }
}

void Run::fail(store::Database& database, const Job& job, const std::string& error) {
  const store::FeedRecord& feed = job.feed;
  const fetch::FetchResult& result = job.result;
  const std::int64_t now = core::now();
  store::FetchFailure failure;
  failure.http_status = result.http_status > 0 ? std::optional(result.http_status) : std::nullopt;
  failure.error = error;
  failure.gone = result.outcome == fetch::FetchOutcome::gone;
  failure.weight = failure_weight(result.outcome, result.http_status);
  failure.failing_score = m_config.crawl.failing_score;
  // The feed is leased to this run, so the score it was claimed with is still its score.
  const auto score = static_cast<int>(std::min<std::int64_t>(
      std::int64_t{feed.failure_score} + failure.weight, std::numeric_limits<int>::max()));
  std::int64_t wait = backoff_seconds(score, m_config.crawl, jitter());
  if (result.retry_after_seconds) {
    wait = std::clamp(*result.retry_after_seconds, wait, m_config.crawl.backoff_ceiling_seconds);
  }
  store::FetchOutcomes(database).record_failure(feed.id, failure, now, now + wait);
  count(&CrawlSummary::failed);
  record(job, failure_kind(result.outcome, result.http_status));
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

int failure_weight(fetch::FetchOutcome outcome, int http_status) {
  for (const auto& rule : k_failure_weights) {
    if (rule.outcome == outcome && http_status >= rule.first_status &&
        http_status <= rule.last_status) {
      return rule.weight;
    }
  }
  return k_default_failure_weight;
}

std::int64_t backoff_seconds(int score, const core::CrawlConfig& config, double jitter) {
  const int exponent = std::clamp(score - 1, 0, 40);
  const double raw = static_cast<double>(config.backoff_base_seconds) * std::ldexp(1.0, exponent);
  const double capped = std::min(raw, static_cast<double>(config.backoff_ceiling_seconds));
  const double spread = capped * 0.25 * std::clamp(jitter, 0.0, 1.0);
  return static_cast<std::int64_t>(capped * 0.75 + spread);
}

std::int64_t refresh_seconds(const feed::Show& show, const core::CrawlConfig& config) {
  constexpr std::size_t k_recent = 10;
  std::vector<std::int64_t> dates;
  for (const auto& episode : show.episodes) {
    if (episode.published) {
      dates.push_back(*episode.published);
    }
  }
  std::sort(dates.begin(), dates.end(), std::greater<>());
  dates.erase(std::unique(dates.begin(), dates.end()), dates.end());
  if (dates.size() > k_recent) {
    dates.resize(k_recent);
  }
  if (dates.size() < 2) {
    return config.refresh_interval_seconds;
  }
  std::vector<std::int64_t> gaps;
  for (std::size_t i = 1; i < dates.size(); ++i) {
    gaps.push_back(dates[i - 1] - dates[i]);
  }
  std::nth_element(gaps.begin(), gaps.begin() + static_cast<std::ptrdiff_t>(gaps.size() / 2),
                   gaps.end());
  const std::int64_t median = gaps[gaps.size() / 2];
  return std::clamp(median, config.min_refresh_seconds, config.max_refresh_seconds);
}

CrawlSummary run_crawl(const std::string& database_url, const core::Config& config,
                       const CrawlOptions& options, const Progress& progress) {
  const auto deadline =
      std::chrono::steady_clock::now() +
      (options.deadline_seconds ? std::chrono::seconds(*options.deadline_seconds) : k_far_away);
  Run run(database_url, config, options, progress, deadline, nullptr);
  return run.execute();
}

CrawlSummary watch_feeds(const std::string& database_url, const core::Config& config,
                         const CrawlOptions& options, const WatchOptions& watch) {
  const auto deadline =
      std::chrono::steady_clock::now() +
      (options.deadline_seconds ? std::chrono::seconds(*options.deadline_seconds) : k_far_away);
  CrawlOptions watching = options;
  watching.limit.reset();
  watching.all = false;
  const Progress no_progress;
  bool lost = false;
  while (true) {
    try {
      internal::Watch listening(database_url, watch);
      Run run(database_url, config, watching, no_progress, deadline, &listening);
      if (lost) {
        spdlog::info("crawl --watch: the database is reachable again");
        lost = false;
      }
      return run.execute();
    } catch (const store::ConnectionLost& error) {
      if (!lost) {
        spdlog::warn("crawl --watch: {}; connecting again every {} s", error.what(),
                     k_reconnect_pause.count());
      }
      lost = true;
    }
    const auto pause = std::min<std::chrono::steady_clock::duration>(
        k_reconnect_pause, deadline - std::chrono::steady_clock::now());
    if (pause <= std::chrono::steady_clock::duration::zero() ||
        (watch.stop != nullptr &&
         watch.stop->wait_for(std::chrono::ceil<std::chrono::milliseconds>(pause)))) {
      return {};
    }
    if (watch.stop == nullptr) {
      std::this_thread::sleep_for(pause);
    }
  }
}

} // namespace podcrawl::crawl

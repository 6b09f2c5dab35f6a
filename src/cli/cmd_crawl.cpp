#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>

#include <spdlog/spdlog.h>

#include "context.hpp"
#include "podcrawl/core/error.hpp"
#include "podcrawl/core/stop_signals.hpp"
#include "podcrawl/core/time.hpp"
#include "podcrawl/crawl/artwork.hpp"
#include "podcrawl/crawl/crawler.hpp"
#include "podcrawl/crawl/websub.hpp"

namespace podcrawl::cli {

namespace {

// Images fetched at once: each new one waits for a helper (one a core), so more would only hold
// more image files in memory.
constexpr int k_art_concurrency = 8;
// Why feeds or images were deferred unasked.
constexpr const char* k_deferred_why = " deferred (their host paused or unreachable)";
constexpr const char* k_watch_deferred_why =
    " deferred (their host paused or unreachable, or handed back when stopping)";

// A progress line on stderr, at most once a second, overwritten in place on a terminal.
class ProgressLine {
public:
  explicit ProgressLine(bool enabled) : m_enabled(enabled), m_tty(isatty(STDERR_FILENO) != 0) {}
  ~ProgressLine() {
    if (m_printed && m_tty) {
      std::fputc('\n', stderr);
    }
  }
  void update(const crawl::CrawlSummary& summary) {
    const auto now = std::chrono::steady_clock::now();
    if (!m_enabled || now - m_last < std::chrono::seconds(1)) {
      return;
    }
    m_last = now;
    m_printed = true;
    const std::int64_t done =
        summary.fetched + summary.not_modified + summary.failed + summary.deferred;
    const double seconds = std::chrono::duration<double>(now - m_started).count();
    std::string slowest;
    for (const std::string& host : summary.slowest_hosts) {
      slowest += (slowest.empty() ? "; slowest hosts: " : ", ") + host;
    }
    // On a terminal the line is rewritten in place, the rest of the old one erased.
    std::fprintf(
        stderr,
        "%scrawl: %lld done (%.0f/s), %lld fetched, %lld not modified, %lld failed, "
        "%lld new episodes%s%s",
        m_tty ? "\r" : "", static_cast<long long>(done), done / std::max(seconds, 0.001),
        static_cast<long long>(summary.fetched), static_cast<long long>(summary.not_modified),
        static_cast<long long>(summary.failed), static_cast<long long>(summary.new_episodes),
        slowest.c_str(), m_tty ? "\x1b[K" : "\n");
  }

private:
  bool m_enabled;
  bool m_tty;
  bool m_printed = false;
  std::chrono::steady_clock::time_point m_started = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point m_last{};
};

struct Options {
  std::optional<std::int64_t> limit;
  std::optional<int> concurrency;
  std::optional<std::int64_t> deadline;
  bool all = false;
  bool no_art = false;
  bool watch = false;
};

// "2 fetched, 1 not modified, 0 failed, 3 new episodes" and the feeds deferred, if any, with why.
std::string outcomes(const crawl::CrawlSummary& summary, const char* deferred_why) {
  return std::to_string(summary.fetched) + " fetched, " + std::to_string(summary.not_modified) +
         " not modified, " + std::to_string(summary.failed) + " failed, " +
         (summary.deferred > 0 ? std::to_string(summary.deferred) + deferred_why + ", "
                               : std::string()) +
         std::to_string(summary.new_episodes) + " new episodes";
}

// One log line per batch of a watching crawl.
void log_batch(const crawl::WatchBatch& batch) {
  std::string line = std::to_string(batch.feeds.claimed) + " feeds";
  if (batch.urgent > 0) {
    line += " (" + std::to_string(batch.urgent) + " urgent)";
  }
  line += ": " + outcomes(batch.feeds, k_watch_deferred_why);
  if (batch.art && batch.art->claimed > 0) {
    line += "; cover art: " + std::to_string(batch.art->made) + " made, " +
            std::to_string(batch.art->not_modified + batch.art->reused) + " unchanged, " +
            std::to_string(batch.art->refused + batch.art->failed) + " failed";
  }
  if (batch.next_look_at) {
    line += "; next look in " +
            std::to_string(std::max<std::int64_t>(0, *batch.next_look_at - core::now())) + " s";
  }
  spdlog::info("crawl --watch: {}", line);
}

// crawl --watch: up until SIGTERM or SIGINT (or the deadline).
void watch(const Context& context, const Options& options) {
  if (options.all || options.limit) {
    throw core::UsageError(std::string(options.all ? "--all" : "--limit") +
                           " ends a crawl; --watch stays up (use --deadline to end it)");
  }
  context.open_database();
  core::StopSignals signals;
  crawl::CrawlOptions crawl_options;
  crawl_options.concurrency = options.concurrency.value_or(context.config.crawl.concurrency);
  crawl_options.deadline_seconds = options.deadline;
  crawl::WatchOptions watch_options;
  watch_options.stop = &signals;
  watch_options.art = context.config.art.enabled && !options.no_art;
  watch_options.art_concurrency = std::min(crawl_options.concurrency, k_art_concurrency);
  watch_options.on_batch = log_batch;
  spdlog::info("crawl --watch: fetching feeds as they fall due, {} at once; SIGTERM stops",
               crawl_options.concurrency);
  const auto summary =
      crawl::watch_feeds(context.database_url(), context.config, crawl_options, watch_options);
  std::cout << "watched: " << summary.claimed << " feeds since the database was last reached: "
            << outcomes(summary, k_watch_deferred_why) << "\n";
}

} // namespace

void add_crawl_command(CLI::App& app, Context& context) {
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand(
      "crawl", "fetch every feed that is due, store what changed, schedule the next fetch");
  command->add_option("--limit", options->limit, "fetch at most N feeds")
      ->check(CLI::PositiveNumber);
  command->add_option("--concurrency", options->concurrency, "feeds fetched at once")
      ->check(CLI::Range(1, 1024));
  command
      ->add_option("--deadline", options->deadline,
                   "start no new fetch after this many seconds (for cron)")
      ->check(CLI::PositiveNumber);
  command->add_flag("--all", options->all, "fetch every listed feed, due or not");
  command->add_flag("--no-art", options->no_art,
                    "leave cover art for the next crawl (it is fetched after the feeds when due)");
  command->add_flag("--watch", options->watch,
                    "stay up: fetch feeds as they fall due, and at once those marked urgent (a "
                    "ping, a push, a submission); SIGTERM finishes the transfers in flight and "
                    "exits 0. With --deadline: claim no feed after that many seconds, then exit. "
                    "Not with --all or --limit");
  command->callback([options, &context] {
    if (options->watch) {
      watch(context, *options);
      return;
    }
    context.open_database(); // migrations, and a clear error when the database is unreachable
    crawl::CrawlOptions crawl_options;
    crawl_options.limit = options->limit;
    crawl_options.concurrency = options->concurrency.value_or(context.config.crawl.concurrency);
    crawl_options.deadline_seconds = options->deadline;
    crawl_options.all = options->all;
    ProgressLine progress(context.verbosity >= 0);
    const auto started = std::chrono::steady_clock::now();
    const auto summary = crawl::run_crawl(
        context.database_url(), context.config, crawl_options,
        [&progress](const crawl::CrawlSummary& running) { progress.update(running); });
    std::cout << "crawled " << summary.claimed << " feeds: " << outcomes(summary, k_deferred_why)
              << " in "
              << std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() -
                                                                  started)
                     .count()
              << " s\n";
    const auto websub = crawl::tend_subscriptions(context.database_url(), context.config);
    if (websub.subscribed + websub.unsubscribed + websub.failed > 0) {
      std::cout << "websub: " << websub.subscribed << " subscribed, " << websub.unsubscribed
                << " unsubscribed, " << websub.failed << " failed\n";
    }
    if (!context.config.art.enabled || options->no_art) {
      return;
    }
    crawl::ArtOptions art_options;
    art_options.concurrency = std::min(crawl_options.concurrency, k_art_concurrency);
    if (options->deadline) {
      art_options.deadline = started + std::chrono::seconds(*options->deadline);
    }
    const auto art = crawl::refresh_artwork(context.database_url(), context.config, art_options);
    if (art.claimed > 0) {
      std::cout << "cover art: " << art.claimed << " asked, " << art.made << " made, " << art.reused
                << " the same as another's, " << art.not_modified << " not modified, "
                << art.refused << " refused, " << art.failed << " failed"
                << (art.deferred > 0 ? ", " + std::to_string(art.deferred) + k_deferred_why
                                     : std::string())
                << "\n";
    }
  });
}

} // namespace podcrawl::cli

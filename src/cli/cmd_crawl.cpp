#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>

#include "context.hpp"
#include "podcrawl/core/error.hpp"
#include "podcrawl/crawl/artwork.hpp"
#include "podcrawl/crawl/crawler.hpp"

namespace podcrawl::cli {

namespace {

// Images fetched at once: each new one waits for a helper (one a core), so more would only hold
// more image files in memory.
constexpr int k_art_concurrency = 8;
// Why feeds or images were deferred unasked.
constexpr const char* k_deferred_why = " deferred (their host paused or unreachable)";

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

} // namespace

void add_crawl_command(CLI::App& app, Context& context) {
  struct Options {
    std::optional<std::int64_t> limit;
    std::optional<int> concurrency;
    std::optional<std::int64_t> deadline;
    bool all = false;
    bool no_art = false;
  };
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
  command->callback([options, &context] {
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
    std::cout << "crawled " << summary.claimed << " feeds: " << summary.fetched << " fetched, "
              << summary.not_modified << " not modified, " << summary.failed << " failed, "
              << (summary.deferred > 0 ? std::to_string(summary.deferred) + k_deferred_why + ", "
                                       : std::string())
              << summary.new_episodes << " new episodes in "
              << std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() -
                                                                  started)
                     .count()
              << " s\n";
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

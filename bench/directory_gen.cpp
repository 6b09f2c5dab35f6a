// bench_directory: writes a large made-up directory (directory_show.hpp) into a database through
// store::Database, the way a crawl would leave it, so that render benchmarks can start from
// 100,000 shows in minutes. Never SQL of its own: add_feeds, list_feeds, load_show and
// record_success. `bench_directory --help` tells how to use it.
#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

#include "directory_show.hpp"
#include "podcrawl/core/config.hpp"
#include "podcrawl/core/error.hpp"
#include "podcrawl/store/crawl_list.hpp"
#include "podcrawl/store/database.hpp"
#include "podcrawl/store/directory_pages.hpp"
#include "podcrawl/store/fetch_outcomes.hpp"

namespace {

using podcrawl::bench::ShowSpec;
using podcrawl::core::UsageError;
using podcrawl::store::Database;
using Clock = std::chrono::steady_clock;

// Connections writing at once. On 2 cores the server and this program share the CPU: 3 keeps
// both busy while one side waits on the other (2: 10% slower, 4: no faster).
constexpr int k_default_threads = 3;
constexpr int k_max_threads = 64;
// Feed URLs per add_feeds call (one statement each).
constexpr std::size_t k_add_batch = 1000;
constexpr int k_max_episodes = 10'000;
constexpr auto k_progress_interval = std::chrono::seconds(5);
// Generated shows are stored this long before `now`, as if crawled then; they are due again a
// day later.
constexpr std::int64_t k_crawled_before_now = 3 * 3600;
constexpr std::int64_t k_recrawl_after = 86'400;

constexpr std::string_view k_usage =
    R"(Usage: bench_directory --shows N [--episodes E] [--seed S] [--first K] [--now UNIX]
                       [--threads T]
       bench_directory --add-episode-to-percent P [--episodes E] [--seed S] [--now UNIX]
                       [--threads T]

Writes N generated shows of E episodes (default 20) into the database named by
PODCRAWL_BENCH_DATABASE_URL, else DATABASE_URL, through podcrawl's store (migrating it first):
feeds https://feeds.bench.example/show-<K>.xml .. show-<K+N-1>.xml (K defaults to 1), titles,
authors and descriptions in the 20 languages of the site's locales, 1-3 categories each, episodes
published over the months and years before --now (Unix seconds; default 1749556800,
2025-06-10T12:00:00Z).
The same --seed (default 1) gives the same directory; a second run with --first K adds more shows
(shows stored already are left alone).

--add-episode-to-percent P stores P% of the shows generated so far again with one more episode,
published an hour before --now; the shows are picked by the seed, so the same ones each time, and
each repeat adds one more. Pass the --seed, --episodes and --now the shows were generated with.

--threads T  connections writing at once (default 3)
Progress goes to stderr every few seconds; the last line gives shows/s and episodes/s.
)";

struct Options {
  std::int64_t shows = 0;
  int episodes = 20;
  std::uint64_t seed = 1;
  std::int64_t first = 1;
  std::int64_t now = podcrawl::bench::k_default_now;
  int threads = k_default_threads;
  std::optional<double> add_episode_percent;
};

template <typename Number>
Number parse_number(std::string_view option, std::string_view text, Number low, Number high) {
  Number value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < low || value > high) {
    throw UsageError(std::string(option) + ": not a number in range: \"" + std::string(text) +
                     "\"");
  }
  return value;
}

// Returns nullopt for --help.
std::optional<Options> parse_options(int argc, char** argv) {
  Options options;
  bool shows_given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view option = argv[i];
    if (option == "-h" || option == "--help") {
      return std::nullopt;
    }
    if (i + 1 >= argc) {
      throw UsageError(std::string(option) + ": unknown, or missing its value");
    }
    const std::string_view value = argv[++i];
    if (option == "--shows") {
      options.shows = parse_number<std::int64_t>(option, value, 1, 100'000'000);
      shows_given = true;
    } else if (option == "--episodes") {
      options.episodes = parse_number(option, value, 1, k_max_episodes);
    } else if (option == "--seed") {
      options.seed = parse_number<std::uint64_t>(option, value, 0, UINT64_MAX);
    } else if (option == "--first") {
      options.first = parse_number<std::int64_t>(option, value, 0, 1'000'000'000);
    } else if (option == "--now") {
      options.now = parse_number<std::int64_t>(option, value, 86'400 * 366 * 30, 253'402'300'799);
    } else if (option == "--threads") {
      options.threads = parse_number(option, value, 1, k_max_threads);
    } else if (option == "--add-episode-to-percent") {
      options.add_episode_percent = parse_number(option, value, 0.0, 100.0);
    } else {
      throw UsageError(std::string(option) + ": unknown option");
    }
  }
  if (shows_given == options.add_episode_percent.has_value()) {
    throw UsageError("give either --shows or --add-episode-to-percent");
  }
  return options;
}

std::string database_url() {
  for (const char* name : {"PODCRAWL_BENCH_DATABASE_URL", "DATABASE_URL"}) {
    if (const char* url = std::getenv(name); url != nullptr && *url != '\0') {
      return url;
    }
  }
  throw UsageError("set PODCRAWL_BENCH_DATABASE_URL (or DATABASE_URL) to a throwaway database");
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// What the workers have done so far, for the progress lines.
struct Totals {
  std::atomic<std::int64_t> shows{0};
  std::atomic<std::int64_t> episodes{0};
  std::atomic<std::int64_t> new_episodes{0};
};

// Call work(database, i) for every i below count on `threads` threads, each with a connection
// of its own, printing a progress line about `totals` to stderr every k_progress_interval. The
// first exception of any worker stops the others and is rethrown here.
template <typename Work>
void run_parallel(const std::string& url, int threads, std::size_t count, const char* what,
                  const Totals& totals, std::int64_t total_shows, Work work) {
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};
  std::exception_ptr error;
  std::mutex mutex;
  std::condition_variable finished_changed;
  std::size_t finished = 0;
  std::vector<std::thread> workers;
  for (std::size_t t = 0; t < std::min(static_cast<std::size_t>(threads), count); ++t) {
    workers.emplace_back([&] {
      try {
        Database database(url);
        for (std::size_t i = next++; i < count && !stop; i = next++) {
          work(database, i);
        }
      } catch (...) {
        std::lock_guard lock(mutex);
        if (!error) {
          error = std::current_exception();
        }
        stop = true;
      }
      std::lock_guard lock(mutex);
      ++finished;
      finished_changed.notify_one();
    });
  }
  const auto start = Clock::now();
  {
    std::unique_lock lock(mutex);
    while (!finished_changed.wait_for(lock, k_progress_interval,
                                      [&] { return finished == workers.size(); })) {
      std::fprintf(stderr, "bench_directory: %s %lld/%lld shows, %lld episodes, %.0f shows/s\n",
                   what, static_cast<long long>(totals.shows.load()),
                   static_cast<long long>(total_shows),
                   static_cast<long long>(totals.episodes.load()),
                   static_cast<double>(totals.shows.load()) / seconds_since(start));
    }
  }
  for (auto& worker : workers) {
    worker.join();
  }
  if (error) {
    std::rethrow_exception(error);
  }
}

podcrawl::store::FetchMeta fetch_meta(const ShowSpec& spec) {
  podcrawl::store::FetchMeta meta;
  meta.content_hash = "bench-" + std::to_string(spec.seed) + "-" + std::to_string(spec.number) +
                      "-" + std::to_string(spec.episodes + spec.extra_episodes);
  meta.etag = "\"" + meta.content_hash + "\"";
  return meta;
}

// Every listed generated feed: show number -> feed id (with the show's slug, empty until stored).
struct GeneratedFeed {
  std::int64_t id = 0;
  std::string show_slug;
};

std::unordered_map<std::int64_t, GeneratedFeed> generated_feeds(Database& database) {
  std::unordered_map<std::int64_t, GeneratedFeed> feeds;
  for (auto& feed : podcrawl::store::CrawlList(database).list_feeds(std::nullopt)) {
    if (const auto number = podcrawl::bench::show_number(feed.url)) {
      feeds[*number] = {feed.id, std::move(feed.show_slug)};
    }
  }
  return feeds;
}

void print_rates(const char* done, const Totals& totals, double seconds, int threads) {
  std::printf(
      "bench_directory: %s %lld shows, %lld episodes (%lld new) in %.1f s: %.0f shows/s,"
      " %.0f episodes/s (%d threads)\n",
      done, static_cast<long long>(totals.shows.load()),
      static_cast<long long>(totals.episodes.load()),
      static_cast<long long>(totals.new_episodes.load()), seconds,
      static_cast<double>(totals.shows.load()) / seconds,
      static_cast<double>(totals.episodes.load()) / seconds, threads);
}

void generate(const Options& options, const std::string& url, Database& database) {
  const auto start = Clock::now();
  const auto shows = static_cast<std::size_t>(options.shows);
  const std::size_t batches = (shows + k_add_batch - 1) / k_add_batch;
  Totals added;
  run_parallel(url, options.threads, batches, "listing", added, options.shows,
               [&](Database& db, std::size_t batch) {
                 std::vector<std::string> urls;
                 for (std::size_t i = batch * k_add_batch;
                      i < std::min(shows, (batch + 1) * k_add_batch); ++i) {
                   urls.push_back(podcrawl::bench::show_feed_url(options.first +
                                                                 static_cast<std::int64_t>(i)));
                 }
                 podcrawl::store::CrawlList(db).add_feeds(urls, options.now - k_crawled_before_now);
                 added.shows += static_cast<std::int64_t>(urls.size());
               });
  // Shows stored already (by an earlier run) are left as they are: storing them again would drop
  // the episodes --add-episode-to-percent gave them.
  std::vector<std::pair<std::int64_t, std::int64_t>> unstored; // number, feed id
  const auto feeds = generated_feeds(database);
  for (std::int64_t number = options.first; number < options.first + options.shows; ++number) {
    const auto feed = feeds.find(number);
    if (feed == feeds.end()) {
      throw podcrawl::core::EnvironmentError(podcrawl::bench::show_feed_url(number) +
                                             " is not listed (removed?)");
    }
    if (feed->second.show_slug.empty()) {
      unstored.emplace_back(number, feed->second.id);
    }
  }
  std::fprintf(stderr, "bench_directory: %zu feeds listed in %.1f s; %zu of them stored already\n",
               shows, seconds_since(start), shows - unstored.size());

  const auto store_start = Clock::now();
  Totals stored;
  const std::int64_t crawled = options.now - k_crawled_before_now;
  run_parallel(url, options.threads, unstored.size(), "stored", stored,
               static_cast<std::int64_t>(unstored.size()), [&](Database& db, std::size_t i) {
                 const auto [number, feed_id] = unstored[i];
                 const ShowSpec spec{options.seed, number, options.episodes, 0, options.now};
                 const auto show = podcrawl::bench::generate_show(spec);
                 stored.new_episodes += podcrawl::store::FetchOutcomes(db)
                                            .record_success(feed_id, fetch_meta(spec), show,
                                                            crawled, crawled + k_recrawl_after)
                                            .new_episodes;
                 stored.episodes += static_cast<std::int64_t>(show.episodes.size());
                 ++stored.shows;
               });
  print_rates("stored", stored, seconds_since(store_start), options.threads);
}

// The stored generated shows, in the order the seed picks them, cut to `percent` of them.
std::vector<std::pair<std::int64_t, std::int64_t>> picked_shows(const Options& options,
                                                                Database& database,
                                                                std::size_t& stored_count) {
  std::vector<std::pair<std::int64_t, std::int64_t>> shows; // number, feed id
  for (const auto& [number, feed] : generated_feeds(database)) {
    if (!feed.show_slug.empty()) {
      shows.emplace_back(number, feed.id);
    }
  }
  std::sort(shows.begin(), shows.end(), [&](const auto& a, const auto& b) {
    const auto order_a = podcrawl::bench::pick_order(options.seed, a.first);
    const auto order_b = podcrawl::bench::pick_order(options.seed, b.first);
    return order_a != order_b ? order_a < order_b : a.first < b.first;
  });
  stored_count = shows.size();
  const double wanted = std::round(static_cast<double>(shows.size()) *
                                   options.add_episode_percent.value_or(0) / 100.0);
  shows.resize(
      std::min(shows.size(), std::max<std::size_t>(static_cast<std::size_t>(wanted),
                                                   *options.add_episode_percent > 0 ? 1 : 0)));
  return shows;
}

void add_episodes(const Options& options, const std::string& url, Database& database) {
  std::size_t stored_count = 0;
  const auto picked = picked_shows(options, database, stored_count);
  std::fprintf(stderr, "bench_directory: %zu of %zu stored generated shows gain an episode\n",
               picked.size(), stored_count);
  const auto start = Clock::now();
  Totals stored;
  run_parallel(
      url, options.threads, picked.size(), "updated", stored,
      static_cast<std::int64_t>(picked.size()), [&](Database& db, std::size_t i) {
        const auto [number, feed_id] = picked[i];
        const std::string feed_url = podcrawl::bench::show_feed_url(number);
        const auto current = podcrawl::store::DirectoryPages(db).load_show(feed_url);
        const auto carried = current ? static_cast<std::int64_t>(current->show.episodes.size()) : 0;
        if (carried < options.episodes) {
          throw UsageError(feed_url + " carries " + std::to_string(carried) +
                           " episodes, fewer than --episodes " + std::to_string(options.episodes));
        }
        const ShowSpec spec{options.seed, number, options.episodes,
                            static_cast<int>(carried - options.episodes) + 1, options.now};
        const auto show = podcrawl::bench::generate_show(spec);
        // Just after the new episode appeared.
        const std::int64_t crawled = options.now - 3600 + 60 * spec.extra_episodes + 30;
        stored.new_episodes +=
            podcrawl::store::FetchOutcomes(db)
                .record_success(feed_id, fetch_meta(spec), show, crawled, crawled + k_recrawl_after)
                .new_episodes;
        stored.episodes += static_cast<std::int64_t>(show.episodes.size());
        ++stored.shows;
      });
  print_rates("updated", stored, seconds_since(start), options.threads);
}

int run(int argc, char** argv) {
  const auto options = parse_options(argc, argv);
  if (!options) {
    std::fputs(k_usage.data(), stdout);
    return 0;
  }
  const std::string url = database_url();
  Database database(url);
  database.migrate(std::filesystem::path(podcrawl::core::source_dir()) / "sql");
  if (options->add_episode_percent) {
    add_episodes(*options, url, database);
  } else {
    generate(*options, url, database);
  }
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const UsageError& error) {
    std::fprintf(stderr, "bench_directory: %s (see --help)\n", error.what());
    return 2;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "bench_directory: %s\n", error.what());
    return 1;
  }
}

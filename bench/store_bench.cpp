// Throughput of store::Database::record_success: 1,000 feeds x 50 episodes stored new, then the
// same parses stored again (unchanged: nothing but fetch state is written), in episodes per
// second. Usage: PODCRAWL_BENCH_DATABASE_URL=postgresql://... bench_store [FEEDS] [EPISODES]
// [THREADS]. The database should be a throwaway one; the program migrates it and adds feeds.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "podcrawl/core/config.hpp"
#include "podcrawl/core/time.hpp"
#include "podcrawl/feed/model.hpp"
#include "podcrawl/store/crawl_list.hpp"
#include "podcrawl/store/database.hpp"
#include "podcrawl/store/fetch_outcomes.hpp"

namespace {

using podcrawl::store::Database;

// A show shaped like a real one: HTML notes, enclosure behind a tracking prefix, durations.
podcrawl::feed::Show generated_show(int show, int episodes, std::int64_t now) {
  podcrawl::feed::Show s;
  const std::string n = std::to_string(show);
  s.title = "Benchmark Show " + n;
  s.link = "https://bench.example/shows/" + n;
  s.description = "<p>A show for measuring the store, number " + n + ".</p>";
  s.language = show % 3 == 0 ? "ar" : "en";
  s.author = "Bench Author";
  s.categories = {"Technology", "News"};
  for (int i = episodes; i >= 1; --i) {
    podcrawl::feed::Episode e;
    const std::string k = std::to_string(i);
    e.guid = "bench-" + n + "-" + k;
    e.title = "Episode " + k + ": storing & matching, part " + k;
    e.published = now - static_cast<std::int64_t>(episodes - i) * 7 * 86400;
    e.enclosure_url = "https://dts.podtrac.com/redirect.mp3/media.bench.example/" + n + "/" + k +
                      ".mp3?updated=1700000000";
    e.enclosure_type = "audio/mpeg";
    e.enclosure_length = 12'345'678;
    e.duration_seconds = 3723;
    e.link = "https://bench.example/shows/" + n + "/episodes/" + k;
    e.description = "<p>Show notes with <a href=\"https://bench.example/links/" + k +
                    "\">a link</a> and some text about the topic of the week, long enough to "
                    "look like a real paragraph of show notes.</p>";
    e.episode = i;
    s.episodes.push_back(std::move(e));
  }
  return s;
}

// Store every show once on `threads` connections; returns the seconds taken.
double store_all(const std::string& url, const std::vector<std::int64_t>& feed_ids,
                 const std::vector<podcrawl::feed::Show>& shows, int threads, std::int64_t now,
                 std::atomic<std::int64_t>& new_episodes) {
  std::atomic<std::size_t> next{0};
  std::exception_ptr error;
  std::atomic<bool> failed{false};
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&] {
      try {
        Database db(url);
        podcrawl::store::FetchMeta meta;
        for (std::size_t i = next++; i < shows.size(); i = next++) {
          meta.content_hash = std::to_string(i);
          new_episodes += podcrawl::store::FetchOutcomes(db)
                              .record_success(feed_ids[i], meta, shows[i], now, now + 3600)
                              .new_episodes;
        }
      } catch (...) {
        if (!failed.exchange(true)) {
          error = std::current_exception();
        }
      }
    });
  }
  for (auto& worker : workers) {
    worker.join();
  }
  if (error) {
    std::rethrow_exception(error);
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int run(int argc, char** argv) {
  const char* url = std::getenv("PODCRAWL_BENCH_DATABASE_URL");
  if (url == nullptr || *url == '\0') {
    std::fprintf(stderr, "bench_store: set PODCRAWL_BENCH_DATABASE_URL to a throwaway database\n");
    return 2;
  }
  const int feeds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 1000;
  const int episodes = argc > 2 ? std::max(1, std::atoi(argv[2])) : 50;
  const int threads = argc > 3 ? std::max(1, std::atoi(argv[3])) : 4;
  const std::int64_t now = podcrawl::core::now();

  Database db(url);
  db.migrate(std::filesystem::path(podcrawl::core::source_dir()) / "sql");
  std::vector<std::int64_t> feed_ids;
  std::vector<podcrawl::feed::Show> shows;
  for (int f = 0; f < feeds; ++f) {
    // A prefix per run, so the program can run again on the same database.
    const std::string feed_url =
        "https://bench.example/" + std::to_string(now) + "/" + std::to_string(f) + ".xml";
    podcrawl::store::CrawlList(db).add_feed(feed_url, now);
    feed_ids.push_back(podcrawl::store::CrawlList(db).find_feed(feed_url).value().id);
    shows.push_back(generated_show(f, episodes, now));
  }
  const double total = static_cast<double>(feeds) * episodes;
  std::atomic<std::int64_t> added{0};
  const double first = store_all(url, feed_ids, shows, threads, now, added);
  std::printf(
      "new:       %d feeds x %d episodes, %d threads: %.2f s, %.0f episodes/s, %.0f feeds/s"
      " (%lld new)\n",
      feeds, episodes, threads, first, total / first, feeds / first,
      static_cast<long long>(added.load()));
  std::atomic<std::int64_t> again{0};
  const double second = store_all(url, feed_ids, shows, threads, now + 60, again);
  std::printf(
      "unchanged: %d feeds x %d episodes, %d threads: %.2f s, %.0f episodes/s, %.0f feeds/s"
      " (%lld new)\n",
      feeds, episodes, threads, second, total / second, feeds / second,
      static_cast<long long>(again.load()));
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "bench_store: %s\n", error.what());
    return 1;
  }
}

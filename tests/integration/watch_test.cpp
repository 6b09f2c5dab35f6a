// `podcrawl crawl --watch` through the binary, against a loopback HTTP server and a throwaway
// PostgreSQL database: a watcher fetches a feed announced urgent at once and one that falls due
// while it idles, finishes a stalled transfer when stopped, and two watchers never fetch one
// feed twice at once.
#include <csignal>
#include <ctime>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "directory_fixture.hpp"
#include "podcrawl/store/crawl_list.hpp"
#include "podcrawl/store/database.hpp"
#include "support/images.hpp"
#include "support/loopback_server.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace podcrawl {
namespace {

using namespace std::chrono_literals;

// Far below the minute a resting watcher waits before it looks for due feeds again: a fetch
// within it was woken, not found by the next look.
constexpr auto k_at_once = 10s;
// A watcher stopped with a transfer in flight exits once it ends; the tests' transfers end
// within the timeout of k_short_timeouts.
constexpr auto k_exit_time = 30s;
constexpr const char* k_short_timeouts =
    "[fetch]\n"
    "total_timeout_seconds = 4\n"
    "low_speed_bytes_per_second = 1\n"
    "low_speed_seconds = 30\n"
    "[crawl]\n"
    "per_host = 1\n"
    "per_host_max = 1\n";

// Feeds on a loopback server whose requests the test can wait for: each path's count, the time
// of each request, and the most requests of one path in hand at once.
class WatchedFeeds {
public:
  // Serve `body` at path, with an ETag that changes with the body.
  void serve(testing::LoopbackServer& server, const std::string& path, std::string body) {
    set(path, std::move(body));
    server.on_get(path, [this, path](const testing::Request& request, testing::Response& response) {
      std::unique_lock lock(m_mutex);
      Feed& feed = m_feeds[path];
      ++feed.requests;
      feed.most_at_once = std::max(feed.most_at_once, ++feed.in_hand);
      feed.asked_at.push_back(std::time(nullptr));
      m_changed.notify_all();
      // Held a moment, so that a second fetch of the same feed at once would overlap it.
      m_changed.wait_for(lock, 50ms, [] { return false; });
      --feed.in_hand;
      response.set_header("ETag", feed.etag);
      if (request.header("If-None-Match") == feed.etag) {
        response.status = 304;
        return;
      }
      response.set_content(feed.body, "application/rss+xml");
    });
  }

  void set(const std::string& path, std::string body) {
    std::lock_guard lock(m_mutex);
    Feed& feed = m_feeds[path];
    feed.body = std::move(body);
    feed.etag = "\"" + std::to_string(++m_versions) + "\"";
  }

  // Wait until path has been asked `count` times, at most `timeout`; true when it was.
  bool wait_for_requests(const std::string& path, int count, std::chrono::milliseconds timeout) {
    std::unique_lock lock(m_mutex);
    return m_changed.wait_for(lock, timeout, [&] { return m_feeds[path].requests >= count; });
  }

  int requests(const std::string& path) {
    std::lock_guard lock(m_mutex);
    return m_feeds[path].requests;
  }
  int most_at_once(const std::string& path) {
    std::lock_guard lock(m_mutex);
    return m_feeds[path].most_at_once;
  }
  std::vector<std::int64_t> asked_at(const std::string& path) {
    std::lock_guard lock(m_mutex);
    return m_feeds[path].asked_at;
  }

private:
  struct Feed {
    std::string body;
    std::string etag;
    int requests = 0;
    int in_hand = 0;
    int most_at_once = 0;
    std::vector<std::int64_t> asked_at;
  };
  std::mutex m_mutex;
  std::condition_variable m_changed;
  std::map<std::string, Feed> m_feeds;
  int m_versions = 0;
};

class Watch : public testing::DirectoryTest {
protected:
  // A watcher of this test's database, without cover art: `crawl --watch` after the global
  // options, and `more` after it.
  std::unique_ptr<testing::ChildProcess> start_watcher(std::vector<std::string> global = {},
                                                       const std::vector<std::string>& more = {}) {
    std::vector<std::string> arguments = std::move(global);
    arguments.insert(arguments.end(), {"--allow-private-networks", "crawl", "--watch", "--no-art"});
    arguments.insert(arguments.end(), more.begin(), more.end());
    return std::make_unique<testing::ChildProcess>(command(arguments));
  }

  // SIGTERM, then the exit status once the watcher has exited.
  static testing::ProcessResult stop(testing::ChildProcess& watcher) {
    watcher.signal(SIGTERM);
    auto result = watcher.wait_for(k_exit_time);
    EXPECT_TRUE(result.has_value()) << "the watcher did not exit";
    return result.value_or(testing::ProcessResult{});
  }

  nlohmann::json feed(const std::string& url) {
    for (const auto& entry : nlohmann::json::parse(run({"list", "--json"}).out)) {
      if (entry["url"] == url) {
        return entry;
      }
    }
    ADD_FAILURE() << url << " is not listed";
    return nlohmann::json::object();
  }

  // Wait until every listed feed has been fetched and its outcome stored, at most `timeout`,
  // looking every 20 ms.
  bool wait_until_all_stored(std::chrono::milliseconds timeout) {
    store::Database database(database_url());
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
      const auto listed = store::CrawlList(database).list_feeds(std::nullopt);
      if (std::all_of(listed.begin(), listed.end(), [](const store::FeedRecord& feed) {
            return feed.last_fetch_at.has_value();
          })) {
        return true;
      }
      if (std::chrono::steady_clock::now() >= deadline) {
        return false;
      }
      std::this_thread::sleep_for(20ms);
    }
  }

  std::int64_t feed_id(const std::string& url) {
    store::Database database(database_url());
    return store::CrawlList(database).find_feed(url).value().id;
  }
};

TEST_F(Watch, AFeedMarkedUrgentIsFetchedAtOnce) {
  WatchedFeeds feeds; // outlives the server's handlers
  testing::LoopbackServer server;
  for (const char* path : {"/a.xml", "/b.xml", "/c.xml"}) {
    feeds.serve(server, path, testing::generated_feed(path + 1, "News", 3));
  }
  add_opml({server.url("/a.xml"), server.url("/b.xml"), server.url("/c.xml")});
  // Fetched once by a crawl: none is due again for a day, but the first, due at once.
  ASSERT_EQ(run({"--allow-private-networks", "crawl", "--no-art"}).status, 0);
  ASSERT_EQ(feeds.requests("/b.xml"), 1);
  store::Database database(database_url());
  store::CrawlList(database).defer_feed(feed_id(server.url("/a.xml")), std::time(nullptr));

  auto watcher = start_watcher();
  // Its first batch done, the watcher rests: it looks for due feeds again in a minute.
  const auto rested = watcher->wait_for_log("next look in", k_at_once);
  ASSERT_TRUE(rested) << "no batch";
  ASSERT_NE(rested->find("1 feeds: 0 fetched, 1 not modified"), std::string::npos) << *rested;

  feeds.set("/b.xml", testing::generated_feed("b", "News", 4));
  ASSERT_TRUE(store::CrawlList(database).mark_urgent_by_url(server.url("/b.xml")));
  ASSERT_TRUE(feeds.wait_for_requests("/b.xml", 2, k_at_once)) << "the watcher was not woken";
  const auto woken = watcher->wait_for_log("(1 urgent)", k_at_once);
  ASSERT_TRUE(woken) << "no batch of the urgent feed";
  EXPECT_NE(woken->find("1 feeds (1 urgent): 1 fetched, 0 not modified, 0 failed, 1 new episodes"),
            std::string::npos)
      << *woken;
  // Its new episode is stored.
  const auto shown = nlohmann::json::parse(run({"show", server.url("/b.xml")}).out);
  EXPECT_EQ(shown["episodes"].size(), 4u);

  const auto result = stop(*watcher);
  EXPECT_EQ(result.status, 0) << result.out;
  EXPECT_EQ(feeds.requests("/a.xml"), 2);
  EXPECT_EQ(feeds.requests("/b.xml"), 2);
  EXPECT_EQ(feeds.requests("/c.xml"), 1); // not due, not marked
}

TEST_F(Watch, AFeedMarkedUrgentWhileItIsFetchedIsFetchedAgainAfter) {
  std::mutex mutex; // these outlive the server's handlers
  std::condition_variable changed;
  int asked = 0;
  bool released = false;
  testing::LoopbackServer server;
  std::string body = testing::generated_feed("Held", "News", 3);
  // The first answer waits for the test: the feed changes, and is marked urgent, meanwhile.
  server.on_get("/held.xml", [&](const testing::Request&, testing::Response& response) {
    std::unique_lock lock(mutex);
    ++asked;
    const std::string answer = body; // as it was when asked
    changed.notify_all();
    changed.wait_for(lock, k_exit_time, [&] { return released; });
    response.set_content(answer, "application/rss+xml");
  });
  add_opml({server.url("/held.xml")});
  auto watcher = start_watcher();
  {
    std::unique_lock lock(mutex);
    ASSERT_TRUE(changed.wait_for(lock, k_at_once, [&] { return asked == 1; }));
  }
  store::Database database(database_url());
  ASSERT_TRUE(store::CrawlList(database).mark_urgent_by_url(server.url("/held.xml")));
  const auto marked = std::chrono::steady_clock::now();
  {
    std::lock_guard lock(mutex);
    // The answer in flight leaves with the old body; the new one is there for the next.
    body = testing::generated_feed("Held", "News", 4);
    released = true;
    changed.notify_all();
  }
  {
    std::unique_lock lock(mutex);
    ASSERT_TRUE(changed.wait_for(lock, k_at_once, [&] { return asked == 2; }))
        << "the feed was not fetched again";
  }
  EXPECT_LT(std::chrono::steady_clock::now() - marked, k_at_once);
  ASSERT_TRUE(watcher->wait_for_log("(1 urgent)", k_at_once));
  const auto result = stop(*watcher);
  EXPECT_EQ(result.status, 0) << result.out;
  const auto shown = nlohmann::json::parse(run({"show", server.url("/held.xml")}).out);
  EXPECT_EQ(shown["episodes"].size(), 4u);
}

TEST_F(Watch, AFeedThatFallsDueWhileTheWatcherRestsIsFetchedWhenDue) {
  WatchedFeeds feeds; // outlives the server's handlers
  testing::LoopbackServer server;
  feeds.serve(server, "/soon.xml", testing::generated_feed("Soon", "News", 3));
  feeds.serve(server, "/later.xml", testing::generated_feed("Later", "News", 3));
  add_opml({server.url("/soon.xml"), server.url("/later.xml")});
  ASSERT_EQ(run({"--allow-private-networks", "crawl", "--no-art"}).status, 0);

  // Due in three seconds, announced to nobody.
  const std::int64_t due = std::time(nullptr) + 3;
  {
    store::Database database(database_url());
    store::CrawlList(database).defer_feed(feed_id(server.url("/soon.xml")), due);
  }
  auto watcher = start_watcher();
  ASSERT_TRUE(feeds.wait_for_requests("/soon.xml", 2, k_at_once));
  const auto asked = feeds.asked_at("/soon.xml");
  EXPECT_GE(asked.back(), due) << "fetched before it was due";

  const auto result = stop(*watcher);
  EXPECT_EQ(result.status, 0) << result.out;
  EXPECT_EQ(feeds.requests("/later.xml"), 1);
  EXPECT_EQ(feed(server.url("/soon.xml"))["failure_score"], 0);
}

TEST_F(Watch, SigtermFinishesTheStalledTransferRecordsItAndExitsZero) {
  std::mutex mutex; // these outlive the server's handlers
  std::condition_variable changed;
  bool asked = false;
  bool test_over = false;
  WatchedFeeds feeds;
  testing::LoopbackServer server;
  // Half a feed, then nothing: the transfer ends at the total timeout.
  server.on_get("/stalled.xml", [&](const testing::Request&, testing::Response& response) {
    response.set_stream("application/rss+xml", std::nullopt,
                        [&](std::uint64_t produced) -> std::optional<std::string> {
                          std::unique_lock lock(mutex);
                          if (produced == 0) {
                            asked = true;
                            changed.notify_all();
                            return std::string("<?xml version=\"1.0\"?><rss><channel>");
                          }
                          changed.wait_for(lock, k_exit_time, [&] { return test_over; });
                          return std::nullopt;
                        });
  });
  feeds.serve(server, "/queued.xml", testing::generated_feed("Queued", "News", 3));
  // Both due at once, in the order added; with one transfer a host, the second waits for the
  // first.
  ASSERT_EQ(run({"add", "--no-discover", server.url("/stalled.xml")}).status, 0);
  ASSERT_EQ(run({"add", "--no-discover", server.url("/queued.xml")}).status, 0);
  const auto config = m_dir.path() / "watch.toml";
  testing::write_file(config, k_short_timeouts);

  const auto started = std::chrono::steady_clock::now();
  auto watcher = start_watcher({"--config", config.string()});
  {
    std::unique_lock lock(mutex);
    ASSERT_TRUE(changed.wait_for(lock, k_at_once, [&] { return asked; }));
  }
  const auto result = stop(*watcher);
  const auto elapsed = std::chrono::steady_clock::now() - started;
  {
    std::lock_guard lock(mutex);
    test_over = true;
    changed.notify_all();
  }
  EXPECT_EQ(result.status, 0) << result.out;
  EXPECT_GE(elapsed, 3s) << "the stalled transfer was cut short, not finished";
  const auto stalled = feed(server.url("/stalled.xml"));
  EXPECT_FALSE(stalled["last_fetch_at"].is_null()) << stalled.dump();
  EXPECT_GT(stalled["failure_score"], 0) << stalled.dump();
  EXPECT_FALSE(stalled["last_error"].get<std::string>().empty()) << stalled.dump();
  // The feed waiting for the host was handed back unasked, due at once for the next crawler.
  EXPECT_EQ(feeds.requests("/queued.xml"), 0);
  const auto queued = feed(server.url("/queued.xml"));
  EXPECT_TRUE(queued["last_fetch_at"].is_null()) << queued.dump();
  const auto resumed = run({"--allow-private-networks", "crawl", "--no-art"});
  EXPECT_NE(resumed.out.find("1 fetched"), std::string::npos) << resumed.out;
}

TEST_F(Watch, TwoWatchersNeverFetchOneFeedTwiceAtOnce) {
  constexpr int k_feeds = 40;
  WatchedFeeds feeds; // outlives the server's handlers
  testing::LoopbackServer server;
  std::vector<std::string> urls;
  for (int i = 0; i < k_feeds; ++i) {
    const std::string path = "/feed-" + std::to_string(i) + ".xml";
    feeds.serve(server, path, testing::generated_feed("Feed " + std::to_string(i), "News", 3));
    urls.push_back(server.url(path));
  }
  add_opml(urls);
  // Four feeds at once each, at most 16 claimed: both have their share.
  auto first = start_watcher({}, {"--concurrency", "4"});
  auto second = start_watcher({}, {"--concurrency", "4"});
  for (int i = 0; i < k_feeds; ++i) {
    ASSERT_TRUE(feeds.wait_for_requests("/feed-" + std::to_string(i) + ".xml", 1, k_at_once)) << i;
  }
  ASSERT_TRUE(wait_until_all_stored(k_at_once));
  // Both hear the announcement; one fetches the feed.
  store::Database database(database_url());
  ASSERT_TRUE(store::CrawlList(database).mark_urgent_by_url(urls[7]));
  ASSERT_TRUE(feeds.wait_for_requests("/feed-7.xml", 2, k_at_once));

  for (auto* watcher : {first.get(), second.get()}) {
    const auto result = stop(*watcher);
    EXPECT_EQ(result.status, 0) << result.out;
  }
  for (int i = 0; i < k_feeds; ++i) {
    const std::string path = "/feed-" + std::to_string(i) + ".xml";
    EXPECT_EQ(feeds.requests(path), i == 7 ? 2 : 1) << path;
    EXPECT_EQ(feeds.most_at_once(path), 1) << path;
  }
  const auto stats = nlohmann::json::parse(run({"stats", "--json"}).out);
  EXPECT_EQ(stats["shows"], k_feeds);
}

TEST_F(Watch, TheCoverArtOfTheShowsABatchStoredIsFetchedAfterIt) {
  testing::LoopbackServer server;
  server.serve_feed("/cover.jpg", testing::noise_jpeg(500, 500), "image/jpeg", "\"cover\"");
  std::string feed = testing::generated_feed("Pictured", "Arts", 3);
  feed.insert(feed.find("<item>"), "<image><url>" + server.url("/cover.jpg") + "</url></image>");
  server.serve_feed("/pictured.xml", feed, "application/rss+xml", "\"pictured\"");
  add_opml({server.url("/pictured.xml")});
  const auto art = m_dir.path() / "art";
  const auto config = m_dir.path() / "art.toml";
  testing::write_file(config, "[art]\ndir = \"" + art.string() + "\"\n");

  testing::ChildProcess watcher(
      command({"--config", config.string(), "--allow-private-networks", "crawl", "--watch"}));
  const auto logged = watcher.wait_for_log("cover art: 1 made", k_at_once);
  ASSERT_TRUE(logged) << "no cover art";
  EXPECT_NE(logged->find("1 feeds: 1 fetched"), std::string::npos) << *logged;
  const auto result = stop(watcher);
  EXPECT_EQ(result.status, 0) << result.out;
  EXPECT_EQ(server.count("/cover.jpg"), 1);
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(art)) {
    files += entry.path().extension() == ".webp" ? 1 : 0;
  }
  EXPECT_GT(files, 0u);
}

TEST_F(Watch, RefusesAllAndLimitInOneLine) {
  for (const auto& flags : std::vector<std::vector<std::string>>{
           {"crawl", "--watch", "--all"}, {"crawl", "--watch", "--limit", "5"}}) {
    const auto result = run(flags);
    EXPECT_EQ(result.status, 2) << flags.back();
  }
}

} // namespace
} // namespace podcrawl

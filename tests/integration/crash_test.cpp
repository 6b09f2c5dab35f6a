// Crash consistency, through the podcrawl binary against a loopback HTTP server and throwaway
// PostgreSQL databases: a crawl of a thousand feeds killed (SIGKILL) at twenty different moments,
// or cut off by a restart of PostgreSQL, loses nothing and half-writes nothing. After each
// interruption every stored show is whole; after one more crawl the database holds exactly what
// one clean crawl of the same feeds stores.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <pqxx/pqxx>

#include "directory_fixture.hpp"
#include "support/loopback_server.hpp"
#include "support/own_cluster.hpp"
#include "support/process.hpp"
#include "support/temp_database.hpp"
#include "support/temp_dir.hpp"

namespace podcrawl {
namespace {

using namespace std::chrono_literals;

constexpr int k_feeds = 1000;
constexpr int k_kills = 20;
// Every 25th feed republishes the show of the feed before it (same podcast:guid, same body).
constexpr int k_mirror_every = 25;
// One crawl of every feed takes a few seconds; far longer than that is a hang.
constexpr auto k_max_run_time = 120s;
// Set to replay the kill moments of a failed run (the failure message prints the seed).
constexpr const char* k_seed_variable = "PODCRAWL_CRASH_SEED";
constexpr std::int64_t k_first_published = 1704067200; // 2024-01-01T00:00:00Z

// ---- the feeds ----

// The show a feed publishes: a mirror publishes the show of the feed before it.
int show_of(int feed) {
  return feed % k_mirror_every == k_mirror_every - 1 ? feed - 1 : feed;
}
// Generation 2 of every feed adds one episode and rewrites every description.
int episode_count(int show, int generation) {
  return 5 + show % 4 + (generation - 1);
}
// Shows with a mirror need the podcast:guid that joins them; a third of the others have none
// (their identity is derived from the feed URL).
bool has_podcast_guid(int show) {
  return show % 3 != 0 || show % k_mirror_every == k_mirror_every - 2;
}
// A quarter of the shows give their episodes no guid (their key is the enclosure URL).
bool has_episode_guids(int show) {
  return show % 4 != 1;
}
std::string show_description(int show, int generation) {
  return "Show " + std::to_string(show) + ", generation " + std::to_string(generation) + ".";
}
std::string episode_description(int show, int episode, int generation) {
  return "Episode " + std::to_string(episode) + " of show " + std::to_string(show) +
         ", generation " + std::to_string(generation) + ".";
}
std::string etag(int show, int generation) {
  return "\"g" + std::to_string(generation) + "-" + std::to_string(show) + "\"";
}

std::string feed_body(int show, int generation) {
  const std::string number = std::to_string(show);
  std::ostringstream feed;
  feed << "<?xml version=\"1.0\" encoding=\"UTF-8\"?><rss version=\"2.0\""
          " xmlns:podcast=\"https://podcastindex.org/namespace/1.0\"><channel>"
       << "<title>Crash Show " << number << "</title><link>https://shows.example/" << number
       << "</link><language>en</language><description>" << show_description(show, generation)
       << "</description>";
  if (has_podcast_guid(show)) {
    char guid[48];
    std::snprintf(guid, sizeof guid, "c0ffee00-0000-4000-8000-%012d", show);
    feed << "<podcast:guid>" << guid << "</podcast:guid>";
  }
  // Newest first, as feeds list them.
  for (int episode = episode_count(show, generation) - 1; episode >= 0; --episode) {
    const std::string e = std::to_string(episode);
    feed << "<item><title>Episode " << e << "</title>";
    if (has_episode_guids(show)) {
      feed << "<guid isPermaLink=\"false\">show-" << number << "-episode-" << e << "</guid>";
    }
    feed << "<pubDate>"
         << testing::rfc822(k_first_published + std::int64_t{show} * 3600 +
                            std::int64_t{episode} * 604800)
         << "</pubDate><description>" << episode_description(show, episode, generation)
         << "</description><enclosure url=\"https://media.example/" << number << "/" << e
         << ".mp3\" type=\"audio/mpeg\" length=\"1000\"/></item>";
  }
  feed << "</channel></rss>";
  return feed.str();
}

// Counts the feed requests of one crawl and, at a chosen count, runs an action (kill the
// crawler, restart the database) on the server thread that received that request.
class Trigger {
public:
  // From now on count from zero; the request numbered `at` runs the action set next.
  void arm(int at) {
    std::lock_guard lock(m_mutex);
    m_count = 0;
    m_at = at;
    m_action = nullptr;
    m_fired = false;
  }
  void set_action(std::function<void()> action) {
    std::lock_guard lock(m_mutex);
    m_action = std::move(action);
    m_changed.notify_all();
  }
  void disarm() { arm(0); }
  void on_request() {
    std::unique_lock lock(m_mutex);
    if (++m_count != m_at) {
      return;
    }
    // The crawler can ask before the test has learnt its pid: wait for the action.
    if (m_changed.wait_for(lock, 10s, [this] { return m_action != nullptr; })) {
      m_action();
      m_fired = true;
    }
    m_changed.notify_all();
  }
  // Wait until the action ran, at most timeout.
  bool wait_fired(std::chrono::seconds timeout) {
    std::unique_lock lock(m_mutex);
    return m_changed.wait_for(lock, timeout, [this] { return m_fired; });
  }

private:
  std::mutex m_mutex;
  std::condition_variable m_changed;
  int m_count = 0;
  int m_at = 0;
  std::function<void()> m_action;
  bool m_fired = false;
};

// k_feeds feeds at /feeds/<n>.xml, in the generation the test sets, with ETags.
class FeedServer {
public:
  FeedServer() {
    m_server.on_get(R"(/feeds/(\d+)\.xml)",
                    [this](const testing::Request& request, testing::Response& response) {
                      m_trigger.on_request();
                      const int show = show_of(std::stoi(request.matches[1]));
                      const int generation = m_generation.load();
                      const std::string tag = etag(show, generation);
                      response.set_header("ETag", tag);
                      if (request.header("If-None-Match") == tag) {
                        response.status = 304;
                        return;
                      }
                      response.set_content(feed_body(show, generation), "application/rss+xml");
                    });
  }
  std::string url(int feed) const {
    return m_server.url("/feeds/" + std::to_string(feed) + ".xml");
  }
  void set_generation(int generation) { m_generation = generation; }
  Trigger& trigger() { return m_trigger; }

private:
  Trigger m_trigger;
  std::atomic<int> m_generation{1};
  testing::LoopbackServer m_server; // last: stops before what its handlers use
};

// ---- the databases ----

std::vector<std::string> query_rows(const std::string& url, const std::string& sql) {
  pqxx::connection connection(url);
  pqxx::nontransaction txn(connection);
  std::vector<std::string> rows;
  for (const auto& row : txn.exec(sql)) {
    rows.push_back(row[0].is_null() ? "NULL" : row[0].c_str());
  }
  return rows;
}

// The database as the crawl left it, without what differs between equal crawls (ids, times,
// HTTP statuses 200 vs 304, which of a show's feeds described it last, fetch history): shows
// by identity with their feeds and categories, episodes by show and key with every field, and
// the crawl state of every feed. One sorted text row per record.
struct Dump {
  std::vector<std::string> shows, episodes, feeds;
};

Dump dump(const std::string& url) {
  Dump d;
  d.shows = query_rows(
      url,
      "SELECT ROW(s.identity_guid, s.slug, s.title, s.link, s.description, s.language, s.image,"
      " s.author, s.explicit, s.podcast_guid, s.new_feed_url, s.active,"
      " (SELECT string_agg(f.url, ' ' ORDER BY f.url) FROM feeds f WHERE f.show_id = s.id),"
      " (SELECT string_agg(c.name, ',' ORDER BY sc.position) FROM show_categories sc"
      "  JOIN categories c ON c.id = sc.category_id WHERE sc.show_id = s.id))::text"
      " FROM shows s ORDER BY 1");
  d.episodes = query_rows(
      url,
      "SELECT ROW(s.identity_guid, e.key, e.slug, e.guid, e.title,"
      " extract(epoch FROM e.published)::bigint, e.enclosure_url, e.enclosure_type,"
      " e.enclosure_length, e.duration_seconds, e.link, e.description, e.season, e.episode,"
      " e.explicit, e.image, e.transcripts, e.chapters_url, e.position, e.removed_at IS NULL)::text"
      " FROM episodes e JOIN shows s ON s.id = e.show_id ORDER BY 1");
  d.feeds = query_rows(
      url,
      "SELECT ROW(f.url, f.status, f.failures, f.last_error, f.etag, f.last_modified,"
      " f.content_hash, s.identity_guid, f.last_fetch_at IS NOT NULL, f.next_fetch_at IS NOT NULL,"
      " f.lease_until IS NULL)::text"
      " FROM feeds f LEFT JOIN shows s ON s.id = f.show_id ORDER BY 1");
  return d;
}

// Rows of `rows` not in `other` (both sorted), at most a screenful.
std::vector<std::string> missing_from(const std::vector<std::string>& rows,
                                      const std::vector<std::string>& other) {
  constexpr std::size_t k_max_shown = 10;
  std::vector<std::string> missing;
  std::set_difference(rows.begin(), rows.end(), other.begin(), other.end(),
                      std::back_inserter(missing));
  if (missing.size() > k_max_shown) {
    const auto more = missing.size() - k_max_shown;
    missing.resize(k_max_shown);
    missing.push_back("... and " + std::to_string(more) + " more");
  }
  return missing;
}

void expect_same_rows(const char* what, const std::vector<std::string>& crawled,
                      const std::vector<std::string>& reference) {
  SCOPED_TRACE(what);
  EXPECT_EQ(crawled.size(), reference.size());
  EXPECT_EQ(missing_from(reference, crawled), std::vector<std::string>{}) << "missing after crash";
  EXPECT_EQ(missing_from(crawled, reference), std::vector<std::string>{}) << "extra after crash";
}

// What a whole save leaves: the show described as its describing feed's stored ETag says, with
// exactly that generation's episodes, and a show for every feed with a stored body. Returns one
// line per show or feed that is not whole.
std::vector<std::string> half_written(const std::string& url) {
  std::vector<std::string> problems =
      query_rows(url,
                 "SELECT 'feed ' || url || ' has a stored body but no show' FROM feeds"
                 " WHERE content_hash <> '' AND show_id IS NULL"
                 " UNION ALL SELECT 'show ' || slug || ' has no episodes' FROM shows s"
                 " WHERE NOT EXISTS (SELECT 1 FROM episodes e WHERE e.show_id = s.id)"
                 " UNION ALL SELECT 'identity ' || identity_guid || ' has ' || count(*) || ' shows'"
                 " FROM shows GROUP BY identity_guid HAVING count(*) > 1");
  const auto shows = query_rows(
      url,
      "SELECT concat_ws('|', f.etag, s.slug, s.description,"
      " count(e.id) FILTER (WHERE e.removed_at IS NULL),"
      " string_agg(DISTINCT substring(e.description FROM 'generation [0-9]+'), ',')"
      "  FILTER (WHERE e.removed_at IS NULL))"
      " FROM shows s JOIN feeds f ON f.id = s.feed_id LEFT JOIN episodes e ON e.show_id = s.id"
      " GROUP BY s.id, f.id");
  static const std::regex k_row(R"re("g(\d+)-(\d+)"\|([^|]*)\|([^|]*)\|(\d+)\|?(.*))re");
  for (const auto& row : shows) {
    std::smatch parts;
    if (!std::regex_match(row, parts, k_row)) {
      problems.push_back("unexpected show row: " + row);
      continue;
    }
    const int generation = std::stoi(parts[1]);
    const int show = std::stoi(parts[2]);
    if (parts[4] != show_description(show, generation) ||
        std::stoi(parts[5]) != episode_count(show, generation) ||
        parts[6] != "generation " + std::to_string(generation)) {
      problems.push_back("show " + std::to_string(show) + " is not whole generation " +
                         std::to_string(generation) + ": " + row);
    }
  }
  return problems;
}

// Waits until no session but this one is connected to the database. A killed crawler's
// sessions end once the server notices their closed sockets; pg_terminate_backend with a
// timeout waits for exactly that (and ends a session that has not noticed yet the same way).
// Only client sessions count (autovacuum workers come and go). A session that was still
// starting when the crawler died appears only afterwards, so the terminate runs again until
// none is left (each round blocks on the sessions it found).
void wait_for_other_sessions_to_end(const std::string& url) {
  constexpr int k_max_rounds = 20;
  pqxx::connection connection(url);
  pqxx::nontransaction txn(connection);
  int left = 0;
  for (int round = 0; round < k_max_rounds; ++round) {
    txn.exec(
        "SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity"
        " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        "  AND backend_type = 'client backend'");
    left = txn.exec1(
                  "SELECT count(*) FROM pg_stat_activity"
                  " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                  "  AND backend_type = 'client backend'")[0]
               .as<int>();
    if (left == 0) {
      return;
    }
  }
  FAIL() << left << " sessions of the killed crawler are still connected";
}

// ---- the fixture ----

class CrashConsistency : public ::testing::Test {
protected:
  void SetUp() override {
    if (!testing::TempDatabase::available()) {
      GTEST_SKIP() << testing::TempDatabase::skip_reason();
    }
    m_reference = std::make_unique<testing::TempDatabase>();
  }

  static std::vector<std::string> command(const std::string& database_url,
                                          std::vector<std::string> arguments) {
    arguments.insert(arguments.begin(), {testing::podcrawl_binary(), "--database-url", database_url,
                                         "--allow-private-networks", "-q"});
    return arguments;
  }
  static testing::ProcessResult run(const std::string& database_url,
                                    std::vector<std::string> arguments) {
    return testing::run_process(command(database_url, std::move(arguments)));
  }

  void add_feeds(const std::string& database_url) {
    std::string outlines;
    for (int feed = 0; feed < k_feeds; ++feed) {
      outlines += "<outline type=\"rss\" text=\"feed\" xmlUrl=\"" + m_feeds.url(feed) + "\"/>";
    }
    const auto file = m_dir.path() / "feeds.opml";
    testing::write_file(file, "<?xml version=\"1.0\"?><opml version=\"2.0\"><head/><body>" +
                                  outlines + "</body></opml>");
    const auto added = run(database_url, {"add", "--opml", file.string()});
    ASSERT_EQ(added.status, 0) << added.out;
  }

  // The reference: one uninterrupted crawl of every feed in the given generation.
  void crawl_reference(int generation) {
    ASSERT_NO_FATAL_FAILURE(add_feeds(m_reference->url()));
    m_feeds.set_generation(generation);
    const auto crawled = run(m_reference->url(), {"crawl"});
    ASSERT_EQ(crawled.status, 0) << crawled.out;
    ASSERT_EQ(half_written(m_reference->url()), std::vector<std::string>{});
  }

  void expect_equals_reference(const std::string& database_url) {
    const Dump crawled = dump(database_url);
    const Dump reference = dump(m_reference->url());
    ASSERT_EQ(reference.feeds.size(), static_cast<std::size_t>(k_feeds));
    expect_same_rows("shows", crawled.shows, reference.shows);
    expect_same_rows("episodes", crawled.episodes, reference.episodes);
    expect_same_rows("feeds", crawled.feeds, reference.feeds);
  }

  // A crawl run in the background until it exits; fails the test if it outlives the bound.
  testing::ProcessResult finish(testing::ChildProcess& crawler) {
    const auto result = crawler.wait_for(k_max_run_time);
    if (!result) {
      ADD_FAILURE() << "the crawl still runs after " << k_max_run_time.count() << " s";
      crawler.kill();
      return *crawler.wait_for(k_max_run_time);
    }
    return *result;
  }

  testing::TempDir m_dir;
  FeedServer m_feeds;
  std::unique_ptr<testing::TempDatabase> m_reference;
};

// Kill moments: one request count in each twentieth of a crawl, in a shuffled order, so early,
// middle and late kills all meet both generations.
std::vector<int> kill_moments(std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::vector<int> moments;
  for (int i = 0; i < k_kills; ++i) {
    const int low = 1 + i * k_feeds / k_kills;
    const int high = (i + 1) * k_feeds / k_kills;
    moments.push_back(std::uniform_int_distribution<int>(low, high)(random));
  }
  std::shuffle(moments.begin(), moments.end(), random);
  return moments;
}

std::uint64_t kill_seed() {
  if (const char* seed = std::getenv(k_seed_variable); seed != nullptr && *seed != '\0') {
    return std::stoull(seed);
  }
  return std::random_device{}();
}

TEST_F(CrashConsistency, CrawlsKilledTwentyTimesThenRunAgainStoreWhatOneCleanCrawlStores) {
  const std::uint64_t seed = kill_seed();
  const auto moments = kill_moments(seed);
  std::string described = std::string(k_seed_variable) + "=" + std::to_string(seed) + ", kills at";
  for (const int moment : moments) {
    described += " " + std::to_string(moment);
  }
  SCOPED_TRACE(described);
  RecordProperty("kill_seed", std::to_string(seed));

  ASSERT_NO_FATAL_FAILURE(crawl_reference(2));
  testing::TempDatabase crashed;
  ASSERT_NO_FATAL_FAILURE(add_feeds(crashed.url()));

  // The first half of the kills interrupt first saves of generation 1; the second half
  // interrupt updates to generation 2 and the 304s of feeds already updated. `crawl --all`
  // walks every feed, so each run is killed at its own request count.
  for (int kill = 0; kill < k_kills; ++kill) {
    SCOPED_TRACE("kill " + std::to_string(kill) + " at request " + std::to_string(moments[kill]));
    m_feeds.set_generation(kill < k_kills / 2 ? 1 : 2);
    m_feeds.trigger().arm(moments[kill]);
    testing::ChildProcess crawler(command(crashed.url(), {"crawl", "--all"}));
    m_feeds.trigger().set_action([&crawler] { crawler.kill(); });
    const auto result = finish(crawler);
    m_feeds.trigger().disarm(); // before the action's crawler goes
    EXPECT_EQ(result.signal, SIGKILL) << "exit " << result.status << ": " << result.out;
    ASSERT_NO_FATAL_FAILURE(wait_for_other_sessions_to_end(crashed.url()));
    EXPECT_EQ(half_written(crashed.url()), std::vector<std::string>{});
  }

  // A crawl right after the last kill takes over the killed run's leases: every feed never
  // stored is fetched now.
  const auto resumed = run(crashed.url(), {"crawl"});
  ASSERT_EQ(resumed.status, 0) << resumed.out;
  EXPECT_EQ(query_rows(crashed.url(), "SELECT url FROM feeds WHERE show_id IS NULL"),
            std::vector<std::string>{});
  // Feeds last stored in generation 1 are not due again for hours: `--all` updates them.
  const auto updated = run(crashed.url(), {"crawl", "--all"});
  ASSERT_EQ(updated.status, 0) << updated.out;
  EXPECT_EQ(half_written(crashed.url()), std::vector<std::string>{});
  expect_equals_reference(crashed.url());
}

TEST_F(CrashConsistency, ACrawlCutOffByADatabaseRestartEndsCleanlyAndTheNextCrawlCompletesIt) {
  ASSERT_NO_FATAL_FAILURE(crawl_reference(1));
  testing::OwnCluster cluster;
  const auto started = cluster.script("start");
  ASSERT_EQ(started.status, 0) << started.out;
  ASSERT_NO_FATAL_FAILURE(add_feeds(cluster.url()));

  // A third of the way through the crawl, PostgreSQL stops (fast: sessions are ended, open
  // transactions rolled back) and starts again.
  constexpr int k_restart_at = k_feeds / 3;
  m_feeds.trigger().arm(k_restart_at);
  testing::ChildProcess crawler(command(cluster.url(), {"crawl"}));
  m_feeds.trigger().set_action([] {});
  ASSERT_TRUE(m_feeds.trigger().wait_fired(k_max_run_time));
  const auto stopped = cluster.script("stop");
  ASSERT_EQ(stopped.status, 0) << stopped.out;
  const auto restarted = cluster.script("start");
  ASSERT_EQ(restarted.status, 0) << restarted.out;

  // The run reconnects and finishes, or fails with one line naming the database.
  const auto cut = finish(crawler);
  RecordProperty("cut_off_status", cut.status);
  EXPECT_TRUE(cut.status == 0 || cut.status == 1) << cut.status << ": " << cut.out << cut.err;
  if (cut.status == 1) {
    EXPECT_EQ(std::count(cut.err.begin(), cut.err.end(), '\n'), 1) << cut.err;
    EXPECT_EQ(cut.err.rfind("podcrawl: database ", 0), 0u) << cut.err;
  }
  EXPECT_EQ(half_written(cluster.url()), std::vector<std::string>{});

  const auto resumed = run(cluster.url(), {"crawl"});
  ASSERT_EQ(resumed.status, 0) << resumed.out;
  expect_equals_reference(cluster.url());
}

} // namespace
} // namespace podcrawl

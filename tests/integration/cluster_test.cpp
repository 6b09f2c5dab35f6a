// The directory against PostgreSQL clusters of the tests' own (scripts/db): the live server and
// a watching crawler across a stop and a start of their database, and every read-only command and
// the live server on a real streaming replica (pg_basebackup -R) while crawls write to the primary.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "directory_fixture.hpp"
#include "podcrawl/store/crawl_list.hpp"
#include "podcrawl/store/database.hpp"
#include "support/http_client.hpp"
#include "support/loopback_server.hpp"
#include "support/own_cluster.hpp"
#include "support/process.hpp"
#include "support/temp_database.hpp"
#include "support/temp_dir.hpp"

namespace podcrawl {
namespace {

using namespace std::chrono_literals;

constexpr const char* k_now = "2026-12-01T00:00:00Z";
const std::string k_new_title = "Episode 84: a brand-new episode";
// How long a change on the primary may take to reach a page served from the replica: the
// README's bound (a look every 2 seconds, plus the replication delay) with room for a loaded
// machine.
constexpr auto k_replica_bound = 30s;

using testing::Answer;

Answer get(int port, const std::string& path) {
  return testing::curl_get(port, path);
}

// A figure of /metrics, -1 when it is not there.
long metric(int port, const std::string& name) {
  const std::string text = get(port, "/metrics").body;
  const auto at = text.find("\n" + name + " ");
  return at == std::string::npos ? -1 : std::stol(text.substr(at + name.size() + 2));
}

class OwnClusters : public ::testing::Test {
protected:
  void SetUp() override {
    if (!testing::TempDatabase::available()) {
      GTEST_SKIP() << testing::TempDatabase::skip_reason();
    }
    const auto started = m_primary.script("start");
    ASSERT_EQ(started.status, 0) << started.out;
    m_tech->set(testing::tech_feed(), "\"tech-1\"");
    m_tech->serve(m_feeds, "/tech.xml");
    const auto config = m_dir.path() / "podcrawl.toml";
    testing::write_file(config, "[serve]\naccess_log = false\n[art]\ndir = \"" +
                                    (m_dir.path() / "art").string() + "\"\n");
    ASSERT_EQ(podcrawl(m_primary, {"add", "--no-discover", m_feeds.url("/tech.xml")}).status, 0);
    const auto crawled = podcrawl(m_primary, {"crawl"});
    ASSERT_EQ(crawled.status, 0) << crawled.out;
    const auto listed = nlohmann::json::parse(podcrawl(m_primary, {"list", "--json"}).out);
    ASSERT_EQ(listed.size(), 1U);
    m_show = "/en/podcasts/" + listed[0]["show_slug"].get<std::string>() + "/";
  }

  std::vector<std::string> command(const testing::OwnCluster& cluster,
                                   std::vector<std::string> arguments) const {
    arguments.insert(
        arguments.begin(),
        {testing::podcrawl_binary(), "--config", (m_dir.path() / "podcrawl.toml").string(),
         "--database-url", cluster.url(), "--allow-private-networks"});
    return arguments;
  }
  testing::ProcessResult podcrawl(const testing::OwnCluster& cluster,
                                  std::vector<std::string> arguments) const {
    return testing::run_process(command(cluster, std::move(arguments)));
  }
  // Its stderr collected as well.
  testing::ProcessResult podcrawl_said(const testing::OwnCluster& cluster,
                                       std::vector<std::string> arguments) const {
    testing::ChildProcess child(command(cluster, std::move(arguments)));
    auto result = child.wait_for(2min);
    return result ? *result : testing::ProcessResult{};
  }

  // The live directory on `cluster`, on a free port; the port.
  int start_serve(const testing::OwnCluster& cluster) {
    m_serve = std::make_unique<testing::ChildProcess>(
        command(cluster, {"serve", "--port", "0", "--locales", "ar,en", "--now", k_now}));
    const auto out = m_serve->wait_for_output("/\n", 60s);
    if (!out) {
      ADD_FAILURE() << "serve did not start";
      return 0;
    }
    return std::stoi(out->substr(out->rfind(':') + 1));
  }

  // The tech show's feed with one more episode, crawled into the primary.
  void crawl_a_new_episode() {
    m_tech->set(testing::tech_feed_with_new_episode(k_new_title), "\"tech-2\"");
    const auto crawled = podcrawl(m_primary, {"crawl", "--all"});
    ASSERT_EQ(crawled.status, 0) << crawled.out;
  }

  // Ask for the show page until it holds the new episode, at most `bound`; how long it took.
  std::optional<std::chrono::milliseconds> wait_for_the_new_episode(int port,
                                                                    std::chrono::seconds bound) {
    const auto started = std::chrono::steady_clock::now();
    do {
      if (get(port, m_show).body.find(k_new_title) != std::string::npos) {
        return std::chrono::duration_cast<std::chrono::milliseconds>(
            std::chrono::steady_clock::now() - started);
      }
    } while (std::chrono::steady_clock::now() - started < bound);
    return std::nullopt;
  }

  testing::TempDir m_dir;
  testing::OwnCluster m_primary;
  testing::LoopbackServer m_feeds;
  std::shared_ptr<testing::ChangingFeed> m_tech = std::make_shared<testing::ChangingFeed>();
  std::string m_show;
  std::unique_ptr<testing::ChildProcess> m_serve;
};

// While PostgreSQL is stopped, the pages the server holds are answered from memory with their
// Age and an unseen page gets the locale's 503 page; once it is back, a crawl's new episode
// reaches the page.
TEST_F(OwnClusters, TheLiveDirectoryOutlastsARestartOfItsDatabase) {
  const int port = start_serve(m_primary);
  ASSERT_NE(port, 0);
  const Answer before = get(port, m_show);
  ASSERT_EQ(before.status, 200);
  // Asked again until it comes from memory: the server holds it.
  const auto cached_by = std::chrono::steady_clock::now() + 10s;
  while (metric(port, "podcrawl_cache_hits_total") <= 0 &&
         std::chrono::steady_clock::now() < cached_by) {
    ASSERT_EQ(get(port, m_show).body, before.body);
  }
  ASSERT_GT(metric(port, "podcrawl_cache_hits_total"), 0);

  const auto stopped = m_primary.script("stop");
  ASSERT_EQ(stopped.status, 0) << stopped.out;
  // Once the server finds the database gone, the page comes from memory, marked stale by its
  // Age; until then it comes from memory as before. Never an error.
  Answer stale;
  const auto noticed_by = std::chrono::steady_clock::now() + 15s;
  do {
    stale = get(port, m_show);
    ASSERT_EQ(stale.status, 200);
    ASSERT_EQ(stale.body, before.body);
  } while (stale.header("Age").empty() && std::chrono::steady_clock::now() < noticed_by);
  EXPECT_FALSE(stale.header("Age").empty());
  EXPECT_EQ(stale.header("Cache-Control"), "no-cache");
  EXPECT_GT(metric(port, "podcrawl_stale_answers_total"), 0);

  const Answer unseen = get(port, "/ar/");
  EXPECT_EQ(unseen.status, 503);
  EXPECT_FALSE(unseen.header("Retry-After").empty());
  EXPECT_NE(unseen.body.find("<html lang=\"ar\" dir=\"rtl\">"), std::string::npos) << unseen.body;
  EXPECT_NE(unseen.body.find("غير متاح مؤقتًا"), std::string::npos) << unseen.body;

  const auto restarted = m_primary.script("start");
  ASSERT_EQ(restarted.status, 0) << restarted.out;
  ASSERT_NO_FATAL_FAILURE(crawl_a_new_episode());
  EXPECT_TRUE(wait_for_the_new_episode(port, 30s).has_value());
  EXPECT_EQ(get(port, "/ar/").status, 200);
}

// A crawler that stays up outlasts a stop and a start of its database: it says so once when it
// loses it and once when it is back, and a feed marked urgent after the restart is fetched.
TEST_F(OwnClusters, AWatcherOutlastsARestartOfItsDatabase) {
  testing::ChildProcess watcher(command(m_primary, {"crawl", "--watch", "--no-art"}));
  ASSERT_TRUE(watcher.wait_for_log("SIGTERM stops", 60s));
  const auto stopped = m_primary.script("stop");
  ASSERT_EQ(stopped.status, 0) << stopped.out;
  ASSERT_TRUE(watcher.wait_for_log("unreachable", 30s)) << "the loss was not noticed";
  const auto restarted = m_primary.script("start");
  ASSERT_EQ(restarted.status, 0) << restarted.out;
  ASSERT_TRUE(watcher.wait_for_log("the database is reachable again", 30s));

  m_tech->set(testing::tech_feed_with_new_episode(k_new_title), "\"tech-2\"");
  {
    store::Database database(m_primary.url());
    ASSERT_TRUE(store::CrawlList(database).mark_urgent_by_url(m_feeds.url("/tech.xml")));
  }
  // Claimed as announced, or found due by the new run's first look if that came first.
  const auto fetched = watcher.wait_for_log("1 fetched, 0 not modified, 0 failed, 1 new", 30s);
  ASSERT_TRUE(fetched) << "the urgent feed was not fetched after the restart";
  EXPECT_NE(podcrawl(m_primary, {"show", m_feeds.url("/tech.xml")}).out.find(k_new_title),
            std::string::npos);
  std::size_t lost = 0;
  for (auto at = fetched->find("unreachable"); at != std::string::npos;
       at = fetched->find("unreachable", at + 1)) {
    ++lost;
  }
  EXPECT_EQ(lost, 1U) << *fetched;

  watcher.signal(SIGTERM);
  const auto result = watcher.wait_for(60s);
  ASSERT_TRUE(result);
  EXPECT_EQ(result->status, 0);
}

// The read-only commands and the live server run on a hot standby; commands that write say
// they cannot; an episode crawled into the primary reaches the replica's page within the bound.
TEST_F(OwnClusters, ReadOnlyCommandsAndTheLiveServerRunOnAStreamingReplica) {
  testing::OwnCluster replica;
  const auto copied = replica.start_replica_of(m_primary);
  ASSERT_EQ(copied.status, 0) << copied.out;

  const auto stats = podcrawl(replica, {"stats", "--json"});
  ASSERT_EQ(stats.status, 0) << stats.out;
  EXPECT_EQ(nlohmann::json::parse(stats.out),
            nlohmann::json::parse(podcrawl(m_primary, {"stats", "--json"}).out));
  const auto site = m_dir.path() / "site";
  for (const std::vector<std::string>& read : std::vector<std::vector<std::string>>{
           {"list", "--json"},
           {"show", m_feeds.url("/tech.xml")},
           {"search", "episode"},
           {"export-opml"},
           {"report", "--out", "-", "--now", k_now},
           {"render", "--out", site.string(), "--locales", "ar,en", "--now", k_now}}) {
    const auto result = podcrawl(replica, read);
    EXPECT_EQ(result.status, 0) << read.front() << ": " << result.out;
  }
  EXPECT_TRUE(std::filesystem::exists(site / "ar" / "index.html"));
  EXPECT_EQ(podcrawl(replica, {"show", m_feeds.url("/tech.xml")}).out,
            podcrawl(m_primary, {"show", m_feeds.url("/tech.xml")}).out);

  for (const std::vector<std::string>& write : std::vector<std::vector<std::string>>{
           {"crawl"}, {"add", "--no-discover", m_feeds.url("/other.xml")}, {"migrate"}}) {
    const auto refused = podcrawl_said(replica, write);
    EXPECT_EQ(refused.status, 1) << write.front();
    EXPECT_NE(refused.err.find("read-only replica"), std::string::npos)
        << write.front() << ": " << refused.err;
  }

  const int port = start_serve(replica);
  ASSERT_NE(port, 0);
  ASSERT_EQ(get(port, m_show).status, 200);
  ASSERT_NO_FATAL_FAILURE(crawl_a_new_episode());
  const auto took = wait_for_the_new_episode(port, k_replica_bound);
  ASSERT_TRUE(took.has_value()) << "not on the replica's page within "
                                << std::chrono::seconds(k_replica_bound).count() << " s";
  std::cout << "the new episode reached the replica's page in " << took->count() << " ms\n";
}

} // namespace
} // namespace podcrawl

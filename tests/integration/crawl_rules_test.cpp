// The crawler's fetching rules, through the podcrawl binary against a loopback HTTP server and a
// throwaway PostgreSQL database: moves, failures and backoff, bounds, concurrent crawls.
#include <gtest/gtest.h>

#include <filesystem>

#include <fstream>
#include <nlohmann/json.hpp>

#include <atomic>
#include <map>
#include <mutex>

#include "podcrawl/core/time.hpp"
#include "support/loopback_server.hpp"
#include "support/process.hpp"
#include "support/temp_database.hpp"
#include "support/temp_dir.hpp"

namespace podcrawl {
namespace {

namespace fs = std::filesystem;

std::string small_feed(const std::string& title, const std::string& extra = "") {
  return "<?xml version=\"1.0\"?><rss version=\"2.0\" "
         "xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\"><channel><title>" +
         title + "</title>" + extra +
         "<item><title>One</title><guid>one</guid>"
         "<enclosure url=\"https://media.example/1.mp3\" type=\"audio/mpeg\" length=\"1\"/>"
         "</item></channel></rss>";
}

class CrawlRules : public testing::DatabaseTest {
protected:
  std::vector<std::string> command(std::vector<std::string> arguments) const {
    arguments.insert(arguments.begin(), {testing::podcrawl_binary(), "--database-url",
                                         database_url(), "--allow-private-networks"});
    return arguments;
  }
  testing::ProcessResult run(std::vector<std::string> arguments) {
    return testing::run_process(command(std::move(arguments)));
  }
  void add(const std::vector<std::string>& urls) {
    std::vector<std::string> arguments = {"add", "--no-discover"};
    arguments.insert(arguments.end(), urls.begin(), urls.end());
    const auto added = run(arguments);
    ASSERT_EQ(added.status, 0) << added.out;
  }
  nlohmann::json feed(const std::string& url) {
    for (const auto& entry : nlohmann::json::parse(run({"list", "--json"}).out)) {
      if (entry["url"] == url) {
        return entry;
      }
    }
    return nullptr;
  }
  static std::int64_t seconds_between(const nlohmann::json& entry) {
    return *core::parse_iso8601(entry["next_fetch_at"].get<std::string>()) -
           *core::parse_iso8601(entry["last_fetch_at"].get<std::string>());
  }

  testing::TempDir m_dir;
};

TEST_F(CrawlRules, APermanentRedirectMovesTheFeedAndATemporaryOneDoesNot) {
  testing::LoopbackServer server;
  server.on_get("/moved.xml", [&](const testing::Request&, testing::Response& response) {
    response.set_redirect(server.url("/new.xml"), 301);
  });
  server.on_get("/visiting.xml", [&](const testing::Request&, testing::Response& response) {
    response.set_redirect(server.url("/elsewhere.xml"), 302);
  });
  server.serve_feed("/new.xml", small_feed("Moved"), "application/rss+xml", "\"a\"");
  server.serve_feed("/elsewhere.xml", small_feed("Visiting"), "application/rss+xml", "\"b\"");
  add({server.url("/moved.xml"), server.url("/visiting.xml")});
  ASSERT_EQ(run({"crawl"}).status, 0);
  EXPECT_TRUE(feed(server.url("/moved.xml")).is_null());
  EXPECT_FALSE(feed(server.url("/new.xml")).is_null());
  EXPECT_FALSE(feed(server.url("/visiting.xml")).is_null());
  EXPECT_TRUE(feed(server.url("/elsewhere.xml")).is_null());
  // The old URL stays known: adding it again is no new feed.
  const auto again = run({"add", "--no-discover", server.url("/moved.xml")});
  EXPECT_NE(again.out.find("exists"), std::string::npos) << again.out;
}

TEST_F(CrawlRules, NewFeedUrlMovesTheFeed) {
  testing::LoopbackServer server;
  server.serve_feed("/old.xml",
                    small_feed("Old home", "<itunes:new-feed-url>" + server.url("/home.xml") +
                                               "</itunes:new-feed-url>"),
                    "application/rss+xml", "\"a\"");
  add({server.url("/old.xml")});
  ASSERT_EQ(run({"crawl"}).status, 0);
  EXPECT_TRUE(feed(server.url("/old.xml")).is_null());
  EXPECT_FALSE(feed(server.url("/home.xml")).is_null());
}

TEST_F(CrawlRules, RepeatedFailuresBackOffFurtherEachTime) {
  testing::LoopbackServer server;
  server.on_get("/broken.xml", [](const testing::Request&, testing::Response& response) {
    response.status = 500;
  });
  add({server.url("/broken.xml")});
  std::vector<std::int64_t> waits;
  // A 500 weighs 1: the feed stays active (with its error) until its score reaches the default
  // failing score of 4.
  for (int i = 0; i < 4; ++i) {
    ASSERT_EQ(run({"crawl", "--all"}).status, 0);
    const auto entry = feed(server.url("/broken.xml"));
    EXPECT_EQ(entry["failures"], i + 1);
    EXPECT_EQ(entry["failure_score"], i + 1);
    EXPECT_EQ(entry["status"], i + 1 < 4 ? "active" : "failing");
    EXPECT_EQ(entry["last_status"], 500);
    EXPECT_EQ(entry["last_error"], "HTTP 500");
    waits.push_back(seconds_between(entry));
  }
  EXPECT_LT(waits[0], waits[1]);
  EXPECT_LT(waits[1], waits[2]);
  EXPECT_LT(waits[2], waits[3]);
  EXPECT_EQ(server.count("/broken.xml"), 4);
}

TEST_F(CrawlRules, AMissingFeedFailsSoonerAndWaitsLongerThanABrokenServer) {
  testing::LoopbackServer server;
  server.on_get("/broken.xml", [](const testing::Request&, testing::Response& response) {
    response.status = 500;
  });
  server.on_get("/missing.xml", [](const testing::Request&, testing::Response& response) {
    response.status = 404;
  });
  add({server.url("/broken.xml"), server.url("/missing.xml")});
  for (int i = 0; i < 2; ++i) {
    ASSERT_EQ(run({"crawl", "--all"}).status, 0);
  }
  const auto broken = feed(server.url("/broken.xml"));
  const auto missing = feed(server.url("/missing.xml"));
  EXPECT_EQ(broken["failure_score"], 2);
  EXPECT_EQ(broken["status"], "active");
  EXPECT_EQ(missing["failure_score"], 6);
  EXPECT_EQ(missing["status"], "failing");
  EXPECT_EQ(missing["last_status"], 404);
  // Score 6 waits at least 3/4 of base * 2^5; score 2 at most base * 2.
  EXPECT_GT(seconds_between(missing), seconds_between(broken));
}

TEST_F(CrawlRules, RetryAfterPostponesTheNextFetch) {
  testing::LoopbackServer server;
  server.on_get("/busy.xml", [](const testing::Request&, testing::Response& response) {
    response.status = 429;
    response.set_header("Retry-After", "86400");
  });
  add({server.url("/busy.xml")});
  ASSERT_EQ(run({"crawl"}).status, 0);
  EXPECT_GE(seconds_between(feed(server.url("/busy.xml"))), 86400);
}

TEST_F(CrawlRules, BodiesOverTheCapFailEvenWhenTheyArriveCompressed) {
  testing::LoopbackServer server;
  const std::string big = small_feed(std::string(200000, 'x'));
  server.serve_feed("/big.xml", big, "application/rss+xml", "\"a\"");
  const std::string bomb = testing::gzip(big);
  ASSERT_LT(bomb.size(), 10000u);
  server.on_get("/bomb.xml", [&bomb](const testing::Request&, testing::Response& response) {
    response.set_header("Content-Encoding", "gzip");
    response.set_content(bomb, "application/rss+xml");
  });
  const auto config = m_dir.path() / "small.toml";
  testing::write_file(config, "[fetch]\nmax_body_bytes = 50000\n");
  add({server.url("/big.xml"), server.url("/bomb.xml")});
  ASSERT_EQ(run({"--config", config.string(), "crawl"}).status, 0);
  for (const char* path : {"/big.xml", "/bomb.xml"}) {
    const auto entry = feed(server.url(path));
    EXPECT_EQ(entry["status"], "active") << path; // one failure weighing 2, below failing_score
    EXPECT_EQ(entry["failure_score"], 2) << path;
    EXPECT_NE(entry["last_error"].get<std::string>().find("larger than 50000"), std::string::npos)
        << path;
  }
}

TEST_F(CrawlRules, ARedirectLoopFailsTheFeed) {
  testing::LoopbackServer server;
  server.on_get("/a.xml", [&](const testing::Request&, testing::Response& response) {
    response.set_redirect(server.url("/b.xml"), 302);
  });
  server.on_get("/b.xml", [&](const testing::Request&, testing::Response& response) {
    response.set_redirect(server.url("/a.xml"), 302);
  });
  add({server.url("/a.xml")});
  const auto crawled = run({"crawl"});
  ASSERT_EQ(crawled.status, 0);
  EXPECT_NE(crawled.out.find("1 failed"), std::string::npos) << crawled.out;
  EXPECT_NE(feed(server.url("/a.xml"))["last_error"].get<std::string>().find("redirects"),
            std::string::npos);
  EXPECT_EQ(server.count("/a.xml") + server.count("/b.xml"), 6); // the first request + 5 hops
}

// Without --allow-private-networks, loopback is refused; 127.0.0.2 is let through by
// fetch.allowed_private_addresses only so that the first hop can be answered at all. Its
// redirects to 127.0.0.1 (and to the same server by the name localhost) are refused at connect.
TEST_F(CrawlRules, ARedirectToAPrivateAddressIsRefusedAtTheHop) {
  testing::LoopbackServer allowed("127.0.0.2");
  testing::LoopbackServer target;
  target.serve_feed("/feed.xml", small_feed("Private"), "application/rss+xml", "\"p\"");
  allowed.serve_feed("/direct.xml", small_feed("Direct"), "application/rss+xml", "\"d\"");
  allowed.on_get("/to-loopback.xml", [&](const testing::Request&, testing::Response& response) {
    response.set_redirect(target.url("/feed.xml"), 302);
  });
  allowed.on_get("/to-localhost.xml", [&](const testing::Request&, testing::Response& response) {
    response.set_redirect("http://localhost:" + std::to_string(target.port()) + "/feed.xml", 301);
  });
  const fs::path config = m_dir.path() / "podcrawl.toml";
  std::ofstream(config) << "[fetch]\nallowed_private_addresses = [\"127.0.0.2\"]\n";
  const auto strict = [&](std::vector<std::string> arguments) {
    arguments.insert(arguments.begin(), {testing::podcrawl_binary(), "--config", config.string(),
                                         "--database-url", database_url()});
    return testing::run_process(arguments);
  };
  const std::vector<std::string> urls = {allowed.url("/direct.xml"),
                                         allowed.url("/to-loopback.xml"),
                                         allowed.url("/to-localhost.xml")};
  std::vector<std::string> add_arguments = {"add", "--no-discover"};
  add_arguments.insert(add_arguments.end(), urls.begin(), urls.end());
  ASSERT_EQ(strict(add_arguments).status, 0);
  const auto crawled = strict({"crawl"});
  ASSERT_EQ(crawled.status, 0);
  EXPECT_NE(crawled.out.find("1 fetched"), std::string::npos) << crawled.out;
  EXPECT_NE(crawled.out.find("2 failed"), std::string::npos) << crawled.out;
  EXPECT_EQ(target.count("/feed.xml"), 0); // never reached
  EXPECT_EQ(feed(urls[0])["last_status"], 200);
  for (const std::string& url : {urls[1], urls[2]}) {
    SCOPED_TRACE(url);
    const auto entry = feed(url);
    EXPECT_NE(entry["last_error"].get<std::string>().find("refused to connect to non-public"),
              std::string::npos)
        << entry.dump();
    EXPECT_EQ(entry["url"], url); // a refused 301 moves nothing
  }
}

TEST_F(CrawlRules, ConcurrentCrawlsNeverFetchTheSameFeedTwice) {
  constexpr int k_feeds = 60;
  testing::LoopbackServer server;
  std::vector<std::string> urls;
  for (int i = 0; i < k_feeds; ++i) {
    const std::string path = "/feed-" + std::to_string(i) + ".xml";
    server.serve_feed(path, small_feed("Feed " + std::to_string(i)), "application/rss+xml",
                      "\"e\"");
    urls.push_back(server.url(path));
  }
  add(urls);
  const auto results = testing::run_processes_together({command({"crawl", "--concurrency", "4"}),
                                                        command({"crawl", "--concurrency", "4"}),
                                                        command({"crawl", "--concurrency", "4"})});
  for (const auto& result : results) {
    EXPECT_EQ(result.status, 0) << result.out;
  }
  for (int i = 0; i < k_feeds; ++i) {
    EXPECT_EQ(server.count("/feed-" + std::to_string(i) + ".xml"), 1) << i;
  }
  const auto stats = nlohmann::json::parse(run({"stats", "--json"}).out);
  EXPECT_EQ(stats["shows"], k_feeds);
}

} // namespace
} // namespace podcrawl

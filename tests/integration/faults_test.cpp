// Misbehaving hosts, through the podcrawl binary against a loopback HTTP server and a throwaway
// PostgreSQL database: servers that stall, cut off, inflate, loop or mislabel are all crawled in
// one run, which ends in bounded time and memory with every outcome recorded on its feed.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>

#include "podcrawl/core/time.hpp"
#include "support/loopback_server.hpp"
#include "support/process.hpp"
#include "support/temp_database.hpp"
#include "support/temp_dir.hpp"

namespace podcrawl {
namespace {

using namespace std::chrono_literals;

// Small bounds, so every misbehaviour is cut short within seconds.
constexpr const char* k_config =
    "[fetch]\n"
    "total_timeout_seconds = 3\n"
    "low_speed_bytes_per_second = 1000\n"
    "low_speed_seconds = 1\n"
    "max_body_bytes = 200000\n";
constexpr std::int64_t k_max_body_bytes = 200000;
// The whole crawl, well above the bounds above and far below a hang.
constexpr auto k_max_crawl_time = 20s;
// Peak resident memory of the crawler: an unbounded body would blow far past it.
constexpr long k_max_crawl_kilobytes = 128 * 1024;
constexpr std::int64_t k_retry_after_seconds = 7200;

std::string feed_with_items(const std::string& title, int items, const std::string& padding = "") {
  std::string feed =
      "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>" + title + padding + "</title>";
  for (int i = 0; i < items; ++i) {
    const std::string n = std::to_string(i);
    feed += "<item><title>Episode " + n + "</title><guid>episode-" + n +
            "</guid><enclosure url=\"https://media.example/" + n +
            ".mp3\" type=\"audio/mpeg\" length=\"1\"/></item>";
  }
  return feed + "</channel></rss>";
}

// Lets streaming handlers pause between writes, and stops them all at once when the test ends so
// the server can shut down whatever its clients do.
class Valve {
public:
  // Waits up to period; false once the valve is closed.
  bool wait(std::chrono::milliseconds period) {
    std::unique_lock lock(m_mutex);
    return !m_changed.wait_for(lock, period, [this] { return m_closed; });
  }
  bool is_open() {
    std::lock_guard lock(m_mutex);
    return !m_closed;
  }
  void close() {
    std::lock_guard lock(m_mutex);
    m_closed = true;
    m_changed.notify_all();
  }

private:
  std::mutex m_mutex;
  std::condition_variable m_changed;
  bool m_closed = false;
};

// What the crawl must have recorded on one feed. One failure of any of these kinds weighs less
// than the default failing score, so every feed is still active after one crawl: its failure
// score says what went wrong, by the weight of its kind.
struct Expected {
  std::string path;
  int failure_score;              // 0: fetched and stored
  std::optional<int> last_status; // nullopt: no HTTP status (the transfer itself failed)
  std::string error;              // a fragment of last_error; empty: no error
};

class Faults : public testing::DatabaseTest {
protected:
  ~Faults() override { m_valve.close(); }

  testing::ProcessResult run(std::vector<std::string> arguments) {
    arguments.insert(arguments.begin(), {testing::podcrawl_binary(), "--database-url",
                                         database_url(), "--allow-private-networks"});
    return testing::run_process(arguments);
  }
  std::map<std::string, nlohmann::json> feeds_by_url() {
    std::map<std::string, nlohmann::json> feeds;
    for (const auto& entry : nlohmann::json::parse(run({"list", "--json"}).out)) {
      feeds[entry["url"].get<std::string>()] = entry;
    }
    return feeds;
  }

  void serve_misbehaviours() {
    m_server.on_get("/drip.xml", [this](const testing::Request&, testing::Response& response) {
      response.set_stream("application/rss+xml", std::nullopt,
                          [this](std::uint64_t produced) -> std::optional<std::string> {
                            // 10 bytes every 100 ms: a tenth of the low-speed limit.
                            if (produced > 0 && !m_valve.wait(100ms)) {
                              return std::nullopt;
                            }
                            return std::string(10, ' ');
                          });
    });
    m_server.on_get("/reset.xml", [this](const testing::Request&, testing::Response& response) {
      response.set_stream("application/rss+xml", m_feed.size(),
                          [this](std::uint64_t produced) -> std::optional<std::string> {
                            // Half the promised body, then the connection ends.
                            if (produced > 0) {
                              return std::nullopt;
                            }
                            return m_feed.substr(0, m_feed.size() / 2);
                          });
    });
    m_server.on_get("/bomb.xml", [this](const testing::Request&, testing::Response& response) {
      response.set_header("Content-Encoding", "gzip");
      response.set_content(m_bomb, "application/rss+xml");
    });
    m_server.on_get(
        "/truncated-gzip.xml", [this](const testing::Request&, testing::Response& response) {
          const std::string compressed = testing::gzip(m_feed);
          response.set_header("Content-Encoding", "gzip");
          response.set_content(compressed.substr(0, compressed.size() / 2), "application/rss+xml");
        });
    m_server.on_get("/endless.xml", [this](const testing::Request&, testing::Response& response) {
      response.set_stream("application/rss+xml", std::nullopt,
                          [this](std::uint64_t) -> std::optional<std::string> {
                            if (!m_valve.is_open()) {
                              return std::nullopt;
                            }
                            return std::string(16384, ' ');
                          });
    });
    m_server.on_get("/loop-a.xml", [this](const testing::Request&, testing::Response& response) {
      response.set_redirect(m_server.url("/loop-b.xml"), 302);
    });
    m_server.on_get("/loop-b.xml", [this](const testing::Request&, testing::Response& response) {
      response.set_redirect(m_server.url("/loop-a.xml"), 302);
    });
    m_server.serve_feed("/image.xml", feed_with_items("Served as an image", 1), "image/png",
                        "\"i\"");
    m_server.on_get("/page.xml", [](const testing::Request&, testing::Response& response) {
      response.set_content(
          "<!DOCTYPE html><html><head><title>Welcome</title></head>"
          "<body><p>This is a web page.</p></body></html>",
          "text/html");
    });
    m_busy_server.on_get("/busy.xml", [](const testing::Request&, testing::Response& response) {
      response.status = 429;
      response.set_header("Retry-After", std::to_string(k_retry_after_seconds));
    });
    m_server.on_get("/broken.xml", [](const testing::Request&, testing::Response& response) {
      response.status = 500;
    });
    m_server.serve_feed("/healthy.xml", feed_with_items("Healthy", 3), "application/rss+xml",
                        "\"h\"");
  }

  testing::TempDir m_dir;
  const std::string m_feed = feed_with_items("Long enough to cut", 200);
  const std::string m_bomb =
      testing::gzip(feed_with_items("Bomb", 1, std::string(5 * k_max_body_bytes, 'x')));
  Valve m_valve; // closed by the destructor, before the server stops
  testing::LoopbackServer m_server;
  // A host of its own: its long Retry-After pauses it, and only it, for the rest of the crawl.
  testing::LoopbackServer m_busy_server;

  std::string url(const std::string& path) const {
    return path == "/busy.xml" ? m_busy_server.url(path) : m_server.url(path);
  }
};

TEST_F(Faults, EveryMisbehavingHostIsRecordedAndTheCrawlEndsInBoundedTimeAndMemory) {
  ASSERT_LT(m_bomb.size(), 10000u);
  serve_misbehaviours();
  const std::vector<Expected> expected = {
      {"/drip.xml", 1, std::nullopt, "Timeout"},
      {"/reset.xml", 1, std::nullopt, "partial"},
      {"/bomb.xml", 2, std::nullopt, "larger than 200000"},
      // Regression: stored as fetched with 86 of its 200 episodes, libcurl's decoder having
      // accepted the gzip stream that stopped halfway.
      {"/truncated-gzip.xml", 1, std::nullopt, "truncated gzip body"},
      {"/endless.xml", 2, std::nullopt, "larger than 200000"},
      {"/loop-a.xml", 2, std::nullopt, "redirects"},
      {"/image.xml", 0, 200, ""},
      {"/page.xml", 2, 200, "not rss"},
      {"/busy.xml", 1, 429, "HTTP 429"},
      {"/broken.xml", 1, 500, "HTTP 500"},
      {"/healthy.xml", 0, 200, ""},
  };
  std::vector<std::string> add = {"add", "--no-discover"};
  for (const auto& feed : expected) {
    add.push_back(url(feed.path));
  }
  ASSERT_EQ(run(add).status, 0);
  const auto config = m_dir.path() / "faults.toml";
  testing::write_file(config, k_config);

  const auto started = std::chrono::steady_clock::now();
  const auto crawled = run({"--config", config.string(), "crawl"});
  const auto elapsed = std::chrono::steady_clock::now() - started;
  const auto milliseconds = std::chrono::duration_cast<std::chrono::milliseconds>(elapsed);
  RecordProperty("crawl_milliseconds", static_cast<int>(milliseconds.count()));
  EXPECT_EQ(crawled.status, 0) << crawled.out;
  EXPECT_LT(elapsed, k_max_crawl_time) << milliseconds.count() << " ms";
  EXPECT_NE(crawled.out.find("9 failed"), std::string::npos) << crawled.out;
  // The crawler's own peak, read when it was reaped: not that of earlier tests' children.
  ASSERT_GT(crawled.peak_kilobytes, 0);
  RecordProperty("peak_crawl_kilobytes", static_cast<int>(crawled.peak_kilobytes));
#ifndef PODCRAWL_SANITIZED
  EXPECT_LT(crawled.peak_kilobytes, k_max_crawl_kilobytes);
#endif

  const auto feeds = feeds_by_url();
  for (const auto& want : expected) {
    SCOPED_TRACE(want.path);
    const auto found = feeds.find(url(want.path));
    ASSERT_NE(found, feeds.end());
    const auto& entry = found->second;
    EXPECT_EQ(entry["status"], "active");
    EXPECT_EQ(entry["failure_score"], want.failure_score);
    EXPECT_FALSE(entry["last_fetch_at"].is_null());
    if (want.last_status) {
      EXPECT_EQ(entry["last_status"], *want.last_status);
    } else {
      EXPECT_TRUE(entry["last_status"].is_null());
    }
    if (want.failure_score == 0) {
      EXPECT_TRUE(entry["last_error"].is_null());
      EXPECT_FALSE(entry["show_slug"].is_null());
    } else {
      ASSERT_TRUE(entry["last_error"].is_string());
      EXPECT_NE(entry["last_error"].get<std::string>().find(want.error), std::string::npos)
          << entry["last_error"];
      EXPECT_EQ(entry["failures"], 1);
    }
  }
  const auto& busy = feeds.at(url("/busy.xml"));
  EXPECT_GE(*core::parse_iso8601(busy["next_fetch_at"].get<std::string>()) -
                *core::parse_iso8601(busy["last_fetch_at"].get<std::string>()),
            k_retry_after_seconds);
}

} // namespace
} // namespace podcrawl

// The crawl history and the health report, through the podcrawl binary: crawls of feeds that
// succeed and fail in every way on a loopback server, a real PostgreSQL behind them.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <regex>
#include <string>

#include "podcrawl/core/time.hpp"
#include "podcrawl/store/crawl_history.hpp"
#include "podcrawl/store/database.hpp"
#include "support/loopback_server.hpp"
#include "support/process.hpp"
#include "support/temp_database.hpp"
#include "support/temp_dir.hpp"

namespace podcrawl {
namespace {

namespace fs = std::filesystem;
using model::FetchKind;

std::string feed(const std::string& title, int episodes) {
  std::string items;
  for (int i = 0; i < episodes; ++i) {
    items += "<item><title>Episode " + std::to_string(i) + "</title><guid>" + title +
             std::to_string(i) +
             "</guid><enclosure url=\"https://media.example/e.mp3\" type=\"audio/mpeg\" "
             "length=\"1\"/></item>";
  }
  return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>" + title + "</title>" +
         items + "</channel></rss>";
}

class CrawlReport : public testing::DatabaseTest {
protected:
  void SetUp() override {
    DatabaseTest::SetUp();
    if (IsSkipped()) {
      return;
    }
    m_server.serve_feed("/ok.xml", feed("Fine", 3), "application/rss+xml", "\"v1\"");
    m_server.on_get("/missing.xml", [](const testing::Request&, testing::Response& response) {
      response.status = 404;
    });
    m_server.on_get("/broken.xml", [](const testing::Request&, testing::Response& response) {
      response.status = 500;
    });
    m_server.on_get("/page.xml", [](const testing::Request&, testing::Response& response) {
      response.set_content("<html><body>not a feed</body></html>", "text/html");
    });
    m_server.on_get("/gone.xml", [](const testing::Request&, testing::Response& response) {
      response.status = 410;
    });
    for (const char* path : {"/ok.xml", "/missing.xml", "/broken.xml", "/page.xml", "/gone.xml"}) {
      m_urls.push_back(m_server.url(path));
    }
    std::vector<std::string> add = {"add", "--no-discover"};
    add.insert(add.end(), m_urls.begin(), m_urls.end());
    const auto added = run(add);
    ASSERT_EQ(added.status, 0) << added.err;
  }

  testing::ProcessResult run(std::vector<std::string> arguments) {
    arguments.insert(arguments.begin(), {testing::podcrawl_binary(), "--database-url",
                                         database_url(), "--allow-private-networks"});
    return testing::run_process(arguments);
  }

  std::string report(const std::string& locale) {
    const fs::path out = m_dir.path() / ("report-" + locale + ".html");
    const auto written = run({"report", "--out", out.string(), "--locale", locale});
    EXPECT_EQ(written.status, 0) << written.err;
    return testing::read_file(out);
  }

  static std::int64_t data_value(const std::string& page, const std::string& id) {
    const std::regex pattern("<data id=\"" + id + "\" value=\"(-?[0-9]+)\">");
    std::smatch match;
    EXPECT_TRUE(std::regex_search(page, match, pattern)) << id;
    return match.empty() ? -1 : std::stoll(match[1].str());
  }

  testing::LoopbackServer m_server;
  std::vector<std::string> m_urls;
  testing::TempDir m_dir;
};

TEST_F(CrawlReport, EachCrawlWritesItsRunAndItsHourByKindOfOutcome) {
  ASSERT_EQ(run({"crawl"}).status, 0);
  store::Database database(database_url());
  model::CrawlReport first = store::CrawlHistory(database).crawl_report(core::now(), 1);
  EXPECT_EQ(first.runs, 1);
  EXPECT_EQ(first.total[FetchKind::ok], 1);
  EXPECT_EQ(first.total[FetchKind::client_error], 1);
  EXPECT_EQ(first.total[FetchKind::server_error], 1);
  EXPECT_EQ(first.total[FetchKind::not_a_feed], 1);
  EXPECT_EQ(first.total[FetchKind::gone], 1);
  EXPECT_EQ(first.total.requests(), 5);
  EXPECT_EQ(first.total.new_episodes, 3);
  EXPECT_GT(first.total.bytes, 0);
  EXPECT_TRUE(first.median_seconds);
  // Every feed is on one host, the loopback server, with its port.
  ASSERT_EQ(first.hosts.size(), 1u);
  EXPECT_EQ(first.hosts[0].host, "127.0.0.1:" + std::to_string(m_server.port()));
  EXPECT_EQ(first.hosts[0].figures.failures(), 4);

  // Again, every feed whatever its backoff: the good one answers 304, the gone one is not asked.
  ASSERT_EQ(run({"crawl", "--all"}).status, 0);
  const model::CrawlReport second = store::CrawlHistory(database).crawl_report(core::now(), 1);
  EXPECT_EQ(second.runs, 2);
  EXPECT_EQ(second.total[FetchKind::ok], 1);
  EXPECT_EQ(second.total[FetchKind::not_modified], 1);
  EXPECT_EQ(second.total[FetchKind::client_error], 2);
  EXPECT_EQ(second.total[FetchKind::server_error], 2);
  EXPECT_EQ(second.total[FetchKind::gone], 1);
  EXPECT_EQ(second.total.requests(), 9);
  EXPECT_EQ(second.hosts[0].figures.requests(), 9);
}

TEST_F(CrawlReport, ThePagesFiguresAreThoseOfStats) {
  ASSERT_EQ(run({"crawl"}).status, 0);
  // The 404 feed's second failure makes it failing (each weighs 3; failing from 4).
  ASSERT_EQ(run({"crawl", "--all"}).status, 0);
  const auto stats = nlohmann::json::parse(run({"stats", "--json"}).out);
  for (const std::string locale : {"en", "ar"}) {
    SCOPED_TRACE(locale);
    const std::string page = report(locale);
    EXPECT_EQ(data_value(page, "feeds-total"), stats["feeds"]["total"]);
    EXPECT_EQ(data_value(page, "feeds-active"), stats["feeds"]["active"]);
    EXPECT_EQ(data_value(page, "feeds-failing"), stats["feeds"]["failing"]);
    EXPECT_EQ(data_value(page, "feeds-gone"), stats["feeds"]["gone"]);
    EXPECT_EQ(data_value(page, "feeds-removed"), stats["feeds"]["removed"]);
    EXPECT_EQ(data_value(page, "shows"), stats["shows"]);
    EXPECT_EQ(data_value(page, "episodes"), stats["episodes"]);
    EXPECT_EQ(data_value(page, "last-fetched"), stats["last_crawl"]["fetched"]);
    EXPECT_EQ(data_value(page, "last-not-modified"), stats["last_crawl"]["not_modified"]);
    EXPECT_EQ(data_value(page, "last-failed"), stats["last_crawl"]["failed"]);
    EXPECT_EQ(data_value(page, "last-new-episodes"), stats["last_crawl"]["new_episodes"]);
  }
  EXPECT_GE(stats["feeds"]["failing"].get<int>(), 1);
  EXPECT_EQ(stats["feeds"]["gone"], 1);
  // The failing feeds are listed with their error.
  const std::string page = report("en");
  EXPECT_NE(page.find(m_server.url("/missing.xml")), std::string::npos);
  EXPECT_NE(page.find("404"), std::string::npos);
}

TEST_F(CrawlReport, BadOptionsAreUsageErrors) {
  EXPECT_EQ(run({"report", "--out", (m_dir.path() / "r.html").string(), "--locale", "xx"}).status,
            2);
  EXPECT_EQ(run({"report", "--out", (m_dir.path() / "r.html").string(), "--days", "0"}).status, 2);
  EXPECT_EQ(run({"report"}).status, 2);
  EXPECT_FALSE(fs::exists(m_dir.path() / "r.html"));
}

TEST_F(CrawlReport, TheCrawlPrunesHistoryOlderThanItsDays) {
  ASSERT_EQ(run({"crawl"}).status, 0);
  {
    // An hour of long ago, as an old crawl would have left it.
    store::Database database(database_url());
    const std::int64_t old = core::now() - 100 * 86400;
    const std::int64_t old_run = store::CrawlHistory(database).begin_crawl_run(old);
    store::HistoryDelta delta;
    model::CrawlFigures figures;
    figures.add(FetchKind::ok, 0.1, 100);
    delta.hours[old - old % 3600] = figures;
    delta.host_hours[{old - old % 3600, "old.example"}] = figures;
    store::CrawlHistory(database).add_history(old_run, figures, delta);
    model::CrawlRunStats finished;
    finished.finished_at = old + 60;
    store::CrawlHistory(database).finish_crawl_run(old_run, finished);
    EXPECT_EQ(store::CrawlHistory(database).crawl_report(core::now(), 120).total[FetchKind::ok], 2);
  }
  ASSERT_EQ(run({"crawl", "--all"}).status, 0);
  store::Database database(database_url());
  const model::CrawlReport report = store::CrawlHistory(database).crawl_report(core::now(), 120);
  EXPECT_EQ(report.total[FetchKind::ok], 1); // today's first crawl; the old hour is gone
  EXPECT_EQ(report.runs, 2);
  for (const auto& host : report.hosts) {
    EXPECT_NE(host.host, "old.example");
  }
}

} // namespace
} // namespace podcrawl

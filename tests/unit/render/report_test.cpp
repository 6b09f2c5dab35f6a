// The crawl health report: its charts against golden SVG files, and the page from a fixed model
// in English and Arabic.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "podcrawl/core/config.hpp"
#include "podcrawl/render/report.hpp"
#include "support/temp_dir.hpp"

namespace podcrawl::render {
namespace {

namespace fs = std::filesystem;
using model::FetchKind;

const fs::path k_source_dir = podcrawl::core::source_dir();
const fs::path k_golden_dir = k_source_dir / "tests" / "unit" / "render" / "golden";
const fs::path k_locales_dir = k_source_dir / "config" / "locales";

// 2026-12-06 12:00:00 UTC.
constexpr std::int64_t k_now = 1'796'558'400;
constexpr std::int64_t k_day = 86400;

std::size_t count_of(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

// Compares with tests/unit/render/golden/<name>; PODCRAWL_UPDATE_GOLDEN=1 rewrites the file.
void expect_golden(const std::string& name, const std::string& rendered) {
  const fs::path golden = k_golden_dir / name;
  if (std::getenv("PODCRAWL_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(golden, std::ios::binary) << rendered;
    return;
  }
  ASSERT_TRUE(fs::exists(golden)) << "missing " << golden << ": run with PODCRAWL_UPDATE_GOLDEN=1";
  std::ifstream in(golden, std::ios::binary);
  const std::string expected((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  EXPECT_EQ(rendered, expected) << "differs from " << golden;
}

ColumnChart outcomes() {
  ColumnChart chart;
  chart.id = "outcomes";
  chart.title = "Fetch outcomes per day";
  chart.series = {{"Fetched", {120, 80, 0, 95, 130, 60, 110}},
                  {"Not modified", {900, 950, 0, 870, 1010, 990, 930}},
                  {"Failed", {15, 40, 0, 22, 18, 160, 25}}};
  chart.first_label = "Nov 30, 2026";
  chart.last_label = "Dec 6, 2026";
  return chart;
}

BarChart hosts(bool right_to_left) {
  BarChart chart;
  chart.id = "hosts";
  chart.title = right_to_left ? "أبطأ الخوادم" : "Slowest hosts";
  chart.labels = {"feeds.example.com", "a-very-long-host-name-of-a-podcast-publisher.example.org",
                  "رادیو.example"};
  chart.values = {2.5, 0.8, 0.05};
  chart.value_labels = {"2500 ms", "800 ms", "50 ms"};
  chart.isolate_labels = true;
  chart.right_to_left = right_to_left;
  return chart;
}

std::string plain_number(double value) {
  return std::to_string(static_cast<long long>(value));
}

TEST(ReportCharts, ColumnsMatchTheirGoldenFile) {
  expect_golden("report-outcomes.svg", column_chart_svg(outcomes(), plain_number));
}

TEST(ReportCharts, BarsMatchTheirGoldenFilesBothWays) {
  expect_golden("report-hosts-ltr.svg", bar_chart_svg(hosts(false)));
  expect_golden("report-hosts-rtl.svg", bar_chart_svg(hosts(true)));
}

TEST(ReportCharts, EachChartIsAnImageNamedByItsTitle) {
  const std::string svg = column_chart_svg(outcomes(), plain_number);
  EXPECT_EQ(svg.find("<svg "), 0u);
  EXPECT_NE(svg.find("role=\"img\" "), std::string::npos);
  EXPECT_NE(svg.find("aria-labelledby=\"outcomes-title\""), std::string::npos);
  // The title is the first child.
  EXPECT_EQ(svg.find('<', svg.find('>') + 1), svg.find("<title id=\"outcomes-title\">"));
  // One box per value above zero: 6 days of 3 series; the empty day draws none.
  EXPECT_EQ(count_of(svg, "<rect "), 18u);
  // The axis rounds up the highest stack (1210) to 2000, and halves it.
  EXPECT_NE(svg.find(">2000</text>"), std::string::npos);
  EXPECT_NE(svg.find(">1000</text>"), std::string::npos);
}

TEST(ReportCharts, RightToLeftMirrorsTheDrawing) {
  const std::string ltr = bar_chart_svg(hosts(false));
  const std::string rtl = bar_chart_svg(hosts(true));
  EXPECT_EQ(ltr.find("direction="), std::string::npos);
  EXPECT_NE(rtl.find("direction=\"rtl\""), std::string::npos);
  // The longest bar starts at the labels' edge: x = 220 left to right; mirrored, it ends at
  // 640 - 220 = 420 and starts at 420 - 330 = 90.
  EXPECT_NE(ltr.find("x=\"220\" y=\"8\" width=\"330\""), std::string::npos);
  EXPECT_NE(rtl.find("x=\"90\" y=\"8\" width=\"330\""), std::string::npos);
  // Host names keep their own direction and are cut when long.
  EXPECT_NE(rtl.find("\u2066feeds.example.com\u2069"), std::string::npos);
  EXPECT_NE(rtl.find("a-very-long-host-name-of-a-podcast\u2026"), std::string::npos);
}

TEST(ReportCharts, TextIsEscaped) {
  BarChart chart = hosts(false);
  chart.title = "<script>alert(1)</script>";
  chart.labels[0] = "a<b>&\"";
  const std::string svg = bar_chart_svg(chart);
  EXPECT_EQ(svg.find("<script"), std::string::npos);
  EXPECT_EQ(svg.find("<b>"), std::string::npos);
  EXPECT_NE(svg.find("a&lt;b&gt;&amp;"), std::string::npos);
}

model::CrawlReport model() {
  model::CrawlReport report;
  report.now = k_now;
  report.days = 3;
  report.since = k_now - k_now % k_day - 2 * k_day;
  report.stats.feeds_total = 1234;
  report.stats.feeds_active = 1200;
  report.stats.feeds_failing = 30;
  report.stats.feeds_gone = 3;
  report.stats.feeds_removed = 1;
  report.stats.shows = 1180;
  report.stats.episodes = 98765;
  model::CrawlRunStats run;
  run.started_at = k_now - 7200;
  run.finished_at = k_now - 7000;
  run.fetched = 250;
  run.not_modified = 950;
  run.failed = 34;
  run.new_episodes = 412;
  report.stats.last_crawl = run;
  report.runs = 12;
  report.overdue = 7;
  for (int d = 0; d < 3; ++d) {
    model::CrawlFigures figures;
    figures.outcomes[static_cast<std::size_t>(FetchKind::ok)] = 100 + d;
    figures.outcomes[static_cast<std::size_t>(FetchKind::not_modified)] = 900;
    figures.outcomes[static_cast<std::size_t>(FetchKind::server_error)] = 10 * d;
    figures.new_episodes = 50 * d;
    figures.latency[20] = 1000;
    report.by_day.emplace_back(report.since + d * k_day, figures);
    for (std::size_t i = 0; i < model::k_fetch_kinds; ++i) {
      report.total.outcomes[i] += figures.outcomes[i];
    }
    report.total.new_episodes += figures.new_episodes;
    report.total.latency[20] += figures.latency[20];
  }
  report.median_seconds = 0.3;
  report.slow_seconds = 0.9;
  model::HostFigures host{"feeds.example.com", report.total, 0.3, 0.9};
  report.hosts.push_back(host);
  report.failing_feeds.push_back({"https://bad.example/feed?a=1&b=<x>", 500,
                                  "HTTP 500 <script>alert(1)</script>", k_now - 3600,
                                  k_now - 3 * k_day});
  report.failing_feeds.push_back({"https://someone:secret@private.example/feed", std::nullopt,
                                  "unsupported Content-Encoding \"x\x01y\xc2\x85z\x7f\"",
                                  k_now - 60, std::nullopt});
  report.failing_total = 30;
  return report;
}

std::string data_value(const std::string& page, const std::string& id) {
  const std::regex pattern("<data id=\"" + id + "\" value=\"(-?[0-9]+)\">");
  std::smatch match;
  return std::regex_search(page, match, pattern) ? match[1].str() : std::string("missing");
}

TEST(ReportPage, IsOneSelfContainedPageWithItsFiguresChartsAndTables) {
  const l10n::Localizer english(k_locales_dir, "en");
  const std::string page = report_page(model(), english);
  EXPECT_EQ(page.find("<!DOCTYPE html>\n<html lang=\"en\" dir=\"ltr\">"), 0u);
  // Nothing loaded from elsewhere, nothing run.
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_EQ(page.find(" src="), std::string::npos);
  EXPECT_EQ(page.find("<link"), std::string::npos);
  EXPECT_NE(page.find("default-src 'none'"), std::string::npos);
  // Six charts, each with its title and its table behind a <details>.
  EXPECT_EQ(count_of(page, "<svg "), 6u);
  EXPECT_EQ(count_of(page, "<title id="), 6u);
  EXPECT_EQ(count_of(page, "<details>"), 6u);
  EXPECT_EQ(data_value(page, "feeds-total"), "1234");
  EXPECT_EQ(data_value(page, "feeds-failing"), "30");
  EXPECT_EQ(data_value(page, "last-fetched"), "250");
  EXPECT_EQ(data_value(page, "last-not-modified"), "950");
  EXPECT_EQ(data_value(page, "last-failed"), "34");
  EXPECT_EQ(data_value(page, "last-new-episodes"), "412");
  EXPECT_EQ(data_value(page, "period-requests"), "3033");
  EXPECT_EQ(data_value(page, "period-failures"), "30");
  EXPECT_NE(page.find(">1,234</data>"), std::string::npos); // the locale's grouping
  // The failing feed, escaped, with the time its failures began.
  EXPECT_NE(page.find("https://bad.example/feed?a=1&amp;b=&lt;x&gt;"), std::string::npos);
  EXPECT_NE(page.find("HTTP 500 &lt;script&gt;"), std::string::npos);
  EXPECT_NE(page.find(">3 days ago</time>"), std::string::npos);
  EXPECT_NE(page.find("And 28 more failing feeds."), std::string::npos);
  // A password in a feed's URL stays out of the page; forbidden control characters too.
  EXPECT_EQ(page.find("secret"), std::string::npos);
  EXPECT_NE(page.find("https://private.example/feed"), std::string::npos);
  EXPECT_NE(page.find("Content-Encoding \"x y z \""), std::string::npos);
  EXPECT_EQ(page.find('\x01'), std::string::npos);
  EXPECT_EQ(page.find("\xc2\x85"), std::string::npos);
  EXPECT_EQ(page.find('\x7f'), std::string::npos);
}

TEST(ReportPage, ArabicReadsRightToLeftInItsOwnWords) {
  const l10n::Localizer arabic(k_locales_dir, "ar");
  const std::string page = report_page(model(), arabic);
  EXPECT_EQ(page.find("<!DOCTYPE html>\n<html lang=\"ar\" dir=\"rtl\">"), 0u);
  EXPECT_EQ(count_of(page, "direction=\"rtl\""), 6u);
  EXPECT_NE(page.find(arabic.text("report.title")), std::string::npos);
  EXPECT_NE(page.find(arabic.text("report.failing_feeds")), std::string::npos);
  EXPECT_EQ(page.find("Crawl health"), std::string::npos);
  EXPECT_EQ(data_value(page, "feeds-total"), "1234");
  // The feed's URL keeps its own direction.
  EXPECT_NE(page.find("<td class=\"feed-url\" dir=\"ltr\">https://bad.example/"),
            std::string::npos);
}

TEST(ReportPage, ListsEachWebSubHubWithWhatItsPushSawFirst) {
  const l10n::Localizer english(k_locales_dir, "en");
  EXPECT_EQ(report_page(model(), english).find("websub-hubs"), std::string::npos); // none yet
  model::CrawlReport report = model();
  report.stats.websub_hubs.push_back({"https://hub.example/?a=1&b=2", 40, 2, 12, k_now - 3600});
  report.stats.websub_hubs.push_back({"https://user:secret@silent.example/", 0, 1500, 3, {}});
  const std::string page = report_page(report, english);
  EXPECT_NE(page.find("<h2 id=\"websub-hubs-heading\">WebSub hubs</h2>"), std::string::npos);
  EXPECT_NE(page.find("https://hub.example/?a=1&amp;b=2</td><td><data class=\"push\" "
                      "value=\"40\">40</data></td><td><data class=\"poll\" value=\"2\">2</data>"),
            std::string::npos);
  EXPECT_NE(page.find(">1 hour ago</time>"), std::string::npos);
  // A hub that never pushed: its poll count alone, and no time.
  EXPECT_NE(page.find("value=\"1500\">1,500</data></td><td>\u2014</td>"), std::string::npos);
  EXPECT_EQ(page.find("secret"), std::string::npos);
}

} // namespace
} // namespace podcrawl::render

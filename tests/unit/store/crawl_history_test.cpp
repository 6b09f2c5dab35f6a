#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include <pqxx/pqxx>

#include "podcrawl/store/crawl_history.hpp"
#include "podcrawl/store/fetch_outcomes.hpp"
#include "store_fixture.hpp"

namespace podcrawl::store {
namespace {

// 2025-06-15 12:26:40 UTC; its day starts at k_day.
constexpr std::int64_t k_now = 1'750'000'000;
constexpr std::int64_t k_day = k_now - k_now % 86400;
constexpr std::int64_t k_hour = k_now - k_now % 3600;

model::CrawlFigures figures(model::FetchKind kind, std::int64_t count, double seconds,
                            std::int64_t bytes = 0) {
  model::CrawlFigures out;
  for (std::int64_t i = 0; i < count; ++i) {
    out.add(kind, seconds, bytes);
  }
  return out;
}

TEST(LatencyBuckets, EachBucketIsAnEighthOfATenfold) {
  EXPECT_EQ(model::latency_bucket(0.0), 0u);
  EXPECT_EQ(model::latency_bucket(0.0009), 0u);
  EXPECT_EQ(model::latency_bucket(0.001), 1u);
  EXPECT_EQ(model::latency_bucket(0.010), 9u);
  EXPECT_EQ(model::latency_bucket(0.100), 17u);
  EXPECT_EQ(model::latency_bucket(1.0), 25u);
  EXPECT_EQ(model::latency_bucket(1e6), model::k_latency_buckets - 1);
  EXPECT_EQ(model::latency_bucket(std::nan("")), 0u);
}

TEST(LatencyBuckets, QuantilesFallInsideTheirBucket) {
  model::LatencyCounts counts{};
  EXPECT_FALSE(model::latency_quantile(counts, 0.5));
  counts[model::latency_bucket(0.020)] += 90; // 20 ms
  counts[model::latency_bucket(2.0)] += 10;   // 2 s
  const double median = *model::latency_quantile(counts, 0.5);
  EXPECT_GE(median, 0.0178); // the bucket [10^(10/8), 10^(11/8)) ms
  EXPECT_LT(median, 0.0238);
  const double slowest = *model::latency_quantile(counts, 0.99);
  EXPECT_GE(slowest, 1.78);
  EXPECT_LT(slowest, 2.38);
  EXPECT_LE(*model::latency_quantile(counts, 0.0), median);
}

TEST(CrawlFigures, CountKindsRequestsAndFailures) {
  model::CrawlFigures run = figures(model::FetchKind::ok, 3, 0.05, 100);
  run.add(figures(model::FetchKind::server_error, 2, 1.0, 10));
  run.add(model::FetchKind::deferred, 0, 0);
  EXPECT_EQ(run[model::FetchKind::ok], 3);
  EXPECT_EQ(run.requests(), 5);
  EXPECT_EQ(run.failures(), 2);
  EXPECT_EQ(run.bytes, 320);
  std::int64_t timed = 0;
  for (const auto count : run.latency) {
    timed += count;
  }
  EXPECT_EQ(timed, 5); // a deferred feed was never asked
  EXPECT_TRUE(model::is_failure(model::FetchKind::gone));
  EXPECT_FALSE(model::is_failure(model::FetchKind::not_modified));
  EXPECT_STREQ(column_name(model::FetchKind::not_a_feed), "not_a_feed");
}

using HistoryTest = StoreTest;

TEST_F(HistoryTest, WritesAddUpPerHourAndHostAndReplaceTheRunsRow) {
  const std::int64_t run = history().begin_crawl_run(k_now);
  HistoryDelta first;
  first.hours[k_hour] = figures(model::FetchKind::ok, 2, 0.05, 1000);
  first.host_hours[{k_hour, "a.example"}] = figures(model::FetchKind::ok, 2, 0.05, 1000);
  history().add_history(run, first.hours[k_hour], first);

  HistoryDelta second;
  second.hours[k_hour] = figures(model::FetchKind::client_error, 1, 0.2, 10);
  second.hours[k_hour + 3600] = figures(model::FetchKind::not_modified, 4, 0.01);
  second.host_hours[{k_hour, "a.example"}] = figures(model::FetchKind::client_error, 1, 0.2, 10);
  second.host_hours[{k_hour + 3600, "b.example"}] =
      figures(model::FetchKind::not_modified, 4, 0.01);
  model::CrawlFigures whole = first.hours[k_hour];
  whole.add(second.hours[k_hour]);
  whole.add(second.hours[k_hour + 3600]);
  history().add_history(run, whole, second);

  const auto stored = history().run_figures(run);
  ASSERT_TRUE(stored);
  EXPECT_EQ(stored->outcomes, whole.outcomes);
  EXPECT_EQ(stored->latency, whole.latency);
  EXPECT_EQ(stored->bytes, 2010);

  const model::CrawlReport report = history().crawl_report(k_now + 3600, 7);
  ASSERT_EQ(report.by_day.size(), 7u);
  EXPECT_EQ(report.by_day.back().first, k_day);
  EXPECT_EQ(report.by_day.back().second[model::FetchKind::ok], 2);
  EXPECT_EQ(report.by_day.back().second[model::FetchKind::client_error], 1);
  EXPECT_EQ(report.by_day.back().second[model::FetchKind::not_modified], 4);
  EXPECT_EQ(report.total.latency, whole.latency);
  EXPECT_EQ(report.runs, 1);
  ASSERT_EQ(report.hosts.size(), 2u);
  EXPECT_EQ(report.hosts[0].host, "b.example"); // the most requests first
  EXPECT_EQ(report.hosts[1].host, "a.example");
  EXPECT_EQ(report.hosts[1].figures[model::FetchKind::ok], 2);
  EXPECT_EQ(report.hosts[1].figures.failures(), 1);
  model::CrawlFigures host_a = figures(model::FetchKind::ok, 2, 0.05);
  host_a.add(figures(model::FetchKind::client_error, 1, 0.2));
  EXPECT_EQ(report.hosts[1].figures.latency, host_a.latency);
}

TEST_F(HistoryTest, PruningDeletesTheLogOfFetchesOlderThanTheCutoff) {
  const std::int64_t id = listed_feed("https://a.example/feed", k_now - 200 * 86400);
  const FetchFailure failure{.http_status = 500, .error = "HTTP 500", .weight = 1};
  for (const std::int64_t days_ago : {120, 100, 95, 10, 1}) {
    outcomes().record_failure(id, failure, k_now - days_ago * 86400, k_now);
  }
  const auto fetches = [&] {
    pqxx::connection connection(url());
    pqxx::nontransaction txn(connection);
    return txn.exec1("SELECT count(*) FROM fetches")[0].as<std::int64_t>();
  };
  ASSERT_EQ(fetches(), 5);
  EXPECT_EQ(history().prune_history(k_now - 90 * 86400), 3);
  EXPECT_EQ(fetches(), 2);
  EXPECT_EQ(history().prune_history(k_now - 90 * 86400), 0);
}

TEST_F(HistoryTest, PruningDeletesWhatIsOlderButKeepsTheNewestRun) {
  const std::int64_t old_time = k_now - 100 * 86400;
  const std::int64_t old_run = history().begin_crawl_run(old_time);
  HistoryDelta old_delta;
  old_delta.hours[old_time - old_time % 3600] = figures(model::FetchKind::ok, 1, 0.1);
  old_delta.host_hours[{old_time - old_time % 3600, "a.example"}] =
      figures(model::FetchKind::ok, 1, 0.1);
  history().add_history(old_run, figures(model::FetchKind::ok, 1, 0.1), old_delta);
  model::CrawlRunStats finished;
  finished.finished_at = old_time + 60;
  history().finish_crawl_run(old_run, finished);

  // Only the old run exists: it is the newest and stays, its hours go.
  EXPECT_EQ(history().prune_history(k_now - 90 * 86400), 2);
  EXPECT_TRUE(history().run_figures(old_run));

  const std::int64_t run = history().begin_crawl_run(k_now);
  HistoryDelta delta;
  delta.hours[k_hour] = figures(model::FetchKind::ok, 1, 0.1);
  history().add_history(run, figures(model::FetchKind::ok, 1, 0.1), delta);
  EXPECT_EQ(history().prune_history(k_now - 90 * 86400), 1);
  EXPECT_FALSE(history().run_figures(old_run));
  EXPECT_TRUE(history().run_figures(run));
  const model::CrawlReport report = history().crawl_report(k_now, 1);
  EXPECT_EQ(report.total[model::FetchKind::ok], 1);
  EXPECT_EQ(history().prune_history(k_now - 90 * 86400), 0);
}

TEST_F(HistoryTest, TheReportListsFailingFeedsWithTheirFirstFailureSinceTheirLastSuccess) {
  const std::int64_t id = listed_feed("https://a.example/feed", k_now - 10000);
  FetchMeta meta;
  outcomes().record_success(id, meta, show("A"), k_now - 9000, k_now - 8000);
  const FetchFailure failure{.http_status = 500, .error = "HTTP 500", .weight = 2};
  outcomes().record_failure(id, failure, k_now - 7000, k_now - 6000);
  outcomes().record_failure(id, failure, k_now - 5000, k_now - 4000);
  listed_feed("https://b.example/feed", k_now - 10000); // never fetched: overdue

  const model::CrawlReport report = history().crawl_report(k_now, 30);
  ASSERT_EQ(report.failing_feeds.size(), 1u);
  EXPECT_EQ(report.failing_total, 1);
  const model::FailingFeed& failing = report.failing_feeds[0];
  EXPECT_EQ(failing.url, "https://a.example/feed");
  EXPECT_EQ(failing.last_status, 500);
  EXPECT_EQ(failing.last_error, "HTTP 500");
  EXPECT_EQ(failing.failing_since, k_now - 7000);
  EXPECT_EQ(failing.last_fetch_at, k_now - 5000);
  EXPECT_EQ(report.overdue, 2); // a: due at k_now - 4000; b: never fetched
  EXPECT_EQ(report.stats.feeds_failing, 1);
  EXPECT_EQ(report.stats.feeds_total, 2);
  EXPECT_EQ(report.since, k_day - 29 * 86400);
}

} // namespace
} // namespace podcrawl::store

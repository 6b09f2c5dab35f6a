#include <gtest/gtest.h>

#include "podcrawl/crawl/crawler.hpp"

namespace podcrawl::crawl {
namespace {

core::CrawlConfig config_with(std::int64_t base, std::int64_t ceiling) {
  core::CrawlConfig config;
  config.backoff_base_seconds = base;
  config.backoff_ceiling_seconds = ceiling;
  return config;
}

TEST(Backoff, DoublesWithEachPointOfTheFailureScore) {
  const auto config = config_with(100, 1'000'000);
  // With jitter 0 the wait is three quarters of base * 2^(score-1).
  const struct {
    int score;
    std::int64_t expected;
  } cases[] = {{1, 75}, {2, 150}, {3, 300}, {4, 600}, {10, 38400}};
  for (const auto& c : cases) {
    EXPECT_EQ(backoff_seconds(c.score, config, 0.0), c.expected) << c.score;
  }
}

TEST(Backoff, NeverExceedsTheCeiling) {
  const auto config = config_with(100, 5000);
  for (int score = 1; score < 200; ++score) {
    for (double jitter : {0.0, 0.5, 0.999999, 1.0}) {
      EXPECT_LE(backoff_seconds(score, config, jitter), 5000);
    }
  }
  EXPECT_GE(backoff_seconds(100, config, 0.0), 3750);
  EXPECT_LE(backoff_seconds(2'147'483'647, core::CrawlConfig{}, 1.0), 7 * 86400);
}

TEST(Backoff, JitterSpreadsFeedsThatFailTogether) {
  const auto config = config_with(1000, 1'000'000);
  EXPECT_LT(backoff_seconds(3, config, 0.0), backoff_seconds(3, config, 0.9));
  EXPECT_EQ(backoff_seconds(3, config, 0.9) - backoff_seconds(3, config, 0.0), 900);
}

TEST(FailureWeight, WeighsEachKindOfFailureByTheTable) {
  using fetch::FetchOutcome;
  const struct {
    FetchOutcome outcome;
    int http_status;
    int weight;
    const char* what;
  } cases[] = {
      // What usually passes by itself.
      {FetchOutcome::network_error, 0, 1, "timeout, refused connection, reset, truncated body"},
      {FetchOutcome::http_error, 500, 1, "500"},
      {FetchOutcome::http_error, 502, 1, "502"},
      {FetchOutcome::http_error, 503, 1, "503"},
      {FetchOutcome::http_error, 599, 1, "599"},
      {FetchOutcome::http_error, 429, 1, "429"},
      {FetchOutcome::http_error, 408, 1, "408"},
      // What the publisher has to fix.
      {FetchOutcome::ok, 200, 2, "a 200 that is not a feed or is malformed"},
      {FetchOutcome::too_large, 200, 2, "body over the cap"},
      {FetchOutcome::too_large, 0, 2, "headers over the cap"},
      {FetchOutcome::http_error, 0, 2, "too many redirects, unsupported Content-Encoding"},
      {FetchOutcome::http_error, 400, 2, "400"},
      {FetchOutcome::http_error, 405, 2, "405"},
      {FetchOutcome::http_error, 451, 2, "451"},
      {FetchOutcome::http_error, 300, 2, "a 3xx without Location"},
      {FetchOutcome::http_error, 600, 2, "a status outside HTTP's"},
      // A URL that is wrong or closed to podcrawl.
      {FetchOutcome::http_error, 404, 3, "404"},
      {FetchOutcome::http_error, 401, 3, "401"},
      {FetchOutcome::http_error, 403, 3, "403"},
      {FetchOutcome::refused, 0, 3, "a non-public address"},
      {FetchOutcome::gone, 410, 3, "410"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(failure_weight(c.outcome, c.http_status), c.weight) << c.what;
  }
}

TEST(FailureWeight, EveryOutcomeAndStatusWeighsBetweenOneAndThree) {
  for (const auto outcome :
       {fetch::FetchOutcome::ok, fetch::FetchOutcome::not_modified, fetch::FetchOutcome::gone,
        fetch::FetchOutcome::http_error, fetch::FetchOutcome::refused,
        fetch::FetchOutcome::too_large, fetch::FetchOutcome::network_error}) {
    for (const int status : {-1, 0, 200, 304, 404, 503, 1000}) {
      const int weight = failure_weight(outcome, status);
      EXPECT_GE(weight, 1) << fetch::to_string(outcome) << ' ' << status;
      EXPECT_LE(weight, 3) << fetch::to_string(outcome) << ' ' << status;
    }
  }
}

} // namespace
} // namespace podcrawl::crawl

namespace podcrawl::crawl {
namespace {

feed::Show show_published_at(const std::vector<std::int64_t>& dates) {
  feed::Show show;
  for (const auto date : dates) {
    feed::Episode episode;
    episode.published = date;
    show.episodes.push_back(episode);
  }
  return show;
}

TEST(RefreshSeconds, FollowsTheMedianGapBetweenRecentEpisodes) {
  const core::CrawlConfig config;
  const std::int64_t day = 86400;
  // Daily, with one week-long gap: the median ignores the outlier.
  EXPECT_EQ(refresh_seconds(show_published_at({10 * day, 9 * day, 8 * day, day}), config), day);
  // Every six hours, in any document order.
  EXPECT_EQ(refresh_seconds(show_published_at({0, 3 * 21600, 21600, 2 * 21600}), config), 21600);
}

TEST(RefreshSeconds, ClampsToTheConfiguredWindow) {
  const core::CrawlConfig config;
  EXPECT_EQ(refresh_seconds(show_published_at({0, 60, 120, 180}), config),
            config.min_refresh_seconds);
  EXPECT_EQ(refresh_seconds(show_published_at({0, 30 * 86400, 60 * 86400}), config),
            config.max_refresh_seconds);
}

TEST(RefreshSeconds, UsesTheDefaultIntervalWithoutACadence) {
  const core::CrawlConfig config;
  EXPECT_EQ(refresh_seconds(feed::Show{}, config), config.refresh_interval_seconds);
  EXPECT_EQ(refresh_seconds(show_published_at({5000}), config), config.refresh_interval_seconds);
  EXPECT_EQ(refresh_seconds(show_published_at({5000, 5000}), config),
            config.refresh_interval_seconds);
  feed::Show undated = show_published_at({});
  undated.episodes.resize(5);
  EXPECT_EQ(refresh_seconds(undated, config), config.refresh_interval_seconds);
}

} // namespace
} // namespace podcrawl::crawl

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

TEST(Backoff, DoublesWithEachFailure) {
  const auto config = config_with(100, 1'000'000);
  // With jitter 0 the wait is three quarters of base * 2^(failures-1).
  const struct {
    int failures;
    std::int64_t expected;
  } cases[] = {{1, 75}, {2, 150}, {3, 300}, {4, 600}, {10, 38400}};
  for (const auto& c : cases) {
    EXPECT_EQ(backoff_seconds(c.failures, config, 0.0), c.expected) << c.failures;
  }
}

TEST(Backoff, NeverExceedsTheCeiling) {
  const auto config = config_with(100, 5000);
  for (int failures = 1; failures < 200; ++failures) {
    for (double jitter : {0.0, 0.5, 0.999999, 1.0}) {
      EXPECT_LE(backoff_seconds(failures, config, jitter), 5000);
    }
  }
  EXPECT_GE(backoff_seconds(100, config, 0.0), 3750);
}

TEST(Backoff, JitterSpreadsFeedsThatFailTogether) {
  const auto config = config_with(1000, 1'000'000);
  EXPECT_LT(backoff_seconds(3, config, 0.0), backoff_seconds(3, config, 0.9));
  EXPECT_EQ(backoff_seconds(3, config, 0.9) - backoff_seconds(3, config, 0.0), 900);
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

#include "podcrawl/fetch/pace.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace podcrawl::fetch {
namespace {

// Runs rounds of `allowed()` transfers started together and answered together, one round trip
// of `latency` seconds each, every answer `load`. Returns the clock after the last round.
double run_rounds(HostPace& pace, int rounds, Load load, double now, double latency = 0.1) {
  for (int round = 0; round < rounds; ++round) {
    std::vector<PaceTicket> tickets;
    const int allowed = pace.allowed();
    for (int in_flight = 0; in_flight < allowed && pace.may_start(in_flight, now); ++in_flight) {
      tickets.push_back(pace.on_start(in_flight, now));
    }
    now += latency;
    for (const PaceTicket& ticket : tickets) {
      pace.on_answer(ticket, load, now, std::nullopt);
    }
  }
  return now;
}

TEST(HostPace, DoublesEachRoundTripOfCleanAnswersUntilTheCeiling) {
  HostPace pace({1, 32, 0}, 4, /*learned=*/false);
  EXPECT_EQ(pace.allowed(), 4);
  run_rounds(pace, 1, Load::clean, 0);
  EXPECT_EQ(pace.allowed(), 8);
  run_rounds(pace, 1, Load::clean, 1);
  EXPECT_EQ(pace.allowed(), 16);
  run_rounds(pace, 5, Load::clean, 2);
  EXPECT_EQ(pace.allowed(), 32);
  EXPECT_EQ(pace.figures("h").peak, 32);
}

TEST(HostPace, ALearnedPaceGrowsByOnePerRoundTrip) {
  HostPace pace({1, 32, 0}, 10, /*learned=*/true);
  run_rounds(pace, 1, Load::clean, 0);
  EXPECT_NEAR(pace.pace(), 11, 0.1);
  run_rounds(pace, 3, Load::clean, 1);
  // A little under one per round trip: the window is the pace rounded down.
  EXPECT_GT(pace.pace(), 13.5);
  EXPECT_LT(pace.pace(), 14.0);
}

TEST(HostPace, GrowsOnlyWhenTheHostWasAskedForAllItMayTake) {
  HostPace pace({1, 32, 0}, 8, false);
  for (int i = 0; i < 50; ++i) {
    pace.on_answer(pace.on_start(0, i), Load::clean, i + 0.1, std::nullopt);
  }
  EXPECT_EQ(pace.allowed(), 8);
}

TEST(HostPace, AThrottledRoundTripCutsThePaceOnceAndPausesForRetryAfter) {
  HostPace pace({1, 32, 0}, 16, true);
  std::vector<PaceTicket> tickets;
  for (int in_flight = 0; in_flight < 16; ++in_flight) {
    tickets.push_back(pace.on_start(in_flight, 0));
  }
  // The last started is answered first: it was refused with all sixteen in flight.
  for (auto ticket = tickets.rbegin(); ticket != tickets.rend(); ++ticket) {
    pace.on_answer(*ticket, Load::throttled, 0.1, 5);
  }
  EXPECT_EQ(pace.allowed(), 11); // 16 x 0.7: one cut for the whole round trip, not sixteen
  EXPECT_DOUBLE_EQ(pace.paused_until(), 5.1);
  EXPECT_FALSE(pace.may_start(0, 5.0));
  EXPECT_TRUE(pace.may_start(0, 5.1));
  EXPECT_EQ(pace.figures("h").throttled, 16);
  // A throttled answer to a transfer started after the cut cuts again: by half, since the host
  // refused with one in hand.
  pace.on_answer(pace.on_start(0, 6), Load::throttled, 6.1, std::nullopt);
  EXPECT_EQ(pace.allowed(), 5);
  EXPECT_DOUBLE_EQ(pace.paused_until(), 7.1); // the short default pause
}

// Starts `count` transfers at `now`; the last of them, started with all of them in flight, is
// refused.
void refuse_the_last_of(HostPace& pace, int count, double now) {
  PaceTicket last;
  for (int in_flight = 0; in_flight < count; ++in_flight) {
    last = pace.on_start(in_flight, now);
  }
  pace.on_answer(last, Load::throttled, now + 0.1, 0);
}

TEST(HostPace, GrowsBackQuicklyToJustUnderTheLevelTheHostRefusedAt) {
  HostPace pace({1, 64, 0}, 20, true);
  refuse_the_last_of(pace, 20, 0);
  EXPECT_EQ(pace.allowed(), 14);
  // About four per round trip up to 19, where the host answered cleanly before.
  double now = run_rounds(pace, 1, Load::clean, 1);
  EXPECT_GT(pace.pace(), 17.5);
  EXPECT_LT(pace.pace(), 18.5);
  now = run_rounds(pace, 1, Load::clean, now);
  EXPECT_NEAR(pace.pace(), 19, 0.1);
  // Past it, an eighth of one per round trip.
  run_rounds(pace, 4, Load::clean, now);
  EXPECT_GT(pace.pace(), 19.4);
  EXPECT_LT(pace.pace(), 19.6);
}

TEST(HostPace, TakesTheLevelFromWhatTheHostHadInHandNotFromAPaceThatOvershot) {
  HostPace pace({1, 64, 0}, 30, false);
  refuse_the_last_of(pace, 25, 0);
  EXPECT_EQ(pace.allowed(), 17); // 25 x 0.7, not 30 x 0.7
  run_rounds(pace, 3, Load::clean, 1);
  EXPECT_NEAR(pace.pace(), 24, 0.3); // back to just under 25, not to 29
}

// Regression: a host with a fixed limit was probed past it every second or so, and each probe
// cost a Retry-After pause; the crawl of a big host took twice the time the host allows.
TEST(HostPace, ProbesMoreRarelyEachTimeTheHostRefusesAgain) {
  HostPace pace({1, 64, 0}, 20, true);
  refuse_the_last_of(pace, 20, 0);
  double now = run_rounds(pace, 2, Load::clean, 1);
  ASSERT_NEAR(pace.pace(), 19, 0.1);
  now = run_rounds(pace, 8, Load::clean, now);
  EXPECT_NEAR(pace.pace(), 20, 0.1); // one per eight round trips
  refuse_the_last_of(pace, 20, now);
  now = run_rounds(pace, 2, Load::clean, now + 1);
  ASSERT_NEAR(pace.pace(), 19, 0.1);
  now = run_rounds(pace, 8, Load::clean, now);
  EXPECT_NEAR(pace.pace(), 19.5, 0.1); // one per sixteen
  // A refusal at a lower level: the pace is cut to half and grows back to 11, and past it at a
  // quarter of the first speed.
  refuse_the_last_of(pace, 12, now);
  now = run_rounds(pace, 8, Load::clean, now + 1);
  EXPECT_GT(pace.pace(), 11);
  EXPECT_LT(pace.pace(), 11.3);
}

TEST(HostPace, TimeoutsCutThePaceWithoutPausingTheHost) {
  HostPace pace({1, 32, 0}, 8, true);
  run_rounds(pace, 1, Load::overloaded, 0);
  EXPECT_EQ(pace.allowed(), 4);
  EXPECT_LE(pace.paused_until(), 0.1);
  EXPECT_EQ(pace.figures("h").overloaded, 8);
}

TEST(HostPace, ASharpRiseInLatencyCutsThePace) {
  HostPace pace({1, 32, 0}, 20, true);
  double now = run_rounds(pace, 3, Load::clean, 0, 0.1);
  const int before = pace.allowed();
  now = run_rounds(pace, 4, Load::clean, now, 2.0);
  EXPECT_LT(pace.allowed(), before);
  // A host that answers a little slower but not sharply so is not cut.
  HostPace steady({1, 32, 0}, 20, true);
  now = run_rounds(steady, 3, Load::clean, 0, 0.1);
  run_rounds(steady, 4, Load::clean, now, 0.2);
  EXPECT_GE(steady.allowed(), 20);
}

TEST(HostPace, NeverLeavesItsBounds) {
  HostPace pace({3, 6, 0}, 4, false);
  run_rounds(pace, 20, Load::clean, 0);
  EXPECT_EQ(pace.allowed(), 6);
  for (int round = 0; round < 5; ++round) {
    pace.on_answer(pace.on_start(0, 100 + round), Load::throttled, 100.1 + round, 0);
  }
  EXPECT_EQ(pace.allowed(), 3);
  HostPace high({1, 6, 0}, 50, true);
  EXPECT_EQ(high.allowed(), 6);
}

TEST(HostPace, KeepsToItsRequestRate) {
  HostPace pace({1, 32, 2}, 32, true);
  EXPECT_TRUE(pace.may_start(0, 10));
  pace.on_start(0, 10);
  EXPECT_FALSE(pace.may_start(1, 10.4));
  EXPECT_TRUE(pace.may_start(1, 10.5));
}

TEST(Pacer, StartsHostsAtTheirLearnedPaceElsePerHost) {
  core::CrawlConfig crawl;
  crawl.per_host = 4;
  crawl.per_host_max = 32;
  Pacer pacer(crawl);
  pacer.learn({{"big.example", 24.5}, {"huge.example", 400}});
  EXPECT_EQ(pacer.host("big.example").allowed(), 24);
  EXPECT_EQ(pacer.host("huge.example").allowed(), 32);
  EXPECT_EQ(pacer.host("small.example").allowed(), 4);
}

TEST(Pacer, AppliesTheLongestMatchingHostRule) {
  core::CrawlConfig crawl;
  crawl.per_host = 4;
  crawl.per_host_max = 32;
  crawl.hosts = {{"example.com", 2, 8, std::nullopt}, {"feeds.example.com", std::nullopt, 64, 10}};
  const Pacer pacer(crawl);
  const PaceBounds parent = pacer.bounds_for("example.com");
  EXPECT_EQ(parent.floor, 2);
  EXPECT_EQ(parent.ceiling, 8);
  const PaceBounds sub = pacer.bounds_for("a.example.com:8080");
  EXPECT_EQ(sub.ceiling, 8);
  const PaceBounds feeds = pacer.bounds_for("feeds.example.com");
  EXPECT_EQ(feeds.ceiling, 64);
  EXPECT_EQ(feeds.requests_per_second, 10);
  const PaceBounds other = pacer.bounds_for("notexample.com");
  EXPECT_EQ(other.floor, 1);
  EXPECT_EQ(other.ceiling, 32);
}

TEST(HostKey, NamesThePortOnlyWhenItIsNotTheDefault) {
  const auto key = [](const char* text) { return host_key(*net::parse_url(text)); };
  EXPECT_EQ(key("https://Feeds.Example.com/a.xml"), "feeds.example.com");
  EXPECT_EQ(key("https://feeds.example.com:443/a.xml"), "feeds.example.com");
  EXPECT_EQ(key("http://127.0.0.1:8080/a.xml"), "127.0.0.1:8080");
  EXPECT_EQ(key("http://[::1]:8443/a.xml"), "[::1]:8443");
  EXPECT_EQ(key("http://[::1]/a.xml"), "[::1]");
}

} // namespace
} // namespace podcrawl::fetch

#include "podcrawl/fetch/pool.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

#include "fetch_test_helpers.hpp"
#include "podcrawl/fetch/pace.hpp"
#include "support/loopback_server.hpp"
#include "transfer_internal.hpp"

namespace podcrawl::fetch {
namespace {

std::map<std::uint64_t, FetchResult> run_all(TransferPool& pool) {
  std::map<std::uint64_t, FetchResult> results;
  while (pool.pending() > 0) {
    pool.perform([&](std::uint64_t tag, FetchResult result) { results[tag] = std::move(result); },
                 100);
  }
  return results;
}

TEST(TransferPool, DeliversEveryTransferWithItsTag) {
  testing::LoopbackServer server;
  server.on_get(R"(/feed/(\d+))", [](const testing::Request& request, testing::Response& response) {
    response.set_content("feed " + request.matches[1], "application/rss+xml");
  });
  TransferPool pool(loopback_config(), 8, 8);
  for (std::uint64_t i = 0; i < 40; ++i) {
    pool.add(i, request(server.url("/feed/" + std::to_string(i))));
  }
  pool.add(99, request("ftp://example.com/feed"));
  const auto results = run_all(pool);
  ASSERT_EQ(results.size(), 41u);
  for (std::uint64_t i = 0; i < 40; ++i) {
    ASSERT_EQ(results.at(i).outcome, FetchOutcome::ok) << results.at(i).error;
    EXPECT_EQ(results.at(i).body, "feed " + std::to_string(i));
  }
  EXPECT_EQ(results.at(99).outcome, FetchOutcome::refused);
}

TEST(TransferPool, NeverRunsMoreThanThePerHostCapAgainstOneHost) {
  testing::LoopbackServer server;
  std::mutex mutex;
  std::condition_variable changed;
  int active = 0;
  int most = 0;
  server.on_get("/slow", [&](const testing::Request&, testing::Response& response) {
    std::unique_lock lock(mutex);
    most = std::max(most, ++active);
    changed.notify_all();
    // Waits for a third concurrent request, which the cap must prevent; gives up after a while.
    changed.wait_for(lock, std::chrono::milliseconds(150), [&] { return active > 2; });
    --active;
    response.set_content("ok", "text/plain");
  });
  TransferPool pool(loopback_config(), 16, 2);
  for (std::uint64_t i = 0; i < 6; ++i) {
    pool.add(i, request(server.url("/slow")));
  }
  const auto results = run_all(pool);
  EXPECT_EQ(results.size(), 6u);
  EXPECT_EQ(most, 2);
}

TEST(TransferPool, StartsNothingOnceStoppedAndLetsTheRunningTransfersFinish) {
  testing::LoopbackServer server;
  std::mutex mutex;
  std::condition_variable changed;
  int started = 0;
  bool released = false;
  server.on_get("/slow", [&](const testing::Request&, testing::Response& response) {
    std::unique_lock lock(mutex);
    ++started;
    changed.notify_all();
    changed.wait_for(lock, std::chrono::seconds(10), [&] { return released; });
    response.set_content("ok", "text/plain");
  });
  TransferPool pool(loopback_config(), 8, 2); // two at once against the one host
  for (std::uint64_t i = 0; i < 6; ++i) {
    pool.add(i, request(server.url("/slow")));
  }
  std::map<std::uint64_t, FetchResult> results;
  const auto collect = [&](std::uint64_t tag, FetchResult result) {
    results[tag] = std::move(result);
  };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (pool.running() < 2 && std::chrono::steady_clock::now() < deadline) {
    pool.perform(collect, 10);
  }
  ASSERT_EQ(pool.running(), 2u);
  pool.stop_starting("stopping");
  pool.add(6, request(server.url("/slow"))); // added after: never asked either
  {
    std::lock_guard lock(mutex);
    released = true;
    changed.notify_all();
  }
  while (pool.pending() > 0) {
    pool.perform(collect, 100);
  }
  ASSERT_EQ(results.size(), 7u);
  int ok = 0;
  for (const auto& [tag, result] : results) {
    if (result.outcome == FetchOutcome::ok) {
      ++ok;
      continue;
    }
    EXPECT_EQ(result.outcome, FetchOutcome::deferred) << tag;
    EXPECT_EQ(result.retry_after_seconds, 0) << tag;
    EXPECT_EQ(result.error, "stopping") << tag;
  }
  EXPECT_EQ(ok, 2);
  std::lock_guard lock(mutex);
  EXPECT_EQ(started, 2); // the five waiting were never asked
}

TEST(TransferPool, HonorsRetryAfterOn429And503) {
  // Two hosts: the long pause the first asks for is its own.
  testing::LoopbackServer server;
  testing::LoopbackServer other;
  server.on_get("/busy", [](const testing::Request&, testing::Response& response) {
    response.status = 429;
    response.set_header("Retry-After", "120");
  });
  other.on_get("/down", [](const testing::Request&, testing::Response& response) {
    response.status = 503;
    response.set_header("Retry-After", "Wed, 21 Oct 2015 07:28:00 GMT");
  });
  TransferPool pool(loopback_config(), 4, 4);
  pool.add(1, request(server.url("/busy")));
  pool.add(2, request(other.url("/down")));
  const auto results = run_all(pool);
  EXPECT_EQ(results.at(1).http_status, 429);
  EXPECT_EQ(results.at(1).retry_after_seconds, std::optional<std::int64_t>(120));
  EXPECT_EQ(results.at(2).http_status, 503);
  EXPECT_EQ(results.at(2).retry_after_seconds, std::optional<std::int64_t>(0)); // in the past
}

// Counts the requests a loopback host answers at once; refuses with 429 (and `retry_after`)
// beyond `allows`, 0 for no limit. Each answer takes `latency`, the host's own time to answer.
class LimitedHost {
public:
  LimitedHost(int allows, std::chrono::milliseconds latency, std::string retry_after = "0")
      : m_server("127.0.0.1", 64) {
    m_server.on_get(R"(/feed/\d+)",
                    [=, this](const testing::Request&, testing::Response& response) {
                      {
                        std::lock_guard lock(m_mutex);
                        ++m_asked;
                        ++m_active;
                        m_most = std::max(m_most, m_active);
                        if (allows > 0 && m_active > allows) {
                          --m_active;
                          ++m_refused;
                          response.status = 429;
                          if (!retry_after.empty()) {
                            response.set_header("Retry-After", retry_after);
                          }
                          return;
                        }
                      }
                      std::this_thread::sleep_for(latency);
                      response.set_content("<rss/>", "application/rss+xml");
                      std::lock_guard lock(m_mutex);
                      --m_active;
                    });
  }

  std::string url(int n) const { return m_server.url("/feed/" + std::to_string(n)); }
  int most() const {
    std::lock_guard lock(m_mutex);
    return m_most;
  }
  int refused() const {
    std::lock_guard lock(m_mutex);
    return m_refused;
  }
  int asked() const {
    std::lock_guard lock(m_mutex);
    return m_asked;
  }

private:
  testing::LoopbackServer m_server;
  mutable std::mutex m_mutex;
  int m_active = 0;
  int m_most = 0;
  int m_refused = 0;
  int m_asked = 0;
};

core::CrawlConfig pace_config(int per_host, int per_host_max) {
  core::CrawlConfig crawl;
  crawl.per_host = per_host;
  crawl.per_host_max = per_host_max;
  return crawl;
}

TEST(TransferPool, APacedHostGrowsToWhatItAllowsAndIsCutWhenItRefuses) {
  LimitedHost host(12, std::chrono::milliseconds(20));
  const core::CrawlConfig crawl = pace_config(2, 32);
  Pacer pacer(crawl);
  TransferPool pool(loopback_config(), 64, pacer);
  constexpr int k_feeds = 400;
  for (int i = 0; i < k_feeds; ++i) {
    pool.add(static_cast<std::uint64_t>(i), request(host.url(i)));
  }
  const auto results = run_all(pool);
  ASSERT_EQ(results.size(), static_cast<std::size_t>(k_feeds));
  for (const auto& [tag, result] : results) {
    ASSERT_EQ(result.outcome, FetchOutcome::ok) << tag << ": " << result.error;
  }
  const auto figures = pacer.figures();
  ASSERT_EQ(figures.size(), 1u);
  EXPECT_GE(figures[0].peak, 8) << "the pace never grew past its start";
  EXPECT_LE(figures[0].peak, 32);
  EXPECT_GT(figures[0].throttled, 0) << "the host never refused: the pace never reached it";
  EXPECT_EQ(figures[0].throttled, host.refused());
  EXPECT_LE(host.refused(), k_feeds / 10);
  EXPECT_LE(figures[0].concurrency, 24.0);
}

TEST(TransferPool, NeverRunsMoreThanPerHostMaxNorAConfiguredCeiling) {
  LimitedHost open_host(0, std::chrono::milliseconds(5));
  LimitedHost ruled_host(0, std::chrono::milliseconds(5));
  core::CrawlConfig crawl = pace_config(2, 6);
  // 127.0.0.1 on every port: both hosts; the second's own rule wins, being longer.
  const std::string ruled_key = host_key(*net::parse_url(ruled_host.url(0)));
  crawl.hosts = {{"127.0.0.1", std::nullopt, 5, std::nullopt}, {ruled_key, 1, 3, std::nullopt}};
  Pacer pacer(crawl);
  TransferPool pool(loopback_config(), 64, pacer);
  for (int i = 0; i < 200; ++i) {
    pool.add(static_cast<std::uint64_t>(i), request(open_host.url(i)));
    pool.add(static_cast<std::uint64_t>(1000 + i), request(ruled_host.url(i)));
  }
  EXPECT_EQ(run_all(pool).size(), 400u);
  // Never past the ceilings, whatever the machine's load (which may cut the paces below them).
  EXPECT_LE(open_host.most(), 5);
  EXPECT_GT(open_host.most(), 2) << "the pace never grew past per_host";
  EXPECT_LE(ruled_host.most(), 3);
  for (const HostFigures& host : pacer.figures()) {
    EXPECT_LE(host.peak, host.host == ruled_key ? 3 : 5) << host.host;
  }
}

TEST(TransferPool, AsksAThrottledFeedAgainAfterAShortPause) {
  testing::LoopbackServer server;
  std::atomic<int> asked = 0;
  server.on_get("/once", [&](const testing::Request&, testing::Response& response) {
    if (asked++ == 0) {
      response.status = 503; // no Retry-After: the short default pause
      return;
    }
    response.set_content("<rss/>", "application/rss+xml");
  });
  TransferPool pool(loopback_config(), 4, 4);
  pool.add(1, request(server.url("/once")));
  const auto results = run_all(pool);
  EXPECT_EQ(results.at(1).outcome, FetchOutcome::ok) << results.at(1).error;
  EXPECT_EQ(asked, 2);
}

TEST(TransferPool, DefersTheFeedsOfAHostThatAsksForALongPause) {
  LimitedHost host(1, std::chrono::milliseconds(200), "3600");
  const core::CrawlConfig crawl = pace_config(2, 2);
  Pacer pacer(crawl);
  TransferPool pool(loopback_config(), 8, pacer);
  for (int i = 0; i < 6; ++i) {
    pool.add(static_cast<std::uint64_t>(i), request(host.url(i)));
  }
  const auto results = run_all(pool);
  ASSERT_EQ(results.size(), 6u);
  std::map<FetchOutcome, int> outcomes;
  for (const auto& [tag, result] : results) {
    ++outcomes[result.outcome];
    if (result.outcome == FetchOutcome::deferred) {
      EXPECT_GE(result.retry_after_seconds.value_or(0), 3590);
    }
  }
  // The first request refused asks for an hour: the feeds not yet asked are not asked at all.
  EXPECT_EQ(host.refused(), 1);
  EXPECT_EQ(outcomes[FetchOutcome::http_error], 1);
  EXPECT_GE(outcomes[FetchOutcome::deferred], 1);
  EXPECT_EQ(host.asked(), outcomes[FetchOutcome::ok] + 1);
}

TEST(TransferPool, TimeoutsCutAHostsPace) {
  LimitedHost host(0, std::chrono::milliseconds(1500));
  const core::CrawlConfig crawl = pace_config(4, 32);
  Pacer pacer(crawl);
  pacer.learn({{host_key(*net::parse_url(host.url(0))), 8}});
  core::FetchConfig config = loopback_config();
  config.total_timeout_seconds = 1;
  TransferPool pool(config, 16, pacer);
  for (int i = 0; i < 8; ++i) {
    pool.add(static_cast<std::uint64_t>(i), request(host.url(i)));
  }
  for (const auto& [tag, result] : run_all(pool)) {
    EXPECT_EQ(result.outcome, FetchOutcome::network_error);
  }
  const auto figures = pacer.figures();
  ASSERT_EQ(figures.size(), 1u);
  EXPECT_EQ(figures[0].overloaded, 8);
  EXPECT_DOUBLE_EQ(figures[0].concurrency, 4.0); // halved once, for one round trip
}

TEST(TransferPool, RefusesOversizedHeaders) {
  testing::LoopbackServer server;
  server.on_get("/headers", [](const testing::Request&, testing::Response& response) {
    for (int i = 0; i < 100; ++i) {
      response.set_header("X-Filler-" + std::to_string(i), std::string(1000, 'x'));
    }
    response.set_content("<rss/>", "application/rss+xml");
  });
  TransferPool pool(loopback_config(), 1, 1);
  pool.add(1, request(server.url("/headers")));
  EXPECT_EQ(run_all(pool).at(1).outcome, FetchOutcome::too_large);
}

TEST(ParseRetryAfter, ReadsSecondsAndHttpDates) {
  const std::int64_t now = 1445412480; // Wed, 21 Oct 2015 07:28:00 GMT
  EXPECT_EQ(internal::parse_retry_after("0", now), std::optional<std::int64_t>(0));
  EXPECT_EQ(internal::parse_retry_after("3600", now), std::optional<std::int64_t>(3600));
  EXPECT_EQ(internal::parse_retry_after("Wed, 21 Oct 2015 08:28:00 GMT", now),
            std::optional<std::int64_t>(3600));
  EXPECT_EQ(internal::parse_retry_after("Wed, 21 Oct 2015 06:28:00 GMT", now),
            std::optional<std::int64_t>(0));
  for (const char* junk : {"", "soon", "-5", "12 seconds", "99999999999999"}) {
    EXPECT_FALSE(internal::parse_retry_after(junk, now).has_value()) << junk;
  }
}

} // namespace
} // namespace podcrawl::fetch

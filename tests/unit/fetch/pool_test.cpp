#include "podcrawl/fetch/pool.hpp"

#include <gtest/gtest.h>
#include <httplib.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>

#include "fetch_test_helpers.hpp"
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
  server.on_get(R"(/feed/(\d+))", [](const httplib::Request& request, httplib::Response& response) {
    response.set_content("feed " + request.matches[1].str(), "application/rss+xml");
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
  server.on_get("/slow", [&](const httplib::Request&, httplib::Response& response) {
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

TEST(TransferPool, HonorsRetryAfterOn429And503) {
  testing::LoopbackServer server;
  server.on_get("/busy", [](const httplib::Request&, httplib::Response& response) {
    response.status = 429;
    response.set_header("Retry-After", "120");
  });
  server.on_get("/down", [](const httplib::Request&, httplib::Response& response) {
    response.status = 503;
    response.set_header("Retry-After", "Wed, 21 Oct 2015 07:28:00 GMT");
  });
  TransferPool pool(loopback_config(), 4, 4);
  pool.add(1, request(server.url("/busy")));
  pool.add(2, request(server.url("/down")));
  const auto results = run_all(pool);
  EXPECT_EQ(results.at(1).http_status, 429);
  EXPECT_EQ(results.at(1).retry_after_seconds, std::optional<std::int64_t>(120));
  EXPECT_EQ(results.at(2).http_status, 503);
  EXPECT_EQ(results.at(2).retry_after_seconds, std::optional<std::int64_t>(0)); // in the past
}

TEST(TransferPool, RefusesOversizedHeaders) {
  testing::LoopbackServer server;
  server.on_get("/headers", [](const httplib::Request&, httplib::Response& response) {
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
  EXPECT_EQ(detail::parse_retry_after("0", now), std::optional<std::int64_t>(0));
  EXPECT_EQ(detail::parse_retry_after("3600", now), std::optional<std::int64_t>(3600));
  EXPECT_EQ(detail::parse_retry_after("Wed, 21 Oct 2015 08:28:00 GMT", now),
            std::optional<std::int64_t>(3600));
  EXPECT_EQ(detail::parse_retry_after("Wed, 21 Oct 2015 06:28:00 GMT", now),
            std::optional<std::int64_t>(0));
  for (const char* junk : {"", "soon", "-5", "12 seconds", "99999999999999"}) {
    EXPECT_FALSE(detail::parse_retry_after(junk, now).has_value()) << junk;
  }
}

} // namespace
} // namespace podcrawl::fetch

#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <pqxx/pqxx>

#include "podcrawl/store/changes.hpp"
#include "podcrawl/store/crawl_history.hpp"
#include "podcrawl/store/crawl_list.hpp"
#include "podcrawl/store/fetch_outcomes.hpp"
#include "store_fixture.hpp"

namespace podcrawl::store {
namespace {

constexpr std::int64_t k_now = 1'750'000'000;
constexpr std::int64_t k_lease = 600;

std::vector<std::string> urls_of(const std::vector<FeedRecord>& feeds) {
  std::vector<std::string> urls;
  urls.reserve(feeds.size());
  for (const auto& feed : feeds) {
    urls.push_back(feed.url);
  }
  return urls;
}

FetchFailure gone_failure() {
  return {.http_status = 410, .error = "HTTP 410 Gone", .gone = true, .weight = 3};
}

using CrawlListTest = StoreTest;

TEST_F(CrawlListTest, AddListsANewFeedOnceAndReportsExistsAfter) {
  EXPECT_EQ(crawl_list().add_feed("https://a.example/feed", k_now), AddOutcome::added);
  EXPECT_EQ(crawl_list().add_feed("https://a.example/feed", k_now + 1), AddOutcome::exists);
  const auto feeds = crawl_list().list_feeds(std::nullopt);
  ASSERT_EQ(feeds.size(), 1u);
  EXPECT_EQ(feeds[0].url, "https://a.example/feed");
  EXPECT_EQ(feeds[0].status, FeedStatus::active);
  EXPECT_EQ(feeds[0].failures, 0);
  EXPECT_FALSE(feeds[0].next_fetch_at.has_value());
  EXPECT_FALSE(feeds[0].last_fetch_at.has_value());
  EXPECT_FALSE(feeds[0].last_status.has_value());
  EXPECT_TRUE(feeds[0].show_slug.empty());
}

TEST_F(CrawlListTest, RemovedFeedsLeaveTheListAndComeBackWhenAddedAgain) {
  const std::string url = "https://a.example/feed";
  crawl_list().add_feed(url, k_now);
  EXPECT_TRUE(crawl_list().remove_feed(url));
  EXPECT_FALSE(crawl_list().remove_feed(url));
  EXPECT_TRUE(crawl_list().list_feeds(std::nullopt).empty());
  EXPECT_EQ(urls_of(crawl_list().list_feeds(FeedStatus::removed)), std::vector<std::string>{url});
  EXPECT_EQ(crawl_list().find_feed(url)->status, FeedStatus::removed);

  EXPECT_EQ(crawl_list().add_feed(url, k_now + 10), AddOutcome::added);
  EXPECT_EQ(crawl_list().find_feed(url)->status, FeedStatus::active);
  EXPECT_EQ(crawl_list().list_feeds(std::nullopt).size(), 1u);
}

TEST_F(CrawlListTest, AddingManyGivesAnOutcomePerUrlInOrder) {
  crawl_list().add_feed("https://listed.example/feed", k_now);
  crawl_list().add_feed("https://removed.example/feed", k_now);
  crawl_list().remove_feed("https://removed.example/feed");
  const auto gone = listed_feed("https://gone.example/feed");
  outcomes().record_failure(gone, gone_failure(), k_now, k_now);
  const auto moved = listed_feed("https://old.example/feed");
  ASSERT_TRUE(crawl_list().move_feed(moved, "https://new.example/feed"));

  const std::vector<std::string> urls = {
      "https://new-b.example/feed", "https://listed.example/feed",  "https://new-a.example/feed",
      "https://new-b.example/feed", "https://removed.example/feed", "https://old.example/feed",
      "https://gone.example/feed",  "https://new.example/feed"};
  using enum AddOutcome;
  EXPECT_EQ(crawl_list().add_feeds(urls, k_now + 10),
            (std::vector<AddOutcome>{added, exists, added, exists, added, exists, added, exists}));
  for (const char* url : {"https://new-a.example/feed", "https://new-b.example/feed",
                          "https://removed.example/feed", "https://gone.example/feed"}) {
    EXPECT_EQ(crawl_list().find_feed(url)->status, FeedStatus::active) << url;
  }
  EXPECT_FALSE(crawl_list().find_feed("https://old.example/feed").has_value());
  EXPECT_EQ(crawl_list().list_feeds(std::nullopt).size(), 6u);

  // The same list again adds nothing.
  EXPECT_EQ(crawl_list().add_feeds(urls, k_now + 20), std::vector<AddOutcome>(urls.size(), exists));
  EXPECT_TRUE(crawl_list().add_feeds({}, k_now + 30).empty());
}

TEST_F(CrawlListTest, RemovingAnUnlistedUrlChangesNothing) {
  EXPECT_FALSE(crawl_list().remove_feed("https://never.example/feed"));
  EXPECT_FALSE(crawl_list().find_feed("https://never.example/feed").has_value());
}

TEST_F(CrawlListTest, ListSortsByUrlAndFiltersByStatus) {
  const auto b = listed_feed("https://b.example/feed");
  listed_feed("https://a.example/feed");
  const auto c = listed_feed("https://c.example/feed");
  outcomes().record_failure(c, gone_failure(), k_now, k_now + 3600);
  outcomes().record_failure(b, {.http_status = 500, .error = "HTTP 500", .failing_score = 1}, k_now,
                            k_now + 3600);
  EXPECT_EQ(urls_of(crawl_list().list_feeds(std::nullopt)),
            (std::vector<std::string>{"https://a.example/feed", "https://b.example/feed",
                                      "https://c.example/feed"}));
  EXPECT_EQ(urls_of(crawl_list().list_feeds(FeedStatus::gone)),
            std::vector<std::string>{"https://c.example/feed"});
  EXPECT_EQ(urls_of(crawl_list().list_feeds(FeedStatus::failing)),
            std::vector<std::string>{"https://b.example/feed"});
  EXPECT_EQ(urls_of(crawl_list().list_feeds(FeedStatus::active)),
            std::vector<std::string>{"https://a.example/feed"});
}

TEST_F(CrawlListTest, ClaimLeasesDueFeedsUntilTheLeaseRunsOut) {
  for (const char* url : {"https://a.example/1", "https://a.example/2", "https://a.example/3"}) {
    crawl_list().add_feed(url, k_now);
  }
  EXPECT_EQ(crawl_list().claim_due_feeds(2, false, k_now, k_lease).size(), 2u);
  EXPECT_EQ(crawl_list().claim_due_feeds(10, false, k_now, k_lease).size(), 1u);
  EXPECT_TRUE(crawl_list().claim_due_feeds(10, false, k_now + k_lease - 1, k_lease).empty());
  EXPECT_TRUE(crawl_list().claim_due_feeds(10, true, k_now + k_lease - 1, k_lease).empty());
  // A crawler that died leaves leases behind; they expire.
  EXPECT_EQ(crawl_list().claim_due_feeds(10, false, k_now + k_lease + 1, k_lease).size(), 3u);
}

TEST_F(CrawlListTest, ClaimOnAnotherConnectionSkipsLeasedFeeds) {
  listed_feed("https://a.example/1");
  listed_feed("https://a.example/2");
  Database other(url());
  const auto mine = crawl_list().claim_due_feeds(1, false, k_now, k_lease);
  const auto theirs = store::CrawlList(other).claim_due_feeds(5, false, k_now, k_lease);
  ASSERT_EQ(mine.size(), 1u);
  ASSERT_EQ(theirs.size(), 1u);
  EXPECT_NE(mine[0].id, theirs[0].id);
  EXPECT_TRUE(store::CrawlList(other).claim_due_feeds(5, true, k_now, k_lease).empty());
}

TEST_F(CrawlListTest, ALeaseEndsWhenTheConnectionThatTookItCloses) {
  // Regression: a killed crawler's feeds stayed leased until lease_until (minutes), so the next
  // crawl skipped them.
  listed_feed("https://a.example/1");
  listed_feed("https://a.example/2");
  int holder = 0;
  {
    Database crawler(url());
    ASSERT_EQ(store::CrawlList(crawler).claim_due_feeds(10, false, k_now, k_lease).size(), 2u);
    EXPECT_TRUE(crawl_list().claim_due_feeds(10, false, k_now, k_lease).empty());
    pqxx::connection connection(url());
    pqxx::nontransaction txn(connection);
    holder = txn.exec("SELECT DISTINCT lease_holder FROM feeds")[0][0].as<int>();
  }
  // The closed connection's server process ends on its own; wait until it has.
  pqxx::connection connection(url());
  pqxx::nontransaction txn(connection);
  txn.exec_params(
      "SELECT pg_terminate_backend($1, 10000)"
      " FROM pg_stat_activity WHERE pid = $1",
      holder);
  EXPECT_EQ(crawl_list().claim_due_feeds(10, false, k_now, k_lease).size(), 2u);
}

TEST_F(CrawlListTest, ConcurrentClaimersNeverHandOutAFeedTwice) {
  constexpr int k_feeds = 40;
  for (int i = 0; i < k_feeds; ++i) {
    crawl_list().add_feed("https://feeds.example/" + std::to_string(i), k_now);
  }
  std::mutex mutex;
  std::vector<std::int64_t> claimed;
  // Each claimer's connection stays open until all are done, as a crawler's does while it works
  // on what it claimed (a lease ends with its connection).
  Database first(url());
  Database second(url());
  Database third(url());
  const auto crawler = [&](Database& connection) {
    for (;;) {
      const auto batch = store::CrawlList(connection).claim_due_feeds(3, false, k_now, k_lease);
      if (batch.empty()) {
        return;
      }
      const std::lock_guard lock(mutex);
      for (const auto& feed : batch) {
        claimed.push_back(feed.id);
      }
    }
  };
  std::thread a(crawler, std::ref(first));
  std::thread b(crawler, std::ref(second));
  std::thread c(crawler, std::ref(third));
  a.join();
  b.join();
  c.join();
  EXPECT_EQ(claimed.size(), static_cast<std::size_t>(k_feeds));
  EXPECT_EQ(std::set<std::int64_t>(claimed.begin(), claimed.end()).size(),
            static_cast<std::size_t>(k_feeds));
}

TEST_F(CrawlListTest, ClaimWaitsForTheScheduleUnlessAll) {
  const auto id = listed_feed("https://a.example/feed");
  outcomes().record_not_modified(id, k_now, k_now + 3600);
  EXPECT_TRUE(crawl_list().claim_due_feeds(10, false, k_now + 10, k_lease).empty());
  EXPECT_EQ(crawl_list().claim_due_feeds(10, true, k_now + 10, k_lease).size(), 1u);
  // Due once the schedule is reached (and the lease from `all` has expired).
  EXPECT_EQ(crawl_list().claim_due_feeds(10, false, k_now + 3600 + k_lease, k_lease).size(), 1u);
}

TEST_F(CrawlListTest, AllWalksTheListByIdSoARunReachesEachFeedOnce) {
  // Regression: with all=true a feed fetched during the run was due again at once, so
  // `crawl --all` never ended.
  const auto first = listed_feed("https://a.example/1");
  const auto second = listed_feed("https://a.example/2");
  const auto claimed = crawl_list().claim_due_feeds(1, true, k_now, k_lease);
  ASSERT_EQ(claimed.size(), 1u);
  EXPECT_EQ(claimed[0].id, first);
  outcomes().record_not_modified(first, k_now, k_now + 3600);
  const auto next = crawl_list().claim_due_feeds(10, true, k_now, k_lease, first);
  ASSERT_EQ(next.size(), 1u);
  EXPECT_EQ(next[0].id, second);
  EXPECT_TRUE(crawl_list().claim_due_feeds(10, true, k_now, k_lease, second).empty());
}

TEST_F(CrawlListTest, GoneAndRemovedFeedsAreNeverClaimed) {
  const auto gone = listed_feed("https://a.example/gone");
  listed_feed("https://a.example/removed");
  crawl_list().remove_feed("https://a.example/removed");
  outcomes().record_failure(gone, gone_failure(), k_now, k_now);
  EXPECT_TRUE(crawl_list().claim_due_feeds(10, true, k_now + 86400, k_lease).empty());
}

TEST_F(CrawlListTest, FailuresCountUpAndAreClearedByTheNextSuccess) {
  const auto id = listed_feed("https://a.example/feed");
  ASSERT_EQ(crawl_list().claim_due_feeds(1, false, k_now, k_lease).size(), 1u);
  outcomes().record_failure(id, {.http_status = 503, .error = "HTTP 503 Service Unavailable"},
                            k_now, k_now + 60);
  auto feed = crawl_list().find_feed("https://a.example/feed").value();
  EXPECT_EQ(feed.status, FeedStatus::active);
  EXPECT_EQ(feed.failures, 1);
  EXPECT_EQ(feed.failure_score, 1);
  EXPECT_EQ(feed.last_status, 503);
  EXPECT_EQ(feed.last_error, "HTTP 503 Service Unavailable");
  EXPECT_EQ(feed.last_fetch_at, k_now);
  EXPECT_EQ(feed.next_fetch_at, k_now + 60);
  // The lease is released with the result: due again at its retry time, before the lease ends.
  ASSERT_EQ(crawl_list().claim_due_feeds(1, false, k_now + 60, k_lease).size(), 1u);

  outcomes().record_failure(id, {.http_status = std::nullopt, .error = "connection refused"},
                            k_now + 60, k_now + 300);
  feed = crawl_list().find_feed("https://a.example/feed").value();
  EXPECT_EQ(feed.failures, 2);
  EXPECT_EQ(feed.failure_score, 2);
  EXPECT_FALSE(feed.last_status.has_value());
  EXPECT_EQ(feed.next_fetch_at, k_now + 300);

  outcomes().record_not_modified(id, k_now + 300, k_now + 4000);
  feed = crawl_list().find_feed("https://a.example/feed").value();
  EXPECT_EQ(feed.status, FeedStatus::active);
  EXPECT_EQ(feed.failures, 0);
  EXPECT_EQ(feed.failure_score, 0);
  EXPECT_EQ(feed.last_status, 304);
  EXPECT_EQ(feed.last_error, "");
  EXPECT_EQ(feed.next_fetch_at, k_now + 4000);
}

TEST_F(CrawlListTest, AFailureBelowTheFailingScoreKeepsTheFeedActiveWithItsError) {
  const auto id = listed_feed("https://a.example/feed");
  outcomes().record_failure(
      id, {.http_status = 404, .error = "HTTP 404", .weight = 3, .failing_score = 4}, k_now,
      k_now + 60);
  const auto feed = crawl_list().find_feed("https://a.example/feed").value();
  EXPECT_EQ(feed.status, FeedStatus::active);
  EXPECT_EQ(feed.failure_score, 3);
  EXPECT_EQ(feed.failures, 1);
  EXPECT_EQ(feed.last_status, 404);
  EXPECT_EQ(feed.last_error, "HTTP 404");
  EXPECT_EQ(feed.next_fetch_at, k_now + 60);
  EXPECT_TRUE(crawl_list().list_feeds(FeedStatus::failing).empty());
}

TEST_F(CrawlListTest, WeightedFailuresAccumulateUntilTheFeedIsFailing) {
  const auto id = listed_feed("https://a.example/feed");
  // Weights 1, 2, 1 against a failing score of 4: active, active, failing at exactly 4.
  const struct {
    int weight;
    int score;
    FeedStatus status;
  } steps[] = {{1, 1, FeedStatus::active},
               {2, 3, FeedStatus::active},
               {1, 4, FeedStatus::failing},
               {1, 5, FeedStatus::failing}};
  std::int64_t now = k_now;
  for (const auto& step : steps) {
    outcomes().record_failure(id,
                              {.http_status = std::nullopt,
                               .error = "timeout",
                               .weight = step.weight,
                               .failing_score = 4},
                              now, now + 60);
    const auto feed = crawl_list().find_feed("https://a.example/feed").value();
    EXPECT_EQ(feed.failure_score, step.score);
    EXPECT_EQ(feed.status, step.status) << step.score;
    now += 60;
  }
  EXPECT_EQ(crawl_list().find_feed("https://a.example/feed")->failures, 4);
  EXPECT_EQ(urls_of(crawl_list().list_feeds(FeedStatus::failing)),
            std::vector<std::string>{"https://a.example/feed"});
  // A failing feed is still claimed for its retries.
  EXPECT_EQ(crawl_list().claim_due_feeds(1, false, now, k_lease).size(), 1u);
}

TEST_F(CrawlListTest, EveryKindOfSuccessResetsTheFailureScore) {
  const auto not_modified = listed_feed("https://a.example/not-modified");
  const auto unchanged = listed_feed("https://a.example/unchanged");
  const auto parsed = listed_feed("https://a.example/parsed");
  const FetchFailure failure{
      .http_status = 500, .error = "HTTP 500", .weight = 2, .failing_score = 4};
  for (const auto id : {not_modified, unchanged, parsed}) {
    outcomes().record_failure(id, failure, k_now, k_now + 60);
    outcomes().record_failure(id, failure, k_now + 60, k_now + 120);
  }
  ASSERT_EQ(crawl_list().list_feeds(FeedStatus::failing).size(), 3u);
  FetchMeta meta;
  meta.http_status = 200;
  meta.content_hash = "hash";
  outcomes().record_not_modified(not_modified, k_now + 200, k_now + 4000);
  outcomes().record_unchanged(unchanged, meta, k_now + 200, k_now + 4000);
  feed::Show show;
  show.title = "Parsed";
  outcomes().record_success(parsed, meta, show, k_now + 200, k_now + 4000);
  for (const auto& feed : crawl_list().list_feeds(std::nullopt)) {
    SCOPED_TRACE(feed.url);
    EXPECT_EQ(feed.status, FeedStatus::active);
    EXPECT_EQ(feed.failure_score, 0);
    EXPECT_EQ(feed.failures, 0);
    EXPECT_EQ(feed.last_error, "");
  }
  // After a reset the score starts over: one failure is below the threshold again.
  outcomes().record_failure(parsed, failure, k_now + 300, k_now + 400);
  EXPECT_EQ(crawl_list().find_feed("https://a.example/parsed")->status, FeedStatus::active);
  EXPECT_EQ(crawl_list().find_feed("https://a.example/parsed")->failure_score, 2);
}

TEST_F(CrawlListTest, AGoneFeedIsGoneWhateverItsScore) {
  const auto id = listed_feed("https://a.example/gone");
  outcomes().record_failure(id,
                            {.http_status = 410,
                             .error = "HTTP 410 Gone",
                             .gone = true,
                             .weight = 1,
                             .failing_score = 100},
                            k_now, k_now);
  EXPECT_EQ(crawl_list().find_feed("https://a.example/gone")->status, FeedStatus::gone);
}

TEST_F(CrawlListTest, HostileErrorTextIsStoredBoundedAndValid) {
  const auto id = listed_feed("https://a.example/feed");
  std::string error(5000, 'x');
  error += std::string("\0\xff\xfe", 3);
  outcomes().record_failure(id, {.http_status = 500, .error = error}, k_now, k_now + 60);
  const auto feed = crawl_list().find_feed("https://a.example/feed").value();
  EXPECT_LE(feed.last_error.size(), 1000u);
  EXPECT_GT(feed.last_error.size(), 0u);
  EXPECT_EQ(feed.last_error.find('\0'), std::string::npos);
}

TEST_F(CrawlListTest, AMovedFeedKeepsItsOldUrlAsAnAlias) {
  const auto id = listed_feed("https://old.example/feed");
  EXPECT_TRUE(crawl_list().move_feed(id, "https://new.example/feed"));
  EXPECT_FALSE(crawl_list().find_feed("https://old.example/feed").has_value());
  EXPECT_EQ(crawl_list().find_feed("https://new.example/feed")->id, id);
  EXPECT_EQ(crawl_list().add_feed("https://old.example/feed", k_now), AddOutcome::exists);
  EXPECT_EQ(crawl_list().list_feeds(std::nullopt).size(), 1u);
  EXPECT_FALSE(crawl_list().move_feed(id, "https://new.example/feed")); // already there
}

TEST_F(CrawlListTest, AMoveBackToAnOldUrlIsAllowed) {
  const auto id = listed_feed("https://a.example/feed");
  ASSERT_TRUE(crawl_list().move_feed(id, "https://b.example/feed"));
  ASSERT_TRUE(crawl_list().move_feed(id, "https://a.example/feed"));
  EXPECT_EQ(crawl_list().find_feed("https://a.example/feed")->id, id);
  EXPECT_EQ(crawl_list().add_feed("https://b.example/feed", k_now), AddOutcome::exists);
}

TEST_F(CrawlListTest, AMoveOntoAListedUrlMergesTheFeeds) {
  const auto moving = listed_feed("https://old.example/feed");
  const auto holder = listed_feed("https://taken.example/feed");
  EXPECT_TRUE(crawl_list().move_feed(moving, "https://taken.example/feed"));
  const auto listed = crawl_list().list_feeds(std::nullopt);
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].id, holder);
  EXPECT_EQ(crawl_list().find_feed("https://old.example/feed")->status, FeedStatus::removed);
  EXPECT_EQ(crawl_list().add_feed("https://old.example/feed", k_now), AddOutcome::exists);
  EXPECT_EQ(crawl_list().list_feeds(std::nullopt).size(), 1u);
}

TEST_F(CrawlListTest, AGoneFeedComesBackWhenAddedAgain) {
  const auto id = listed_feed("https://a.example/gone");
  outcomes().record_failure(id, gone_failure(), k_now, k_now);
  EXPECT_EQ(crawl_list().find_feed("https://a.example/gone")->status, FeedStatus::gone);
  EXPECT_EQ(crawl_list().add_feed("https://a.example/gone", k_now), AddOutcome::added);
  EXPECT_EQ(crawl_list().find_feed("https://a.example/gone")->status, FeedStatus::active);
}

TEST_F(CrawlListTest, StatsReportTheLatestCrawlRun) {
  EXPECT_FALSE(history().stats().last_crawl.has_value());
  const auto first = history().begin_crawl_run(k_now);
  history().finish_crawl_run(first, {k_now, k_now + 5, 1, 2, 3, 4});
  const auto second = history().begin_crawl_run(k_now + 100);
  auto stats = history().stats();
  ASSERT_TRUE(stats.last_crawl.has_value());
  EXPECT_EQ(stats.last_crawl->started_at, k_now + 100);
  EXPECT_FALSE(stats.last_crawl->finished_at.has_value());

  history().finish_crawl_run(second, {k_now + 100, k_now + 130, 10, 20, 30, 40});
  stats = history().stats();
  ASSERT_TRUE(stats.last_crawl.has_value());
  EXPECT_EQ(stats.last_crawl->finished_at, k_now + 130);
  EXPECT_EQ(stats.last_crawl->fetched, 10);
  EXPECT_EQ(stats.last_crawl->not_modified, 20);
  EXPECT_EQ(stats.last_crawl->failed, 30);
  EXPECT_EQ(stats.last_crawl->new_episodes, 40);
}

TEST_F(CrawlListTest, StatsCountFeedsByStatus) {
  listed_feed("https://a.example/1");
  const auto failing = listed_feed("https://a.example/2");
  const auto gone = listed_feed("https://a.example/3");
  listed_feed("https://a.example/4");
  crawl_list().remove_feed("https://a.example/4");
  outcomes().record_failure(failing, {.http_status = 404, .error = "HTTP 404", .weight = 3}, k_now,
                            k_now + 60);
  outcomes().record_failure(failing, {.http_status = 404, .error = "HTTP 404", .weight = 3}, k_now,
                            k_now + 60);
  outcomes().record_failure(gone, gone_failure(), k_now, k_now + 60);
  const auto stats = history().stats();
  EXPECT_EQ(stats.feeds_total, 4);
  EXPECT_EQ(stats.feeds_active, 1);
  EXPECT_EQ(stats.feeds_failing, 1);
  EXPECT_EQ(stats.feeds_gone, 1);
  EXPECT_EQ(stats.feeds_removed, 1);
}

TEST_F(CrawlListTest, AFeedMarkedUrgentIsDueAtOnceAndAnnounced) {
  const std::string feed_url = "https://urgent.example/feed";
  crawl_list().add_feed(feed_url, k_now);
  const std::int64_t id = crawl_list().find_feed(feed_url).value().id;
  const std::int64_t now = std::time(nullptr);
  ASSERT_EQ(crawl_list().claim_due_feeds(1, false, now, k_lease).size(), 1u);
  outcomes().record_not_modified(id, now, now + 86400);
  ASSERT_TRUE(crawl_list().claim_due_feeds(1, false, now, k_lease).empty());

  pqxx::connection connection(url());
  ChannelListener listener(connection, k_urgent_channel);
  EXPECT_EQ(crawl_list().mark_urgent_by_url(feed_url), id);
  EXPECT_EQ(listener.heard(1), std::vector<std::string>{std::to_string(id)});
  const auto due = crawl_list().claim_due_feeds(1, false, std::time(nullptr) + 1, k_lease);
  ASSERT_EQ(due.size(), 1u);
  EXPECT_EQ(due[0].id, id);

  // Nothing else is marked: an unknown URL, a show that is not stored, a feed that is gone.
  EXPECT_FALSE(crawl_list().mark_urgent_by_url("https://unknown.example/feed"));
  EXPECT_FALSE(crawl_list().mark_urgent_by_show(999999));
  outcomes().record_failure(id, gone_failure(), now, now + 60);
  EXPECT_FALSE(crawl_list().mark_urgent_by_url(feed_url));
}

TEST_F(CrawlListTest, FeedsNamedByIdAreClaimedOnlyWhenDueAndFree) {
  const auto due = listed_feed("https://a.example/due");
  const auto later = listed_feed("https://a.example/later");
  const auto removed = listed_feed("https://a.example/removed");
  const auto held = listed_feed("https://a.example/held");
  outcomes().record_not_modified(later, k_now, k_now + 3600);
  crawl_list().remove_feed("https://a.example/removed");
  Database other(url());
  ASSERT_EQ(CrawlList(other).claim_feeds({held}, k_now, k_lease).size(), 1u);

  const auto claimed =
      crawl_list().claim_feeds({held, removed, later, due, 999999}, k_now, k_lease);
  ASSERT_EQ(claimed.size(), 1u);
  EXPECT_EQ(claimed[0].id, due);
  // Leased now: neither by id nor among the due.
  EXPECT_TRUE(crawl_list().claim_feeds({due}, k_now, k_lease).empty());
  EXPECT_TRUE(crawl_list().claim_due_feeds(10, false, k_now, k_lease).empty());
  EXPECT_TRUE(crawl_list().claim_feeds({}, k_now, k_lease).empty());
}

TEST_F(CrawlListTest, TheNextDueTimeSkipsLeasedFeedsAndCountsNeverFetchedAsDue) {
  EXPECT_FALSE(crawl_list().next_due_at(k_now).has_value()); // nothing listed
  const auto first = listed_feed("https://a.example/1");
  const auto second = listed_feed("https://a.example/2");
  outcomes().record_not_modified(first, k_now, k_now + 600);
  EXPECT_EQ(crawl_list().next_due_at(k_now), k_now); // the second was never fetched
  ASSERT_EQ(crawl_list().claim_feeds({second}, k_now, k_lease).size(), 1u);
  EXPECT_EQ(crawl_list().next_due_at(k_now), k_now + 600);
  outcomes().record_not_modified(second, k_now, k_now + 300);
  EXPECT_EQ(crawl_list().next_due_at(k_now), k_now + 300);
  crawl_list().remove_feed("https://a.example/2");
  EXPECT_EQ(crawl_list().next_due_at(k_now), k_now + 600);
  // Overdue: its own time, earlier than now.
  EXPECT_EQ(crawl_list().next_due_at(k_now + 700), k_now + 600);
}

TEST_F(CrawlListTest, UrgentFeedsAreHeardOnTheirOwnConnection) {
  const auto first = listed_feed("https://a.example/1");
  const auto second = listed_feed("https://a.example/2");
  UrgentFeeds urgent(url());
  EXPECT_TRUE(urgent.wait(std::chrono::milliseconds(0)).empty());
  ASSERT_EQ(crawl_list().mark_urgent_by_url("https://a.example/2"), second);
  ASSERT_EQ(crawl_list().mark_urgent_by_url("https://a.example/1"), first);
  ASSERT_EQ(crawl_list().mark_urgent_by_url("https://a.example/2"), second);
  std::vector<std::int64_t> heard;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (heard.size() < 2 && std::chrono::steady_clock::now() < deadline) {
    for (const auto id : urgent.wait(std::chrono::seconds(1))) {
      heard.push_back(id);
    }
  }
  // Each once, ascending, whatever the order and number of announcements.
  EXPECT_EQ(heard, (std::vector<std::int64_t>{first, second}));
  // Announced due to the second, so that a claim at the same second finds it.
  const std::int64_t now = std::time(nullptr);
  EXPECT_LE(crawl_list().next_due_at(now).value(), now);
  EXPECT_EQ(crawl_list().claim_due_feeds(10, false, now, k_lease).size(), 2u);
}

TEST_F(CrawlListTest, AMarkMadeWhileTheFeedIsFetchedOutlivesItsOutcome) {
  const std::string feed_url = "https://a.example/marked";
  const auto id = listed_feed(feed_url);
  const std::int64_t now = std::time(nullptr);
  // Marked before the claim: the claim takes the mark, and the outcome schedules as it says.
  ASSERT_TRUE(crawl_list().mark_urgent_by_url(feed_url));
  ASSERT_EQ(crawl_list().claim_due_feeds(1, false, now + 1, k_lease).size(), 1u);
  outcomes().record_not_modified(id, now, now + 3600);
  EXPECT_EQ(crawl_list().find_feed(feed_url)->next_fetch_at, now + 3600);

  // Marked during the fetch: the outcome leaves it due, and it is announced again.
  ASSERT_EQ(crawl_list().claim_due_feeds(1, true, now, k_lease).size(), 1u);
  ASSERT_TRUE(crawl_list().mark_urgent_by_url(feed_url));
  UrgentFeeds urgent(url());
  outcomes().record_not_modified(id, now, now + 3600);
  EXPECT_LE(crawl_list().find_feed(feed_url)->next_fetch_at.value(), now + 1);
  std::vector<std::int64_t> heard;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (heard.empty() && std::chrono::steady_clock::now() < deadline) {
    heard = urgent.wait(std::chrono::seconds(1));
  }
  EXPECT_EQ(heard, std::vector<std::int64_t>{id});
  // Once: the next outcome schedules as it says.
  ASSERT_EQ(crawl_list().claim_due_feeds(1, false, now + 1, k_lease).size(), 1u);
  outcomes().record_not_modified(id, now, now + 3600);
  EXPECT_EQ(crawl_list().find_feed(feed_url)->next_fetch_at, now + 3600);
}

TEST_F(CrawlListTest, AWaitForUrgentFeedsEndsWhenItsWakeDescriptorIsReadable) {
  UrgentFeeds urgent(url());
  int ends[2] = {-1, -1};
  ASSERT_EQ(::pipe(ends), 0);
  ASSERT_EQ(::write(ends[1], "x", 1), 1);
  const auto started = std::chrono::steady_clock::now();
  EXPECT_TRUE(urgent.wait(std::chrono::seconds(30), ends[0]).empty());
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(10));
  ::close(ends[0]);
  ::close(ends[1]);
}

} // namespace
} // namespace podcrawl::store

#include "podcrawl/serve/fresh_cache.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace podcrawl::serve {
namespace {

using namespace std::chrono_literals;

constexpr std::int64_t k_now = 1'000'000;

std::shared_ptr<const http::CachedPage> page(std::string body, std::vector<std::string> tags) {
  auto made = http::page_of(std::move(body));
  made->expires_at = k_now + 3600;
  made->tags = std::move(tags);
  return made;
}

// A cache that hears announcements, holding a show's page, another show's page and a list.
class HeardCache : public ::testing::Test {
protected:
  void SetUp() override {
    cache.set_listening(true);
    const auto started = cache.generation();
    cache.cache_if_current("en/podcasts/a/", page("a", {show_tag("a")}), started);
    cache.cache_if_current("en/podcasts/b/", page("b", {show_tag("b")}), started);
    cache.cache_if_current("en/", page("home", {std::string(k_lists_tag)}), started);
  }

  bool holds(const std::string& key) { return cache.pages().find(key, k_now) != nullptr; }

  FreshCache cache{1 << 20};
};

TEST_F(HeardCache, KeepsPagesLoadedInTheCurrentGeneration) {
  EXPECT_TRUE(cache.listening());
  EXPECT_TRUE(holds("en/podcasts/a/"));
  EXPECT_TRUE(holds("en/podcasts/b/"));
  EXPECT_TRUE(holds("en/"));
}

TEST_F(HeardCache, AnAnnouncementDropsTheShowsPagesAndEveryListButNotOtherShows) {
  cache.invalidate({"a"});
  EXPECT_FALSE(holds("en/podcasts/a/"));
  EXPECT_FALSE(holds("en/"));
  EXPECT_TRUE(holds("en/podcasts/b/"));
}

TEST_F(HeardCache, APageLoadedBeforeAnAnnouncementIsNotCached) {
  const auto started = cache.generation();
  cache.invalidate({"c"}); // announced while the page of c was being loaded
  cache.cache_if_current("en/podcasts/c/", page("c, before", {show_tag("c")}), started);
  EXPECT_FALSE(holds("en/podcasts/c/"));
  // Loaded again after the announcement, it is.
  cache.cache_if_current("en/podcasts/c/", page("c, after", {show_tag("c")}), cache.generation());
  ASSERT_TRUE(holds("en/podcasts/c/"));
  EXPECT_EQ(*cache.pages().find("en/podcasts/c/", k_now)->identity, "c, after");
}

TEST_F(HeardCache, AnAnnouncementOfAnotherShowStillStopsAPageLoadedBeforeIt) {
  // The page's own show was not named, but the load may have read what the change wrote (a
  // list, a moved episode): only a load that started after the announcement is cached.
  const auto started = cache.generation();
  cache.invalidate({"b"});
  cache.cache_if_current("en/podcasts/c/", page("c", {show_tag("c")}), started);
  EXPECT_FALSE(holds("en/podcasts/c/"));
}

TEST_F(HeardCache, LosingTheAnnouncementsKeepsPagesForStaleAnswersButNotAsCurrent) {
  const auto started = cache.generation();
  cache.set_listening(false);
  EXPECT_FALSE(cache.listening());
  // A page loaded across the loss is not cached; what was cached before stays, for answering
  // stale while the database is unreachable.
  cache.cache_if_current("en/podcasts/c/", page("c", {show_tag("c")}), started);
  EXPECT_FALSE(holds("en/podcasts/c/"));
  EXPECT_NE(cache.pages().find_stale("en/podcasts/a/"), nullptr);
}

TEST_F(HeardCache, HearingAgainEmptiesTheCache) {
  cache.set_listening(false);
  cache.cache_if_current("en/podcasts/c/", page("c", {show_tag("c")}), cache.generation());
  EXPECT_NE(cache.pages().find_stale("en/podcasts/c/"), nullptr); // unheard: kept for stale
  cache.set_listening(true);
  EXPECT_EQ(cache.pages().entries(), 0U);
  EXPECT_EQ(cache.pages().find_stale("en/podcasts/a/"), nullptr);
}

TEST(FreshCache, WaitsForTheAnnouncementsToBeHeardOrGivesUp) {
  FreshCache cache(1 << 20);
  EXPECT_FALSE(cache.wait_until_listening(10ms));
  std::thread listener([&] { cache.set_listening(true); });
  EXPECT_TRUE(cache.wait_until_listening(60s));
  listener.join();
}

model::DirectoryFeed feed(std::int64_t id, const std::string& slug, std::size_t notes = 0) {
  model::DirectoryFeed made;
  made.id = id;
  made.show.slug = slug;
  made.show.show.title = "Show " + slug;
  made.show.show.description = std::string(notes, 'n');
  return made;
}

// The ids of what find_feeds found, 0 for each id it did not.
std::vector<std::int64_t> found_ids(const std::vector<std::optional<model::DirectoryFeed>>& found) {
  std::vector<std::int64_t> ids;
  for (const auto& entry : found) {
    ids.push_back(entry ? entry->id : 0);
  }
  return ids;
}

using Ids = std::vector<std::int64_t>;
const auto k_loaded = std::chrono::steady_clock::time_point() + 1h;

// A cache that hears announcements, holding the feeds of shows a (id 1) and b (id 2).
class FeedCache : public ::testing::Test {
protected:
  void SetUp() override {
    cache.set_listening(true);
    cache.cache_feeds_if_current({feed(1, "a"), feed(2, "b")}, cache.generation(), k_loaded);
  }

  Ids found(const Ids& ids, std::chrono::steady_clock::time_point at = k_loaded) {
    return found_ids(cache.find_feeds(ids, at));
  }

  FreshCache cache{1 << 20};
};

TEST_F(FeedCache, FindsTheFeedsItHoldsEachInThePlaceOfItsId) {
  EXPECT_EQ(found({2, 3, 1}), (Ids{2, 0, 1}));
  const auto figures = cache.feed_figures();
  EXPECT_EQ(figures.hits, 2U);
  EXPECT_EQ(figures.misses, 1U);
  EXPECT_EQ(figures.entries, 2U);
  EXPECT_GT(figures.bytes, 2 * sizeof(model::DirectoryFeed));
  const auto again = cache.find_feeds({1}, k_loaded);
  ASSERT_TRUE(again[0]);
  EXPECT_EQ(again[0]->show.show.title, "Show a");
}

TEST_F(FeedCache, AnAnnouncementDropsTheFeedOfItsShowOnly) {
  cache.invalidate({"a"});
  EXPECT_EQ(found({1, 2}), (Ids{0, 2}));
}

TEST_F(FeedCache, AFeedLoadedBeforeAnAnnouncementIsNotCached) {
  const auto started = cache.generation();
  cache.invalidate({"c"});
  cache.cache_feeds_if_current({feed(3, "c")}, started, k_loaded);
  EXPECT_EQ(found({3}), (Ids{0}));
  cache.cache_feeds_if_current({feed(3, "c")}, cache.generation(), k_loaded);
  EXPECT_EQ(found({3}), (Ids{3}));
}

TEST_F(FeedCache, NoFeedIsFoundWhileAnnouncementsAreNotHeardNorKeptAcross) {
  cache.set_listening(false);
  EXPECT_EQ(found({1, 2}), (Ids{0, 0}));
  cache.cache_feeds_if_current({feed(3, "c")}, cache.generation(), k_loaded);
  cache.set_listening(true);
  EXPECT_EQ(found({1, 2, 3}), (Ids{0, 0, 0}));
  EXPECT_EQ(cache.feed_figures().entries, 0U);
}

TEST_F(FeedCache, AFeedIsFoundForItsLifetimeOnly) {
  EXPECT_EQ(found({1}, k_loaded + FreshCache::k_feed_lifetime - 1s), (Ids{1}));
  EXPECT_EQ(found({1}, k_loaded + FreshCache::k_feed_lifetime), (Ids{0}));
  // Loaded again, it is found again.
  cache.cache_feeds_if_current({feed(1, "a")}, cache.generation(),
                               k_loaded + FreshCache::k_feed_lifetime);
  EXPECT_EQ(found({1}, k_loaded + FreshCache::k_feed_lifetime), (Ids{1}));
  EXPECT_EQ(cache.feed_figures().entries, 2U);
}

TEST(FreshCache, FeedsOverTheirBytesGoLeastRecentlyFoundFirst) {
  // Feeds of 10,000 bytes of notes in a cache whose feeds' quarter holds two of them.
  FreshCache measure(1 << 20);
  measure.set_listening(true);
  measure.cache_feeds_if_current({feed(1, "a", 10'000)}, measure.generation(), k_loaded);
  const std::size_t one = measure.feed_figures().bytes;
  FreshCache cache(4 * (2 * one + one / 2));
  cache.set_listening(true);
  cache.cache_feeds_if_current({feed(1, "a", 10'000), feed(2, "b", 10'000)}, cache.generation(),
                               k_loaded);
  EXPECT_EQ(found_ids(cache.find_feeds({1}, k_loaded)), (Ids{1})); // a found last
  cache.cache_feeds_if_current({feed(3, "c", 10'000)}, cache.generation(), k_loaded);
  EXPECT_EQ(found_ids(cache.find_feeds({1, 2, 3}, k_loaded)), (Ids{1, 0, 3}));
  EXPECT_LE(cache.feed_figures().bytes, 2 * one + one / 2);
  // One feed larger than them all is not kept.
  cache.cache_feeds_if_current({feed(4, "d", 100'000)}, cache.generation(), k_loaded);
  EXPECT_EQ(found_ids(cache.find_feeds({4, 1, 3}, k_loaded)), (Ids{0, 1, 3}));
}

} // namespace
} // namespace podcrawl::serve

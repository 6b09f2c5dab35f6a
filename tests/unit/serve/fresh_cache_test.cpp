#include "podcrawl/serve/fresh_cache.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

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

} // namespace
} // namespace podcrawl::serve

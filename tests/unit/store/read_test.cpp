#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "podcrawl/store/directory_pages.hpp"
#include "podcrawl/store/fetch_outcomes.hpp"
#include "store_fixture.hpp"

namespace podcrawl::store {
namespace {

constexpr std::int64_t k_now = 1'750'000'000;
constexpr std::int64_t k_next = k_now + 3600;
const FetchMeta k_meta{};

std::vector<std::string> guids_of(const model::StoredShow& stored) {
  std::vector<std::string> guids;
  for (const auto& e : episodes_of(stored)) {
    guids.push_back(e.guid);
  }
  return guids;
}

using ReadTest = StoreTest;

TEST_F(ReadTest, LoadShowFindsAShowByFeedUrlOrSlug) {
  const auto id = listed_feed("https://a.example/feed");
  const auto slug =
      outcomes().record_success(id, k_meta, show("Findable"), k_now, k_next).show_slug;
  ASSERT_TRUE(pages().load_show("https://a.example/feed").has_value());
  ASSERT_TRUE(pages().load_show(slug).has_value());
  EXPECT_EQ(pages().load_show(slug)->feed_url, "https://a.example/feed");
  EXPECT_EQ(pages().load_show("https://a.example/feed")->slug, slug);
  EXPECT_FALSE(pages().load_show("no-such-show").has_value());
  EXPECT_FALSE(pages().load_show("https://b.example/feed").has_value());
}

TEST_F(ReadTest, AListedFeedNeverFetchedHasNoShow) {
  listed_feed("https://a.example/feed");
  EXPECT_FALSE(pages().load_show("https://a.example/feed").has_value());
  EXPECT_TRUE(pages().load_show_batch("", 10).empty());
}

TEST_F(ReadTest, EpisodesComeNewestFirstUndatedLastTiesInDocumentOrder) {
  const auto id = listed_feed("https://a.example/feed");
  feed::Show s = show("Ordered");
  s.episodes = {episode("old", "Old", 100),
                episode("undated-1", "U1", std::nullopt),
                episode("newest", "Newest", 300),
                episode("tie-a", "Tie A", 200),
                episode("undated-2", "U2", std::nullopt),
                episode("tie-b", "Tie B", 200)};
  outcomes().record_success(id, k_meta, s, k_now, k_next);
  EXPECT_EQ(
      guids_of(pages().load_show("https://a.example/feed").value()),
      (std::vector<std::string>{"newest", "tie-a", "tie-b", "old", "undated-1", "undated-2"}));
}

TEST_F(ReadTest, ShowBatchesWalkEveryShowBySlugWithItsOwnEpisodes) {
  const auto z = listed_feed("https://z.example/feed");
  const auto a = listed_feed("https://a.example/feed");
  feed::Show zulu = show("Zulu Show");
  zulu.episodes = {episode("z1", "Zulu One", 100)};
  feed::Show alpha = show("Alpha Show");
  alpha.categories = {"News", "Arts"};
  alpha.episodes = {episode("a1", "Alpha One", 200), episode("a2", "Alpha Two", 100)};
  outcomes().record_success(z, k_meta, zulu, k_now, k_next);
  outcomes().record_success(a, k_meta, alpha, k_now, k_next);

  const auto first = pages().load_show_batch("", 1);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].show.show.title, "Alpha Show");
  ASSERT_EQ(first[0].show.episodes.size(), 2u);
  EXPECT_EQ(first[0].show.episodes[0].episode.guid, "a1");
  EXPECT_EQ(first[0].show.episodes[1].episode.guid, "a2");
  EXPECT_EQ(slugs_of(first[0].show).size(), 2u);
  ASSERT_EQ(first[0].categories.size(), 2u);
  EXPECT_EQ(first[0].categories[0].name, "News");
  EXPECT_EQ(first[0].categories[1].slug, "arts");

  const auto second = pages().load_show_batch(first[0].show.slug, 10);
  ASSERT_EQ(second.size(), 1u);
  EXPECT_LT(first[0].show.slug, second[0].show.slug);
  ASSERT_EQ(second[0].show.episodes.size(), 1u);
  EXPECT_EQ(second[0].show.episodes[0].episode.guid, "z1");
  EXPECT_EQ(second[0].show.feed_url, "https://z.example/feed");
  EXPECT_TRUE(pages().load_show_batch(second[0].show.slug, 10).empty());
}

TEST_F(ReadTest, UpdatedAtMovesOnlyWhenSomethingChanged) {
  const auto id = listed_feed("https://a.example/feed");
  feed::Show s = show("Steady");
  s.episodes = {episode("e1", "One", k_now)};
  outcomes().record_success(id, k_meta, s, k_now, k_next);
  outcomes().record_success(id, k_meta, s, k_now + 100, k_next);
  auto stored = pages().load_show("https://a.example/feed").value();
  EXPECT_EQ(stored.added_at, k_now);
  EXPECT_EQ(stored.updated_at, k_now);

  s.episodes.push_back(episode("e0", "Zero", k_now - 100));
  outcomes().record_success(id, k_meta, s, k_now + 200, k_next);
  stored = pages().load_show("https://a.example/feed").value();
  EXPECT_EQ(stored.added_at, k_now);
  EXPECT_EQ(stored.updated_at, k_now + 200);

  s.description = "<p>New words</p>";
  outcomes().record_success(id, k_meta, s, k_now + 300, k_next);
  EXPECT_EQ(pages().load_show("https://a.example/feed")->updated_at, k_now + 300);
}

} // namespace
} // namespace podcrawl::store

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "store_fixture.hpp"

namespace podcrawl::store {
namespace {

constexpr std::int64_t k_now = 1'750'000'000;
constexpr std::int64_t k_next = k_now + 3600;
const FetchMeta k_meta{};

class SearchTest : public StoreTest {
protected:
  void SetUp() override {
    StoreTest::SetUp();
    if (IsSkipped()) {
      return;
    }
    feed::Show english = show("The Learning Podcast", "en-US");
    english.description = "<p>Conversations about <b>libraries</b> and reading.</p>";
    english.episodes = {episode("en-1", "Running a marathon", k_now),
                        episode("en-2", "Gardening basics", k_now - 100)};
    feed::Show arabic = show("المكتبات العربية", "ar");
    arabic.description = "<p>حوارات عن التقنية والقراءة</p>";
    arabic.author = "فريق البودكاست";
    arabic.episodes = {episode("ar-1", "مستقبل التقنية في العالم العربي", k_now)};
    feed::Show russian = show("Истории о книгах", "ru");
    russian.episodes = {episode("ru-1", "Новые писатели", k_now)};
    feed::Show unknown = show("Kitabu cha podcasts", "sw");
    m_english_slug =
        db().record_success(listed_feed("https://en.example/feed"), k_meta, english, k_now, k_next)
            .show_slug;
    m_arabic_slug =
        db().record_success(listed_feed("https://ar.example/feed"), k_meta, arabic, k_now, k_next)
            .show_slug;
    m_russian_slug =
        db().record_success(listed_feed("https://ru.example/feed"), k_meta, russian, k_now, k_next)
            .show_slug;
    m_unknown_slug =
        db().record_success(listed_feed("https://sw.example/feed"), k_meta, unknown, k_now, k_next)
            .show_slug;
  }

  static bool has_show_hit(const std::vector<SearchHit>& hits, const std::string& slug) {
    for (const auto& hit : hits) {
      if (hit.show_slug == slug && hit.episode_slug.empty()) {
        return true;
      }
    }
    return false;
  }

  std::string m_english_slug;
  std::string m_arabic_slug;
  std::string m_russian_slug;
  std::string m_unknown_slug;
};

TEST_F(SearchTest, EnglishQueriesAreStemmed) {
  const auto hits = db().search("podcasts", "en", 10);
  ASSERT_TRUE(has_show_hit(hits, m_english_slug));
  EXPECT_FALSE(has_show_hit(hits, m_arabic_slug));
  EXPECT_EQ(hits.front().show_title, "The Learning Podcast");
  EXPECT_EQ(hits.front().language, "en-US");
  EXPECT_TRUE(has_show_hit(db().search("library", "en", 10), m_english_slug));
}

TEST_F(SearchTest, ArabicQueriesAreStemmed) {
  // "مكتبة" (a library) finds "المكتبات" (the libraries) only through Arabic stemming.
  EXPECT_TRUE(has_show_hit(db().search("مكتبة", "ar", 10), m_arabic_slug));
  EXPECT_TRUE(has_show_hit(db().search("تقنية", "ar", 10), m_arabic_slug));
  EXPECT_FALSE(has_show_hit(db().search("مكتبة", "", 10), m_english_slug));
}

TEST_F(SearchTest, RussianQueriesAreStemmed) {
  // "книга" (a book, nominative) finds "книгах" (books, prepositional plural) only through
  // Russian stemming; "писатель" (a writer) finds "писатели" (writers).
  EXPECT_TRUE(has_show_hit(db().search("книга", "ru", 10), m_russian_slug));
  EXPECT_FALSE(has_show_hit(db().search("книга", "simple", 10), m_russian_slug));
  bool episode_found = false;
  for (const auto& hit : db().search("писатель", "ru", 10)) {
    episode_found = episode_found || (hit.show_slug == m_russian_slug && !hit.episode_slug.empty());
  }
  EXPECT_TRUE(episode_found);
}

TEST_F(SearchTest, WithoutALanguageEachShowIsSearchedInItsOwn) {
  EXPECT_TRUE(has_show_hit(db().search("podcasts", "", 10), m_english_slug));
  EXPECT_TRUE(has_show_hit(db().search("مكتبة", "", 10), m_arabic_slug));
}

TEST_F(SearchTest, ShowsInOtherLanguagesMatchWordForWord) {
  EXPECT_TRUE(has_show_hit(db().search("kitabu", "", 10), m_unknown_slug));
  // No stemming for Swahili: the singular does not find the plural.
  EXPECT_FALSE(has_show_hit(db().search("podcast", "", 10), m_unknown_slug));
}

TEST_F(SearchTest, AShowThatChangesItsLanguageIsSearchedInTheNewOne) {
  feed::Show swahili = show("Kitabu cha podcasts", "sw");
  swahili.description = "<p>Stories about <i>gardens</i></p>";
  const auto feed = listed_feed("https://sw.example/feed");
  db().record_success(feed, k_meta, swahili, k_now + 60, k_next);
  EXPECT_TRUE(has_show_hit(db().search("gardens", "", 10), m_unknown_slug));
  EXPECT_FALSE(has_show_hit(db().search("garden", "", 10), m_unknown_slug));

  feed::Show english = swahili;
  english.language = "en";
  english.effective_language = "en";
  db().record_success(feed, k_meta, english, k_now + 120, k_next);
  EXPECT_TRUE(has_show_hit(db().search("garden", "", 10), m_unknown_slug));
  EXPECT_TRUE(has_show_hit(db().search("podcast", "", 10), m_unknown_slug));
}

TEST_F(SearchTest, EpisodesAreFoundWithTheirShow) {
  const auto hits = db().search("marathons", "en", 10);
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].show_slug, m_english_slug);
  EXPECT_EQ(hits[0].episode_title, "Running a marathon");
  EXPECT_FALSE(hits[0].episode_slug.empty());
  EXPECT_GT(hits[0].rank, 0);

  const auto arabic = db().search("مستقبل", "ar", 10);
  ASSERT_EQ(arabic.size(), 1u);
  EXPECT_EQ(arabic[0].show_slug, m_arabic_slug);
  EXPECT_FALSE(arabic[0].episode_slug.empty());
}

TEST_F(SearchTest, EpisodeNotesAreSearchedAsPlainTextUpToABound) {
  feed::Show notes = show("Kitchen Talk", "en");
  feed::Episode interview = episode("notes-1", "An interview", k_now);
  interview.description =
      "<p>Tom &amp; Jerry&#39;s <a href=\"https://links.example/zebra\">"
      "cheese</a> caf&#xE9; &lt;b&gt;bold&lt;/b&gt;</p>";
  for (int i = 0; i < 1000; ++i) {
    interview.description += "<p>filler</p>";
  }
  interview.description += "<p>zeppelin</p>";
  notes.episodes = {interview};
  db().record_success(listed_feed("https://notes.example/feed"), k_meta, notes, k_now, k_next);
  const auto finds_episode = [&](const char* query) {
    for (const auto& hit : db().search(query, "en", 10)) {
      if (hit.episode_title == "An interview") {
        return true;
      }
    }
    return false;
  };
  // Text and decoded character references of the notes' first part.
  for (const char* query : {"jerry", "tom", "cheese", "café", "bold", "filler"}) {
    EXPECT_TRUE(finds_episode(query)) << query;
  }
  // Markup, reference names, and words past k_max_search_notes_bytes of plain text.
  for (const char* query : {"zebra", "href", "amp", "zeppelin"}) {
    EXPECT_FALSE(finds_episode(query)) << query;
  }
}

TEST_F(SearchTest, EpisodesGoneFromTheirFeedAreNotFound) {
  feed::Show english = show("The Learning Podcast", "en-US");
  english.episodes = {episode("en-2", "Gardening basics", k_now - 100)};
  db().record_success(db().find_feed("https://en.example/feed")->id, k_meta, english, k_now + 10,
                      k_next);
  EXPECT_TRUE(db().search("marathon", "en", 10).empty());
  EXPECT_EQ(db().search("gardening", "en", 10).size(), 1u);
}

TEST_F(SearchTest, ResultsAreLimitedAndEmptyQueriesFindNothing) {
  EXPECT_EQ(db().search("podcasts OR gardening OR marathon", "en", 1).size(), 1u);
  EXPECT_GE(db().search("podcasts OR gardening OR marathon", "en", 10).size(), 3u);
  EXPECT_TRUE(db().search("", "en", 10).empty());
  EXPECT_TRUE(db().search("podcasts", "en", 0).empty());
}

TEST_F(SearchTest, QuerySyntaxFromUsersIsNeverAnError) {
  for (const char* query :
       {"\"unterminated", "a & | ! ( ) :*", "-", "OR", "'; DROP TABLE shows; --"}) {
    EXPECT_NO_THROW(db().search(query, "en", 10)) << query;
  }
  EXPECT_EQ(db().stats().shows, 4);
}

} // namespace
} // namespace podcrawl::store

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <pqxx/pqxx>

#include "podcrawl/store/crawl_history.hpp"
#include "podcrawl/store/crawl_list.hpp"
#include "podcrawl/store/directory_search.hpp"
#include "podcrawl/store/fetch_outcomes.hpp"
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
        outcomes()
            .record_success(listed_feed("https://en.example/feed"), k_meta, english, k_now, k_next)
            .show_slug;
    m_arabic_slug =
        outcomes()
            .record_success(listed_feed("https://ar.example/feed"), k_meta, arabic, k_now, k_next)
            .show_slug;
    m_russian_slug =
        outcomes()
            .record_success(listed_feed("https://ru.example/feed"), k_meta, russian, k_now, k_next)
            .show_slug;
    m_unknown_slug =
        outcomes()
            .record_success(listed_feed("https://sw.example/feed"), k_meta, unknown, k_now, k_next)
            .show_slug;
  }

  // The shows search() finds for `query`, in `language` (all when empty).
  std::vector<model::SearchResult> found(const std::string& query, const std::string& language = "",
                                         std::int64_t limit = 10) {
    return directory_search().search({query, language, 0, limit}).results;
  }

  static bool has_show(const std::vector<model::SearchResult>& results, const std::string& slug) {
    return std::any_of(results.begin(), results.end(),
                       [&](const model::SearchResult& result) { return result.show.slug == slug; });
  }

  // The titles of the episodes listed under `slug` in the results.
  static std::vector<std::string> episode_titles(const std::vector<model::SearchResult>& results,
                                                 const std::string& slug) {
    std::vector<std::string> titles;
    for (const auto& result : results) {
      for (const auto& entry : result.episodes) {
        if (result.show.slug == slug) {
          titles.push_back(entry.episode.title);
        }
      }
    }
    return titles;
  }

  std::string m_english_slug;
  std::string m_arabic_slug;
  std::string m_russian_slug;
  std::string m_unknown_slug;
};

TEST_F(SearchTest, EnglishQueriesAreStemmed) {
  const auto results = found("podcasts");
  EXPECT_FALSE(has_show(results, m_arabic_slug));
  const auto english = std::find_if(results.begin(), results.end(), [&](const auto& result) {
    return result.show.slug == m_english_slug;
  });
  ASSERT_NE(english, results.end());
  EXPECT_EQ(english->show.title, "The Learning Podcast");
  EXPECT_EQ(english->show.language, "en-US");
  EXPECT_TRUE(english->show_matched);
  EXPECT_TRUE(has_show(found("library"), m_english_slug));
}

TEST_F(SearchTest, ArabicQueriesAreStemmed) {
  // "مكتبة" (a library) finds "المكتبات" (the libraries) only through Arabic stemming.
  EXPECT_TRUE(has_show(found("مكتبة"), m_arabic_slug));
  EXPECT_TRUE(has_show(found("تقنية"), m_arabic_slug));
  EXPECT_FALSE(has_show(found("مكتبة"), m_english_slug));
}

TEST_F(SearchTest, RussianQueriesAreStemmed) {
  // "книга" (a book, nominative) finds "книгах" (books, prepositional plural) only through
  // Russian stemming; "писатель" (a writer) finds the episode "Новые писатели" (new writers).
  EXPECT_TRUE(has_show(found("книга"), m_russian_slug));
  const auto writers = found("писатель");
  ASSERT_TRUE(has_show(writers, m_russian_slug));
  EXPECT_FALSE(writers.front().show_matched);
  EXPECT_EQ(episode_titles(writers, m_russian_slug), std::vector<std::string>{"Новые писатели"});
}

TEST_F(SearchTest, ALanguageKeepsShowsOfThatLanguageAndItsRegions) {
  EXPECT_TRUE(has_show(found("podcasts", "en"), m_english_slug));
  EXPECT_TRUE(has_show(found("podcasts", "EN-us"), m_english_slug));
  EXPECT_TRUE(has_show(found("podcasts", "en-GB"), m_english_slug));
  EXPECT_FALSE(has_show(found("podcasts", "e"), m_english_slug));
  EXPECT_FALSE(has_show(found("podcasts", "ar"), m_english_slug));
  EXPECT_TRUE(found("podcasts", "und").empty());
  EXPECT_TRUE(has_show(found("مكتبة", "ar"), m_arabic_slug));
}

TEST_F(SearchTest, ShowsInOtherLanguagesMatchWordForWord) {
  EXPECT_TRUE(has_show(found("kitabu"), m_unknown_slug));
  // No stemming for Swahili: the singular finds the plural only as a word one edit away.
  for (const auto& result : found("podcast cha")) {
    EXPECT_EQ(result.corrected, result.show.slug == m_unknown_slug) << result.show.slug;
  }
}

TEST_F(SearchTest, AShowThatChangesItsLanguageIsSearchedInTheNewOne) {
  feed::Show swahili = show("Kitabu cha podcasts", "sw");
  swahili.description = "<p>Stories about <i>gardens</i></p>";
  const auto feed = listed_feed("https://sw.example/feed");
  outcomes().record_success(feed, k_meta, swahili, k_now + 60, k_next);
  EXPECT_TRUE(has_show(found("gardens"), m_unknown_slug));
  EXPECT_FALSE(has_show(found("garden cha"), m_unknown_slug));

  feed::Show english = swahili;
  english.language = "en";
  english.effective_language = "en";
  outcomes().record_success(feed, k_meta, english, k_now + 120, k_next);
  EXPECT_TRUE(has_show(found("garden cha"), m_unknown_slug));
  EXPECT_TRUE(has_show(found("podcast cha"), m_unknown_slug));
}

TEST_F(SearchTest, EpisodesAreListedUnderTheirShow) {
  const auto results = found("marathons");
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].show.slug, m_english_slug);
  EXPECT_FALSE(results[0].show_matched);
  ASSERT_EQ(results[0].episodes.size(), 1u);
  EXPECT_EQ(results[0].episodes[0].episode.title, "Running a marathon");
  EXPECT_FALSE(results[0].episodes[0].slug.empty());

  const auto arabic = found("مستقبل");
  ASSERT_EQ(arabic.size(), 1u);
  EXPECT_EQ(arabic[0].show.slug, m_arabic_slug);
  EXPECT_EQ(arabic[0].episodes.size(), 1u);
}

TEST_F(SearchTest, ATitleMatchRanksAboveANotesMatchAndAnEpisodeMatch) {
  feed::Show titled = show("Beekeeping Hour", "en");
  feed::Show described = show("Country Life", "en");
  described.description = "<p>Beekeeping, orchards and barns.</p>";
  feed::Show episodic = show("Farm Radio", "en");
  episodic.episodes = {episode("farm-1", "Beekeeping in winter", k_now)};
  // Stored in the reverse of the order expected, the newest first.
  const auto episodic_slug =
      outcomes()
          .record_success(listed_feed("https://bees.example/3"), k_meta, episodic, k_now, k_next)
          .show_slug;
  const auto described_slug = outcomes()
                                  .record_success(listed_feed("https://bees.example/2"), k_meta,
                                                  described, k_now - 10, k_next)
                                  .show_slug;
  const auto titled_slug =
      outcomes()
          .record_success(listed_feed("https://bees.example/1"), k_meta, titled, k_now - 20, k_next)
          .show_slug;
  const auto results = found("beekeeping");
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].show.slug, titled_slug);
  EXPECT_EQ(results[1].show.slug, described_slug);
  EXPECT_EQ(results[2].show.slug, episodic_slug);
  EXPECT_TRUE(results[1].show_matched);
  EXPECT_FALSE(results[2].show_matched);
}

TEST_F(SearchTest, WordsAreFoundHoweverTheyAreTyped) {
  const auto slug_of = [&](const std::string& url, const std::string& title,
                           const std::string& language) {
    return outcomes()
        .record_success(listed_feed(url), k_meta, show(title, language), k_now, k_next)
        .show_slug;
  };
  const auto japanese = slug_of("https://ja.example/1", "まいにちテック雑談", "ja");
  const auto arabic = slug_of("https://ar.example/2", "المقهى العلمي", "ar");
  const auto persian = slug_of("https://fa.example/1", "رادیو کتاب‌خوان", "fa");
  const auto french = slug_of("https://fr.example/1", "Le Coin des Curieux", "fr");
  const auto russian = slug_of("https://ru.example/2", "Подлодка", "ru");
  const struct {
    const char* query;
    std::string slug;
  } cases[] = {
      {"テック", japanese},   {"雑談", japanese},  {"てっく", japanese},  {"mainichi", japanese},
      {"ﾃｯｸ", japanese},      {"المقهي", arabic},  {"كتاب", persian},     {"کتابخوان", persian},
      {"كتاب خوان", persian}, {"Curieux", french}, {"CURIEUX", french},   {"curi", french},
      {"coin curi", french},  {"Curieuz", french}, {"podlodka", russian}, {"подлодк", russian},
      {"Сurieux", french}, // Cyrillic С: one edit away
  };
  for (const auto& c : cases) {
    EXPECT_TRUE(has_show(found(c.query), c.slug)) << c.query;
  }
  for (const char* nothing : {"cu", "テ", "xyzzy", "Curieuxxx", "Coin Curieux Zebra"}) {
    EXPECT_FALSE(has_show(found(nothing), french)) << nothing;
  }
  const auto corrected = found("Curieuz");
  ASSERT_FALSE(corrected.empty());
  EXPECT_TRUE(corrected.front().corrected);
  EXPECT_FALSE(found("curieux").front().corrected);
}

TEST_F(SearchTest, ALastWordTypedSoFarFollowsWordsReadInTheShowsLanguage) {
  // Spanish stems "cocinas" to the "cocin" of the title and drops "con" as a stop word; the last
  // word is also read as the start of a word ("conversaciones").
  const auto spanish = outcomes()
                           .record_success(listed_feed("https://es.example/1"), k_meta,
                                           show("Cocina y conversaciones", "es"), k_now, k_next)
                           .show_slug;
  for (const char* query : {"cocinas conv", "cocinas con", "cocina conversaciones", "cocinas"}) {
    EXPECT_TRUE(has_show(found(query), spanish)) << query;
  }
  for (const char* query : {"cocinas conz", "cocinas learning", "learning conv"}) {
    EXPECT_FALSE(has_show(found(query), spanish)) << query;
  }
  EXPECT_FALSE(has_show(found("cocinas conv"), m_english_slug));
}

TEST_F(SearchTest, ReindexRewritesEveryRowFromItsText) {
  // As a database migrated from before: vectors of the raw text, no analysed text.
  outcomes().record_success(listed_feed("https://ja.example/1"), k_meta,
                            show("まいにちテック雑談", "ja"), k_now, k_next);
  {
    pqxx::connection connection(database_url());
    pqxx::work txn(connection);
    txn.exec0(
        "UPDATE shows SET search_title = NULL, search_author = NULL,"
        " search_vector = to_tsvector('simple', title)");
    txn.exec0(
        "UPDATE episodes SET search_title = NULL, search_vector = to_tsvector('simple', title)");
    txn.exec0("TRUNCATE search_words");
    txn.commit();
  }
  EXPECT_TRUE(found("雑談").empty());
  EXPECT_TRUE(found("Marahton").empty());
  std::vector<std::pair<std::int64_t, std::int64_t>> steps;
  directory_search().reindex(
      2, [&](std::int64_t done, std::int64_t total) { steps.emplace_back(done, total); });
  ASSERT_FALSE(steps.empty());
  EXPECT_EQ(steps.back().first, steps.back().second);
  EXPECT_EQ(steps.back().first, history().stats().shows + history().stats().episodes);
  EXPECT_GT(steps.size(), 2u);
  EXPECT_FALSE(found("雑談").empty());
  EXPECT_TRUE(has_show(found("Marathon"), m_english_slug));
  EXPECT_TRUE(has_show(found("Marahton"), m_english_slug)); // the vocabulary is back
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
  const auto slug =
      outcomes()
          .record_success(listed_feed("https://notes.example/feed"), k_meta, notes, k_now, k_next)
          .show_slug;
  const auto finds_episode = [&](const char* query) {
    const auto titles = episode_titles(found(query, "en"), slug);
    return std::find(titles.begin(), titles.end(), "An interview") != titles.end();
  };
  // Text and decoded character references of the notes' first part.
  for (const char* query : {"jerry", "tom", "cheese", "café", "cafe", "bold", "filler"}) {
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
  outcomes().record_success(crawl_list().find_feed("https://en.example/feed")->id, k_meta, english,
                            k_now + 10, k_next);
  EXPECT_TRUE(found("marathon").empty());
  EXPECT_EQ(episode_titles(found("gardening"), m_english_slug),
            std::vector<std::string>{"Gardening basics"});
}

TEST_F(SearchTest, ResultsAreLimitedAndEmptyQueriesFindNothing) {
  EXPECT_EQ(found("podcast", "", 1).size(), 1u);
  EXPECT_EQ(found("podcast", "", 10).size(), 2u); // The Learning Podcast, Kitabu cha podcasts
  EXPECT_TRUE(found("").empty());
  EXPECT_TRUE(found(" \t ").empty());
  EXPECT_TRUE(found("podcasts", "", 0).empty());
  EXPECT_TRUE(directory_search().search({std::string(201, 'a'), "", 0, 10}).too_long);
}

TEST_F(SearchTest, ASearchRanksAtMostTheCandidatesItAsksFor) {
  model::SearchRequest request{"podcast", "", 0, 10};
  const model::SearchPage all = directory_search().search(request);
  EXPECT_EQ(all.results.size(), 2u);
  EXPECT_FALSE(all.more);
  request.candidates = 1;
  const model::SearchPage one = directory_search().search(request);
  ASSERT_EQ(one.results.size(), 1u);
  EXPECT_TRUE(one.more); // a second show matched and was not ranked
  EXPECT_EQ(directory_search().find_shows(request).size(), 1u);
  request.candidates = 0; // read as 1: a search always ranks something
  EXPECT_EQ(directory_search().find_shows(request).size(), 1u);
}

TEST_F(SearchTest, QuerySyntaxFromUsersIsNeverAnError) {
  for (const char* query : {"\"unterminated", "a & | ! ( ) :*", "-", "OR",
                            "'; DROP TABLE shows; --", "\\", "'", "the", ":*", "<->"}) {
    EXPECT_NO_THROW(found(query)) << query;
  }
  EXPECT_EQ(history().stats().shows, 4);
}

} // namespace
} // namespace podcrawl::store

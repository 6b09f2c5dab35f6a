#include "podcrawl/model/pages.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <pqxx/pqxx>

#include "podcrawl/core/error.hpp"
#include "podcrawl/store/crawl_list.hpp"
#include "podcrawl/store/directory_pages.hpp"
#include "podcrawl/store/directory_search.hpp"
#include "podcrawl/store/fetch_outcomes.hpp"
#include "store_fixture.hpp"

namespace podcrawl::store {
namespace {

constexpr std::int64_t k_now = 1'750'000'000;
constexpr std::int64_t k_next = k_now + 3600;
const FetchMeta k_meta{};

class PagesTest : public StoreTest {
protected:
  // Store a show with `episodes` dated episodes (the newest at k_now) and return its slug.
  std::string stored_show(const std::string& title, const std::string& language,
                          std::vector<std::string> categories, int episodes = 1) {
    const auto id = listed_feed("https://feeds.example/" + std::to_string(m_feeds++) + ".xml");
    feed::Show s = show(title, language);
    s.categories = std::move(categories);
    for (int i = 0; i < episodes; ++i) {
      s.episodes.push_back(
          episode(title + "-" + std::to_string(i), title + " " + std::to_string(i), k_now - i));
    }
    return outcomes().record_success(id, k_meta, s, k_now, k_next).show_slug;
  }

  int m_feeds = 0;
};

std::vector<std::string> titles_of(const model::ShowListPage& list) {
  std::vector<std::string> titles;
  for (const auto& show : list.shows) {
    titles.push_back(show.title);
  }
  return titles;
}

// Episodes compared by what identifies them and what a page shows of them.
std::vector<std::string> episode_keys(const std::vector<feed::Episode>& episodes) {
  std::vector<std::string> keys;
  for (const auto& e : episodes) {
    keys.push_back(e.guid + "|" + e.title + "|" + std::to_string(e.published.value_or(-1)) + "|" +
                   e.description);
  }
  return keys;
}

TEST_F(PagesTest, CategoryPagesListTheirShowsByTitleAHundredAPage) {
  for (int i = 0; i < 105; ++i) {
    char title[16];
    std::snprintf(title, sizeof title, "Show %03d", 104 - i);
    stored_show(title, "en", {"Technology"});
  }
  stored_show("Elsewhere", "en", {"News"});
  const auto first = pages().load_category_page("technology", 1);
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->total, 105);
  EXPECT_EQ(first->category.name, "Technology");
  ASSERT_EQ(first->shows.size(), 100u);
  EXPECT_EQ(first->shows.front().title, "Show 000");
  EXPECT_EQ(first->shows.back().title, "Show 099");
  EXPECT_EQ(first->shows.front().episode_count, 1);
  const auto second = pages().load_category_page("technology", 2);
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(titles_of(*second),
            (std::vector<std::string>{"Show 100", "Show 101", "Show 102", "Show 103", "Show 104"}));
  EXPECT_FALSE(pages().load_category_page("technology", 3).has_value());
  EXPECT_FALSE(pages().load_category_page("technology", 0).has_value());
  EXPECT_FALSE(pages().load_category_page("no-such-category", 1).has_value());
}

TEST_F(PagesTest, SpellingsWithOneSlugAreOneCategoryNamedAsFirstStored) {
  stored_show("Alpha", "ar", {"Tech News"});
  stored_show("Beta", "en", {"tech news"});
  const auto list = pages().load_category_page("tech-news", 1);
  ASSERT_TRUE(list.has_value());
  EXPECT_EQ(list->total, 2);
  EXPECT_EQ(list->category.name, "Tech News");
  EXPECT_EQ(list->category.language, "ar");
  EXPECT_EQ(titles_of(*list), (std::vector<std::string>{"Alpha", "Beta"}));
}

TEST_F(PagesTest, AShowListsEachOfItsCategorySlugsOnceWhereTheFeedFirstNamesIt) {
  stored_show("Alpha", "en", {"Tech News"});
  const std::string slug = stored_show("Beta", "en", {"Zeta", "tech news", "Arts", "TECH NEWS"});
  const auto names_of = [](const std::vector<model::CategoryEntry>& categories) {
    std::vector<std::string> names;
    for (const auto& category : categories) {
      names.push_back(category.slug + "=" + category.name);
    }
    return names;
  };
  const std::vector<std::string> expected{"zeta=Zeta", "tech-news=Tech News", "arts=Arts"};
  const auto page = pages().load_show_page(slug, 1);
  ASSERT_TRUE(page.has_value());
  EXPECT_EQ(names_of(page->categories), expected);
  const auto whole = pages().load_show_pages(slug);
  ASSERT_TRUE(whole.has_value());
  EXPECT_EQ(names_of(whole->categories), expected);
}

TEST_F(PagesTest, LanguagePagesListEveryRegionTogetherAndChineseByScript) {
  stored_show("Uno", "pt-BR", {"News"});
  stored_show("Dos", "pt-br", {"News"});
  stored_show("Tres", "pt", {"News"});
  stored_show("Quatro", "pt_PT", {"News"});
  stored_show("Taipei", "zh-TW", {"News"});
  stored_show("Hong Kong", "zh-Hant-HK", {"News"});
  stored_show("Beijing", "zh-CN", {"News"});
  stored_show("Bad", "<script>", {"News"});
  const auto list = pages().load_language_page("pt", 1);
  ASSERT_TRUE(list.has_value());
  EXPECT_EQ(list->total, 4);
  EXPECT_EQ(titles_of(*list), (std::vector<std::string>{"Dos", "Quatro", "Tres", "Uno"}));
  EXPECT_FALSE(pages().load_language_page("pt-br", 1).has_value());
  const auto traditional = pages().load_language_page("zh-hant", 1);
  ASSERT_TRUE(traditional.has_value());
  EXPECT_EQ(titles_of(*traditional), (std::vector<std::string>{"Hong Kong", "Taipei"}));
  const auto languages = pages().load_languages("", 10);
  ASSERT_EQ(languages.size(), 3u);
  EXPECT_EQ(languages[0].tag, "pt");
  EXPECT_EQ(languages[0].show_count, 4);
  EXPECT_EQ(languages[1].tag, "zh-hans");
  EXPECT_EQ(languages[2].tag, "zh-hant");
  EXPECT_FALSE(pages().load_language_page("<script>", 1).has_value());
}

TEST_F(PagesTest, ShowsStoredBeforeLanguageGroupsGetTheirsFromMigrate) {
  stored_show("Cairo", "ar-EG", {"News"});
  stored_show("Rabat", "ar-MA", {"News"});
  {
    pqxx::connection connection(url());
    pqxx::work txn(connection);
    txn.exec0("UPDATE shows SET language_group = NULL");
    txn.commit();
  }
  EXPECT_FALSE(pages().load_language_page("ar", 1).has_value());
  db().migrate(k_sql_dir);
  const auto arabic = pages().load_language_page("ar", 1);
  ASSERT_TRUE(arabic.has_value());
  EXPECT_EQ(arabic->total, 2);
}

TEST_F(PagesTest, TheHomePageCountsShowsCategoriesAndLanguagesAndListsTheNewestEpisodes) {
  stored_show("Alpha", "en", {"News", "Technology"}, 15);
  stored_show("Beta", "ar", {"News"}, 15);
  const model::HomePage home = pages().load_home_page();
  EXPECT_EQ(home.show_count, 2);
  ASSERT_EQ(home.latest.size(), static_cast<std::size_t>(model::k_latest_episodes));
  for (std::size_t i = 1; i < home.latest.size(); ++i) {
    EXPECT_GE(home.latest[i - 1].episode.published.value(),
              home.latest[i].episode.published.value());
  }
  EXPECT_EQ(home.latest[0].show_title, "Alpha");
  EXPECT_EQ(home.latest[1].show_title, "Beta");
  ASSERT_EQ(home.categories.size(), 2u);
  EXPECT_EQ(home.categories[0].slug, "news");
  EXPECT_EQ(home.categories[0].show_count, 2);
  EXPECT_EQ(home.categories[1].slug, "technology");
  ASSERT_EQ(home.languages.size(), 2u);
}

TEST_F(PagesTest, AShowPageHoldsOnePageOfEpisodesAndEqualsTheSameSliceOfTheWholeShow) {
  const std::string slug = stored_show("Long", "en", {"News", "Arts"}, 120);
  const auto whole = pages().load_show_batch("", 1).at(0);
  ASSERT_EQ(whole.show.episodes.size(), 120u);
  for (std::int64_t page = 1; page <= 3; ++page) {
    const auto loaded = pages().load_show_page(slug, page);
    ASSERT_TRUE(loaded.has_value()) << page;
    const model::ShowPage sliced = model::show_page_of(whole, page);
    EXPECT_EQ(loaded->episode_count, 120);
    EXPECT_EQ(slugs_of(loaded->show), slugs_of(sliced.show)) << page;
    EXPECT_EQ(episode_keys(episodes_of(loaded->show)), episode_keys(episodes_of(sliced.show)))
        << page;
    ASSERT_EQ(loaded->categories.size(), 2u);
    EXPECT_EQ(loaded->categories[1].name, "Arts");
  }
  EXPECT_EQ(pages().load_show_page(slug, 3)->show.episodes.size(), 20u);
  EXPECT_FALSE(pages().load_show_page(slug, 4).has_value());
  const auto episode = pages().load_episode_page(slug, slugs_of(whole.show)[7]);
  ASSERT_TRUE(episode.has_value());
  EXPECT_EQ(episode_keys(episodes_of(episode->show)),
            episode_keys(episodes_of(model::episode_page_of(whole, 7).show)));
  EXPECT_FALSE(pages().load_episode_page(slug, "no-such-episode").has_value());
}

TEST_F(PagesTest, RemovedShowsAndUntitledShowsHaveNoPages) {
  const std::string slug = stored_show("Leaving", "en", {"News"});
  stored_show("", "en", {"News"});
  ASSERT_TRUE(pages().load_show_page(slug, 1).has_value());
  ASSERT_TRUE(crawl_list().remove_feed("https://feeds.example/0.xml"));
  EXPECT_FALSE(pages().load_show_page(slug, 1).has_value());
  EXPECT_FALSE(pages().load_category_page("news", 1).has_value());
  EXPECT_EQ(pages().load_home_page().show_count, 0);
  EXPECT_TRUE(pages().load_show_batch("", 10).empty());
}

TEST_F(PagesTest, OneShowLoadsAsInABatch) {
  const std::string slug = stored_show("Single", "en", {"News"}, 3);
  const auto one = pages().load_show_pages(slug);
  ASSERT_TRUE(one.has_value());
  const auto batch = pages().load_show_batch("", 10);
  ASSERT_EQ(batch.size(), 1u);
  EXPECT_EQ(one->show.slug, batch[0].show.slug);
  EXPECT_EQ(slugs_of(one->show), slugs_of(batch[0].show));
  EXPECT_EQ(episode_keys(episodes_of(one->show)), episode_keys(episodes_of(batch[0].show)));
  ASSERT_EQ(one->categories.size(), 1u);
  EXPECT_FALSE(pages().load_show_pages("no-such-show").has_value());
}

TEST_F(PagesTest, SearchPagesListEachShowOnceWithItsEpisodesTwentyAPage) {
  const std::string garden = stored_show("Gardening weekly", "en", {"Leisure"}, 25);
  const std::string removed = stored_show("Gardens of Babylon", "en", {"History"}, 1);
  ASSERT_TRUE(crawl_list().remove_feed("https://feeds.example/1.xml"));
  for (int i = 0; i < 24; ++i) {
    stored_show("Garden notes " + std::to_string(i), "en", {"Leisure"});
  }

  // English stemming: "gardens" finds "Gardening"; the removed show is not listed.
  const auto first = directory_search().load_search_page("  gardens\t", 1);
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->query, "gardens");
  EXPECT_EQ(first->total, 25);
  EXPECT_FALSE(first->more);
  ASSERT_EQ(first->results.size(), 20u);
  const auto second = directory_search().load_search_page("gardens", 2);
  ASSERT_TRUE(second.has_value());
  ASSERT_EQ(second->results.size(), 5u);
  EXPECT_FALSE(directory_search().load_search_page("gardens", 3).has_value());
  EXPECT_FALSE(directory_search().load_search_page("gardens", 0).has_value());

  // Each show once, matched by its own title, with its best matching episodes under it.
  std::set<std::string> slugs;
  for (const auto* page : {&*first, &*second}) {
    for (const auto& result : page->results) {
      EXPECT_TRUE(slugs.insert(result.show.slug).second) << result.show.slug;
      EXPECT_TRUE(result.show_matched);
      EXPECT_NE(result.show.slug, removed);
      if (result.show.slug == garden) {
        EXPECT_EQ(result.show.episode_count, 25);
        ASSERT_EQ(result.episodes.size(),
                  static_cast<std::size_t>(model::k_search_episodes_per_show));
        for (const auto& entry : result.episodes) {
          EXPECT_EQ(entry.show_slug, garden);
          EXPECT_TRUE(entry.episode.title.starts_with("Gardening weekly "));
        }
      }
    }
  }
  EXPECT_TRUE(slugs.contains(garden));

  // Each show is read in its own language: French stemming finds "Cuisines" by "cuisine".
  const std::string french = stored_show("Cuisines du monde", "fr", {"Arts"}, 2);
  const auto cuisine = directory_search().load_search_page("cuisine", 1);
  ASSERT_TRUE(cuisine.has_value());
  ASSERT_EQ(cuisine->total, 1);
  EXPECT_EQ(cuisine->results[0].show.slug, french);
  EXPECT_EQ(cuisine->results[0].episodes.size(), 2u);
}

TEST_F(PagesTest, SearchPagesForEmptyLongOrHostileWordsAskForOthers) {
  stored_show("Anything", "en", {"News"});
  const auto empty = directory_search().load_search_page(" \t\n", 1);
  ASSERT_TRUE(empty.has_value());
  EXPECT_TRUE(empty->query.empty());
  EXPECT_EQ(empty->total, 0);
  EXPECT_FALSE(directory_search().load_search_page("", 2).has_value());

  const auto long_query = directory_search().load_search_page(std::string(201, 'a'), 1);
  ASSERT_TRUE(long_query.has_value());
  EXPECT_TRUE(long_query->too_long);
  EXPECT_TRUE(long_query->results.empty());
  // Characters, not bytes: 200 Arabic letters are a search.
  std::string arabic;
  for (int i = 0; i < 200; ++i) {
    arabic += "\xD8\xA8";
  }
  EXPECT_FALSE(directory_search().load_search_page(arabic, 1)->too_long);

  for (const std::string& words :
       {std::string("\"'&|!:*()<>\\"), std::string("a\xff\xfe b"), std::string("x\0y", 3),
        std::string("!!! ---"), std::string("the"), std::string("anything') OR 1=1 --")}) {
    SCOPED_TRACE(words);
    const auto page = directory_search().load_search_page(words, 1);
    ASSERT_TRUE(page.has_value());
  }
  const auto anything = directory_search().load_search_page("anything", 1);
  ASSERT_EQ(anything->total, 1); // the show, its episode under it
  EXPECT_EQ(anything->results.at(0).episodes.size(), 1u);
}

TEST_F(PagesTest, ShowsLoadBySlugsLeavingOutThoseNotListed) {
  const std::string first = stored_show("First", "en", {"News"}, 2);
  const std::string second = stored_show("Second", "en", {"News"}, 1);
  const auto batch = pages().load_show_pages(
      std::vector<std::string>{second, "no-such-show", "quote\"and\\slash", first});
  ASSERT_EQ(batch.size(), 2u);
  std::set<std::string> slugs{batch[0].show.slug, batch[1].show.slug};
  EXPECT_EQ(slugs, (std::set<std::string>{first, second}));
  for (const auto& show : batch) {
    EXPECT_EQ(show.show.episodes.size(), show.show.slug == first ? 2u : 1u);
    EXPECT_EQ(show.categories.size(), 1u);
  }
  EXPECT_TRUE(pages().load_show_pages(std::vector<std::string>{}).empty());
}

TEST_F(PagesTest, ShowsChangedSinceASnapshotIncludeEverySaveAndRemovalAfterIt) {
  const std::string kept = stored_show("Kept", "en", {"News"});
  const std::string before = pages().directory_snapshot();
  const std::string added = stored_show("Added", "en", {"News"});
  const auto after_add = pages().shows_changed_since(before);
  EXPECT_NE(std::find(after_add.begin(), after_add.end(), added), after_add.end());

  const std::string before_removal = pages().directory_snapshot();
  ASSERT_TRUE(crawl_list().remove_feed("https://feeds.example/0.xml"));
  const auto after_removal = pages().shows_changed_since(before_removal);
  EXPECT_NE(std::find(after_removal.begin(), after_removal.end(), kept), after_removal.end());
  EXPECT_FALSE(pages().load_show_pages(kept).has_value());
  EXPECT_TRUE(std::is_sorted(after_removal.begin(), after_removal.end()));

  EXPECT_THROW(pages().shows_changed_since("12; DROP TABLE shows"), core::UsageError);
  EXPECT_THROW(pages().shows_changed_since(""), core::UsageError);
}

} // namespace
} // namespace podcrawl::store

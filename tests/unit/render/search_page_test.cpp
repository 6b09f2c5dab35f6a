// A page of the live directory's search: its results, the words searched in every link, and the
// pages that ask for words.
#include <gtest/gtest.h>

#include <string>

#include "page_fixture.hpp"

namespace podcrawl::render {
namespace {

class RenderSearchPage : public PageTest {};

// A page of search results: shows, one with a matching episode under it, the words isolated
// and escaped, every link (pages, locales) carrying the words, nothing for crawlers to index.
TEST_F(RenderSearchPage, ListsShowsWithTheirEpisodesAndKeepsTheWordsInEveryLink) {
  const model::StoredShow show = hello_world_tech();
  model::SearchPage results;
  results.query = "compilers <b>";
  results.page = 2;
  results.total = 45;
  const model::ShowSummary summary{show.slug, show.show.title, show.show.author, "en",
                                   83,        std::nullopt};
  results.results.push_back({summary, true, false, {}});
  results.results.push_back(
      {summary,
       false,
       false,
       {model::EpisodeEntry{show.slug, show.show.title, "en", show.episodes[3].slug,
                            show.episodes[3].episode}}});
  const std::string html = m_renderer.search_page(results, "ar", k_now).html;
  EXPECT_EQ(html.rfind("<!DOCTYPE html>\n<html lang=\"ar\" dir=\"rtl\">", 0), 0U);
  EXPECT_NE(html.find("<meta name=\"robots\" content=\"noindex\">"), std::string::npos);
  EXPECT_EQ(html.find("rel=\"canonical\""), std::string::npos);
  EXPECT_NE(
      html.find("<h1>نتائج البحث عن <bdi dir=\"auto\">compilers &lt;b&gt;</bdi> · الصفحة 2</h1>"),
      std::string::npos);
  EXPECT_EQ(html.find("<b>"), std::string::npos);
  EXPECT_NE(html.find("45 نتيجة"), std::string::npos);
  // Each show, the second with its matching episode in a list under it.
  const std::string show_anchor =
      "<a href=\"../../../podcasts/hello-world-tech/\"><bdi lang=\"en\">Hello World "
      "Tech</bdi></a>";
  const auto first_show = html.find(show_anchor);
  ASSERT_NE(first_show, std::string::npos);
  const auto second_show = html.find(show_anchor, first_show + 1);
  ASSERT_NE(second_show, std::string::npos);
  const auto matches = html.find("<ul class=\"matches\">");
  const auto episode_link =
      html.find("<a href=\"../../../podcasts/hello-world-tech/episode-80/\">");
  ASSERT_NE(matches, std::string::npos);
  ASSERT_NE(episode_link, std::string::npos);
  EXPECT_LT(second_show, matches);
  EXPECT_LT(matches, episode_link);
  EXPECT_EQ(html.find("<ul class=\"matches\">", matches + 1), std::string::npos);
  // Three pages of 20: the first, this one, the last; each link keeps the words.
  EXPECT_NE(html.find("href=\"../../?q=compilers+%3Cb%3E\" rel=\"prev\""), std::string::npos);
  EXPECT_NE(html.find("href=\"../3/?q=compilers+%3Cb%3E\" rel=\"next\""), std::string::npos);
  EXPECT_NE(html.find("<a aria-current=\"page\">2</a>"), std::string::npos);
  EXPECT_NE(html.find("href=\"../../../../en/search/page/2/?q=compilers+%3Cb%3E\""),
            std::string::npos);
  // The header's form shows the words, and is sent to the locale's search page.
  EXPECT_NE(html.find("action=\"../../\" method=\"get\""), std::string::npos);
  EXPECT_NE(html.find("name=\"q\" value=\"compilers &lt;b&gt;\""), std::string::npos);
}

TEST_F(RenderSearchPage, AnEmptyOrTooLongQueryGetsAPageThatAsksForWords) {
  model::SearchPage empty;
  const std::string asking = m_renderer.search_page(empty, "en", k_now).html;
  EXPECT_NE(asking.find("<h1>Search</h1>"), std::string::npos);
  EXPECT_NE(asking.find("<p>Type a few words to search"), std::string::npos);
  EXPECT_EQ(asking.find("class=\"pagination\""), std::string::npos);

  model::SearchPage long_query;
  long_query.query = std::string(300, 'x');
  long_query.too_long = true;
  const std::string shorten = m_renderer.search_page(long_query, "en", k_now).html;
  EXPECT_NE(shorten.find("at most 200 characters long"), std::string::npos);
  EXPECT_EQ(shorten.find("?q=xxx"), std::string::npos);

  model::SearchPage nothing;
  nothing.query = "zzzz";
  const std::string none = m_renderer.search_page(nothing, "en", k_now).html;
  EXPECT_NE(none.find("Nothing in the directory matches"), std::string::npos);
  EXPECT_EQ(none.find("class=\"results\""), std::string::npos);
}

} // namespace
} // namespace podcrawl::render

// A locale's home page: the directory's counts, its newest episodes across shows, its categories
// and content languages, and how long its bytes stay true.
#include <gtest/gtest.h>

#include <string>

#include "page_fixture.hpp"

namespace podcrawl::render {
namespace {

class RenderHomePage : public PageTest {};

TEST_F(RenderHomePage, ListsTheLatestEpisodesAcrossShows) {
  const std::string html = home("en");
  const auto section = html.find("<h2 id=\"latest-episodes\">Latest episodes</h2>");
  ASSERT_NE(section, std::string::npos);
  // The hostile show's episode is two hours old, Hello World Tech's newest five weeks.
  const auto newest = html.find("href=\"podcasts/script-show/first/\"", section);
  const auto next = html.find("href=\"podcasts/hello-world-tech/episode-83/\"", section);
  ASSERT_NE(newest, std::string::npos);
  ASSERT_NE(next, std::string::npos);
  EXPECT_LT(newest, next);
  EXPECT_NE(html.find(">2 hours ago</time>", section), std::string::npos);
}

// The Arabic show's own category "تقنية" is no Apple category: shown as the feed spells it.
TEST_F(RenderHomePage, ShowsOtherThanApplesCategoriesInTheFeedsLanguage) {
  EXPECT_NE(home("en").find("<bdi lang=\"ar\">تقنية</bdi>"), std::string::npos);
}

// Three shows: two in Technology, one each in English and Arabic (the hostile show declares no
// language), counted with the locale's plurals; the categories in the order of their names.
TEST_F(RenderHomePage, CountsTheShowsOfTheDirectoryAndOfEachListing) {
  const std::string english = home("en");
  EXPECT_NE(english.find("<p class=\"meta\">3 podcasts</p>"), std::string::npos);
  EXPECT_NE(
      english.find("<li><a href=\"categories/tech-news/\"><bdi lang=\"en\">Tech News</bdi></a> "
                   "<span class=\"meta\">1 podcast</span></li>\n"
                   "<li><a href=\"categories/technology/\"><bdi lang=\"en\">Technology</bdi></a> "
                   "<span class=\"meta\">2 podcasts</span></li>"),
      std::string::npos)
      << english;
  EXPECT_NE(english.find("<li><a href=\"languages/ar/\">Arabic</a> <span class=\"meta\">1 "
                         "podcast</span></li>\n<li><a href=\"languages/en/\">English</a>"),
            std::string::npos);
  const std::string arabic = home("ar");
  EXPECT_NE(arabic.find("<p class=\"meta\">3 برامج</p>"), std::string::npos);
  // Two, in Arabic's dual; Apple's Technology is named in Arabic, and sorts first.
  EXPECT_NE(arabic.find("<li><a href=\"categories/technology/\"><bdi lang=\"ar\">تقنية</bdi></a> "
                        "<span class=\"meta\">برنامجان</span></li>\n"
                        "<li><a href=\"categories/tqnyt/\">"),
            std::string::npos)
      << arabic;
  EXPECT_NE(arabic.find("<li><a href=\"languages/en/\">الإنجليزية</a> <span "
                        "class=\"meta\">برنامج واحد</span></li>"),
            std::string::npos);
}

// The newest episode is two hours old: its "2 hours ago" reads otherwise in an hour.
TEST_F(RenderHomePage, ExpiresWhenItsNewestEpisodesPhraseChanges) {
  const RenderedPage page = m_renderer.home_page(m_directory.home, "ar", k_now);
  EXPECT_EQ(page.expires_at, k_now + 3600);
  EXPECT_EQ(m_renderer.home_page(m_directory.home, "ar", page.expires_at - 1).html, page.html);
  EXPECT_NE(m_renderer.home_page(m_directory.home, "ar", page.expires_at).html, page.html);
}

} // namespace
} // namespace podcrawl::render

// A list of shows, of a category or of a language: its heading, counts, entries and their cover
// art, and the links between its pages.
#include <gtest/gtest.h>

#include <string>

#include "page_fixture.hpp"

namespace podcrawl::render {
namespace {

class RenderListPage : public PageTest {
protected:
  // Page `page` of a list of `total` shows of the Technology category, holding only Hello
  // World Tech: a list page shows the entries its model holds.
  model::ShowListPage technology_page(std::int64_t page, std::int64_t total) const {
    model::ShowListPage list = list_of(model::ListKind::category, "technology");
    list.page = page;
    list.total = total;
    std::erase_if(list.shows, [](const auto& show) { return show.slug != "hello-world-tech"; });
    return list;
  }
};

TEST_F(RenderListPage, HeadsACategoryWithItsLocalizedName) {
  EXPECT_NE(list(model::ListKind::category, "technology", "ar")
                .find("<h1>البودكاست في تصنيف <bdi lang=\"ar\">تقنية</bdi></h1>"),
            std::string::npos);
}

TEST_F(RenderListPage, ShowsEachShowsCoverArtSmall) {
  const std::string prefix = std::string("art/") + k_art_hash + "-";
  const std::string html = list(model::ListKind::category, "technology", "en");
  EXPECT_NE(html.find("src=\"../../../" + prefix + "160.webp\" srcset=\""), std::string::npos)
      << html;
  EXPECT_NE(html.find("sizes=\"64px\" width=\"160\" height=\"160\""), std::string::npos);
}

// A language page lists the shows of every region of its language, each labelled with its
// region in the reader's language.
TEST_F(RenderListPage, LabelsEachShowOfALanguageWithItsRegion) {
  model::ShowListPage arabic_shows;
  arabic_shows.kind = model::ListKind::language;
  arabic_shows.language = {"ar", 2};
  arabic_shows.total = 2;
  arabic_shows.shows = {{"cairo", "Cairo Nights", "", "ar-EG", 3, std::nullopt},
                        {"plain", "Plain Arabic", "", "ar", 1, std::nullopt}};
  const std::string english = m_renderer.list_page(arabic_shows, "en", k_now).html;
  EXPECT_NE(english.find("<h1>"), std::string::npos);
  EXPECT_NE(english.find(" <span class=\"meta\">Egypt</span>"), std::string::npos);
  EXPECT_EQ(english.find("Egypt", english.find("Plain Arabic")), std::string::npos);
  const std::string arabic = m_renderer.list_page(arabic_shows, "ar", k_now).html;
  EXPECT_NE(arabic.find("<span class=\"meta\">مصر</span>"), std::string::npos);
}

// 250 shows take three pages of 100. The middle one links both neighbours and every page
// (the first at the list's own address), names its number and counts the whole list.
TEST_F(RenderListPage, LinksThePagesOfALongList) {
  const std::string html = m_renderer.list_page(technology_page(2, 250), "en", k_now).html;
  EXPECT_NE(html.find("<title>Podcasts in \u2068Technology\u2069 – Page 2 – podcrawl</title>"),
            std::string::npos);
  EXPECT_NE(html.find("<h1>Podcasts in <bdi lang=\"en\">Technology</bdi> · Page 2</h1>"),
            std::string::npos);
  EXPECT_NE(html.find("<p class=\"meta\">250 podcasts</p>"), std::string::npos);
  EXPECT_NE(html.find("<link rel=\"canonical\" "
                      "href=\"https://podcasts.example/en/categories/technology/page/2/\">"),
            std::string::npos);
  EXPECT_NE(html.find("<link rel=\"alternate\" hreflang=\"ar\" "
                      "href=\"https://podcasts.example/ar/categories/technology/page/2/\">"),
            std::string::npos);
  EXPECT_NE(html.find("<li><a href=\"../../\" rel=\"prev\">Previous page</a></li>\n"
                      "<li><a href=\"../../\">1</a></li>\n"
                      "<li><a aria-current=\"page\">2</a></li>\n"
                      "<li><a href=\"../3/\">3</a></li>\n"
                      "<li><a href=\"../3/\" rel=\"next\">Next page</a></li>"),
            std::string::npos)
      << html;
  // The show is linked from the page's own folder.
  EXPECT_NE(html.find("href=\"../../../../podcasts/hello-world-tech/\""), std::string::npos);
}

TEST_F(RenderListPage, LinksTheFirstPageAndThePreviousFromTheLast) {
  const std::string html = m_renderer.list_page(technology_page(3, 201), "ar", k_now).html;
  EXPECT_NE(html.find("<h1>البودكاست في تصنيف <bdi lang=\"ar\">تقنية</bdi> · الصفحة 3</h1>"),
            std::string::npos);
  EXPECT_NE(html.find("<li><a href=\"../2/\" rel=\"prev\">الصفحة السابقة</a></li>\n"
                      "<li><a href=\"../../\">1</a></li>\n"
                      "<li><a href=\"../2/\">2</a></li>\n"
                      "<li><a aria-current=\"page\">3</a></li>\n"),
            std::string::npos)
      << html;
  EXPECT_EQ(html.find("rel=\"next\""), std::string::npos);
}

// The first page of a list is its own address, with no page number; a list of one page has no
// page links at all.
TEST_F(RenderListPage, FirstPageLinksOnlyTheNext) {
  const std::string first = m_renderer.list_page(technology_page(1, 101), "en", k_now).html;
  EXPECT_NE(first.find("<h1>Podcasts in <bdi lang=\"en\">Technology</bdi></h1>"),
            std::string::npos);
  EXPECT_NE(first.find("<link rel=\"canonical\" "
                       "href=\"https://podcasts.example/en/categories/technology/\">"),
            std::string::npos);
  EXPECT_NE(first.find("<li><a href=\"page/2/\" rel=\"next\">Next page</a></li>"),
            std::string::npos);
  EXPECT_EQ(first.find("rel=\"prev\""), std::string::npos);
  const std::string only = m_renderer.list_page(technology_page(1, 100), "en", k_now).html;
  EXPECT_NE(only.find("<p class=\"meta\">100 podcasts</p>"), std::string::npos);
  EXPECT_EQ(only.find("class=\"pagination\""), std::string::npos);
}

// A language page counts its shows with the locale's plurals and pages as a category does.
TEST_F(RenderListPage, CountsAndPagesALanguagesShows) {
  model::ShowListPage second = list_of(model::ListKind::language, "en");
  second.page = 2;
  second.total = 102;
  const std::string arabic = m_renderer.list_page(second, "ar", k_now).html;
  EXPECT_NE(arabic.find("<p class=\"meta\">102 برنامج</p>"), std::string::npos) << arabic;
  EXPECT_NE(arabic.find("<link rel=\"canonical\" "
                        "href=\"https://podcasts.example/ar/languages/en/page/2/\">"),
            std::string::npos);
  EXPECT_NE(arabic.find("<a href=\"../../\" rel=\"prev\">"), std::string::npos);
  const std::string english = list(model::ListKind::language, "en", "en");
  EXPECT_NE(english.find("<p class=\"meta\">1 podcast</p>"), std::string::npos);
  EXPECT_NE(english.find("<h1>Podcasts in <bdi lang=\"en\">English</bdi></h1>"), std::string::npos);
}

// A list names no time: nothing on it expires before the longest lifetime of a page.
TEST_F(RenderListPage, LivesTheWholePageLifetime) {
  EXPECT_EQ(m_renderer.list_page(technology_page(1, 2), "en", k_now).expires_at,
            k_now + Renderer::k_max_lifetime);
}

} // namespace
} // namespace podcrawl::render

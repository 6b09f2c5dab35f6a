// The pages that are no page of the directory: the language chooser at the site's root, and the
// 404 and 503 pages answered in place of any address.
#include <gtest/gtest.h>

#include <string>

#include "page_fixture.hpp"
#include "podcrawl/core/error.hpp"

namespace podcrawl::render {
namespace {

class RenderErrorPages : public PageTest {};

TEST_F(RenderErrorPages, RootOffersEveryLocaleInItsOwnLanguage) {
  const std::string html = m_renderer.root_page();
  EXPECT_EQ(html.rfind("<!DOCTYPE html>\n<html lang=\"en\" dir=\"ltr\">", 0), 0U);
  EXPECT_NE(html.find("<li lang=\"en\" dir=\"ltr\"><a href=\"en/\" hreflang=\"en\">English</a> "
                      "<span class=\"meta\">Choose your language</span></li>\n"
                      "<li lang=\"ar\" dir=\"rtl\"><a href=\"ar/\" hreflang=\"ar\">العربية</a> "
                      "<span class=\"meta\">اختر لغتك</span></li>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<script src=\"choose-locale.js\"></script>"), std::string::npos);
  // It is the page for readers of no known language, and has no locale to search in.
  EXPECT_NE(html.find("<link rel=\"canonical\" href=\"https://podcasts.example/\">"),
            std::string::npos);
  EXPECT_NE(html.find("<link rel=\"alternate\" hreflang=\"x-default\" "
                      "href=\"https://podcasts.example/\">"),
            std::string::npos);
  EXPECT_EQ(html.find("<form"), std::string::npos);
  EXPECT_EQ(html.find("class=\"languages\""), std::string::npos);
}

TEST_F(RenderErrorPages, NotFoundPageIsLocalizedWithAbsoluteLinks) {
  const std::string html = m_renderer.not_found_page("ar");
  EXPECT_EQ(html.rfind("<!DOCTYPE html>\n<html lang=\"ar\" dir=\"rtl\">", 0), 0U);
  EXPECT_NE(html.find("<h1>الصفحة غير موجودة</h1>"), std::string::npos);
  EXPECT_NE(html.find("<meta name=\"robots\" content=\"noindex\">"), std::string::npos);
  EXPECT_EQ(html.find("rel=\"canonical\""), std::string::npos);
  EXPECT_EQ(html.find("hreflang=\"x-default\""), std::string::npos);
  EXPECT_NE(html.find("<a class=\"site-name\" href=\"/ar/\">"), std::string::npos);
  EXPECT_NE(html.find("href=\"/en/\" hreflang=\"en\""), std::string::npos);
}

// A directory that cannot reach its database says so, in the reader's language, as the 404
// page does: absolute links, nothing to index.
TEST_F(RenderErrorPages, UnavailablePageIsLocalizedWithAbsoluteLinks) {
  const std::string english = m_renderer.unavailable_page("en");
  EXPECT_EQ(english.rfind("<!DOCTYPE html>\n<html lang=\"en\" dir=\"ltr\">", 0), 0U);
  EXPECT_NE(english.find("<title>Temporarily unavailable – podcrawl</title>"), std::string::npos);
  EXPECT_NE(english.find("<h1>Temporarily unavailable</h1>\n<p>The directory cannot reach its "
                         "database right now. Please try again in a moment.</p>"),
            std::string::npos);
  EXPECT_EQ(english.find("Page not found"), std::string::npos);
  EXPECT_NE(english.find("<meta name=\"robots\" content=\"noindex\">"), std::string::npos);
  EXPECT_EQ(english.find("rel=\"canonical\""), std::string::npos);
  EXPECT_EQ(english.find("rel=\"alternate\""), std::string::npos);
  EXPECT_NE(english.find("<a class=\"site-name\" href=\"/en/\">"), std::string::npos);
  EXPECT_NE(english.find("<link rel=\"stylesheet\" href=\"/site.css\">"), std::string::npos);
  EXPECT_NE(english.find("action=\"/en/search/\""), std::string::npos);
  EXPECT_NE(english.find("href=\"/ar/\" hreflang=\"ar\""), std::string::npos);
  const std::string arabic = m_renderer.unavailable_page("ar");
  EXPECT_EQ(arabic.rfind("<!DOCTYPE html>\n<html lang=\"ar\" dir=\"rtl\">", 0), 0U);
  EXPECT_NE(arabic.find("<h1>غير متاح مؤقتًا</h1>"), std::string::npos);
  EXPECT_NE(arabic.find("<a class=\"site-name\" href=\"/ar/\">"), std::string::npos);
}

// A site below a path of its host links its 404 and 503 pages from that path.
TEST(RenderErrorPagesOfASiteBelowAPath, LinkAtTheSiteUrlsPath) {
  SiteOptions options = site_options();
  options.site_url = "https://example.org/podcasts/";
  Renderer renderer(options);
  const std::string not_found = renderer.not_found_page("en");
  EXPECT_NE(not_found.find("<a class=\"site-name\" href=\"/podcasts/en/\">"), std::string::npos);
  const std::string unavailable = renderer.unavailable_page("ar");
  EXPECT_NE(unavailable.find("<a class=\"site-name\" href=\"/podcasts/ar/\">"), std::string::npos);
  EXPECT_NE(unavailable.find("<link rel=\"stylesheet\" href=\"/podcasts/site.css\">"),
            std::string::npos);
}

TEST_F(RenderErrorPages, RefuseALocaleTheRendererDoesNotHave) {
  EXPECT_THROW(m_renderer.not_found_page("fr"), core::UsageError);
  EXPECT_THROW(m_renderer.unavailable_page("fr"), core::UsageError);
}

} // namespace
} // namespace podcrawl::render

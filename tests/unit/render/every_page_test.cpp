// What holds for every page and file the renderer makes of a directory, whatever its kind: the
// interface in the page's language, a strict content security policy, feed text that cannot
// run, links to every locale's version, and cover art from the site alone.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "page_fixture.hpp"
#include "podcrawl/core/config.hpp"
#include "podcrawl/l10n/localizer.hpp"
#include "support/temp_dir.hpp"

namespace podcrawl::render {
namespace {

class RenderEveryPage : public PageTest {
protected:
  // Every file by its name in the exported site.
  const std::map<std::string, std::string> m_files = every_file(m_renderer, m_directory);
};

TEST_F(RenderEveryPage, ArabicPagesCarryNoEnglishInterfaceText) {
  const auto locales = core::source_dir() / "config" / "locales";
  const l10n::Localizer english(locales, "en");
  const l10n::Localizer arabic(locales, "ar");
  const char* keys[] = {"site_tagline", "languages",    "episode_list", "skip_to_content",
                        "footer",       "all_podcasts", "categories",   "download_audio",
                        "website",      "rss_feed",     "home_title"};
  int pages = 0;
  for (const auto& [name, html] : m_files) {
    if (!name.starts_with("ar/")) {
      continue;
    }
    ++pages;
    for (const char* key : keys) {
      ASSERT_NE(english.text(key), arabic.text(key)) << key;
      EXPECT_EQ(html.find(english.text(key)), std::string::npos) << key << " in " << name;
    }
  }
  EXPECT_GT(pages, 90);
}

// Nothing a page holds can run: the policy allows no script (the language chooser's own file
// aside) and no inline style, and the pages need neither.
TEST_F(RenderEveryPage, CarriesAStrictContentSecurityPolicy) {
  const std::string policy =
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src &apos;none&apos;; "
      "style-src &apos;self&apos;; img-src &apos;self&apos;; media-src http: https:; base-uri "
      "&apos;none&apos;; form-action &apos;self&apos;";
  int pages = 0;
  for (const auto& [name, content] : m_files) {
    if (!name.ends_with(".html")) {
      continue;
    }
    SCOPED_TRACE(name);
    ++pages;
    const std::size_t at = content.find(policy);
    ASSERT_NE(at, std::string::npos);
    EXPECT_LT(at, content.find("<title>"));
    EXPECT_EQ(content.find("<style"), std::string::npos);
    EXPECT_EQ(content.find(" style="), std::string::npos);
    const bool chooser = name == "index.html";
    EXPECT_EQ(content.find("script-src"), chooser ? at + policy.size() + 2 : std::string::npos);
    // The one form, the search in the header, is sent to the site's own search page.
    const std::size_t form = content.find("<form");
    EXPECT_EQ(form == std::string::npos, chooser);
    if (form != std::string::npos) {
      const std::string tag = content.substr(form, content.find('>', form) - form + 1);
      EXPECT_NE(tag.find("search/\" method=\"get\""), std::string::npos) << tag;
      EXPECT_EQ(content.find("<form", form + 1), std::string::npos);
    }
    for (std::size_t script = content.find("<script"); script != std::string::npos;
         script = content.find("<script", script + 1)) {
      const std::string tag = content.substr(script, content.find('>', script) - script + 1);
      EXPECT_TRUE(tag == "<script type=\"application/ld+json\">" ||
                  (chooser && tag == "<script src=\"choose-locale.js\">"))
          << tag;
    }
  }
  EXPECT_GT(pages, 100);
  const auto templates = core::source_dir() / "templates";
  EXPECT_EQ(m_renderer.stylesheet(), testing::read_file(templates / "site.css"));
  EXPECT_NE(m_renderer.locale_script().find("location.replace"), std::string::npos);
  EXPECT_NE(m_files.at("en/podcasts/hello-world-tech/index.html")
                .find("<link rel=\"stylesheet\" href=\"../../../site.css\">"),
            std::string::npos);
}

TEST_F(RenderEveryPage, EscapesFeedTextAndDropsScriptUrls) {
  for (const auto& [name, content] : m_files) {
    EXPECT_EQ(content.find("<script>alert"), std::string::npos) << name;
    EXPECT_EQ(content.find("<b>Author"), std::string::npos) << name;
    EXPECT_EQ(content.find("javascript:"), std::string::npos) << name;
  }
}

TEST_F(RenderEveryPage, LinksItsAlternatesInEveryLocale) {
  int pages = 0;
  for (const auto& [name, html] : m_files) {
    if (!name.ends_with("index.html")) {
      continue;
    }
    ++pages;
    EXPECT_EQ(html.rfind("<!DOCTYPE html>\n<html lang=\"", 0), 0U) << name;
    EXPECT_NE(html.find("<meta charset=\"utf-8\">"), std::string::npos) << name;
    const std::string path = name.substr(0, name.size() - std::string("index.html").size());
    const std::string page_path = path.empty() ? "" : path.substr(path.find('/') + 1);
    for (const std::string tag : {"en", "ar"}) {
      const std::string link = "<link rel=\"alternate\" hreflang=\"" + tag + "\" href=\"" +
                               k_site_url + "/" + tag + "/" + page_path + "\">";
      EXPECT_NE(html.find(link), std::string::npos) << name << " lacks " << link;
    }
    EXPECT_NE(html.find("hreflang=\"x-default\""), std::string::npos) << name;
  }
  EXPECT_GT(pages, 100);
}

// Cover art is the site's own copy: the feed's image URL appears nowhere, and every image is
// linked within the site.
TEST_F(RenderEveryPage, ShowsCoverArtFromTheSiteAlone) {
  int images = 0;
  for (const auto& [name, content] : m_files) {
    EXPECT_EQ(content.find("images.example"), std::string::npos) << name;
    for (std::size_t at = content.find("<img"); at != std::string::npos;
         at = content.find("<img", at + 1)) {
      ++images;
      const std::size_t src = content.find(" src=\"", at) + 6;
      EXPECT_EQ(content.substr(src, content.find('"', src) - src).find("//"), std::string::npos)
          << name;
    }
  }
  EXPECT_GT(images, 0);
}

} // namespace
} // namespace podcrawl::render

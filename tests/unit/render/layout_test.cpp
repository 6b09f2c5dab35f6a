#include "podcrawl/render/layout.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace podcrawl::render {
namespace {

using Kind = PagePath::Kind;

const std::vector<std::string> k_locales = {"ar", "en", "zh-hant"};
const std::string k_art = std::string(40, 'a') + "-600.webp";

struct Case {
  PagePath page;
  std::string path;
  std::string file;
};

// One page of every kind (and the paged ones past their first page), with the path and file
// the SPEC's site layout gives it.
const std::vector<Case> k_every_kind = {
    {PagePath(Kind::chooser), "", "index.html"},
    {PagePath(Kind::stylesheet), "site.css", "site.css"},
    {PagePath(Kind::script), "choose-locale.js", "choose-locale.js"},
    {PagePath(Kind::home, "ar"), "ar/", "ar/index.html"},
    {PagePath(Kind::not_found, "zh-hant"), "zh-hant/404.html", "zh-hant/404.html"},
    {PagePath(Kind::category, "en", "true-crime"), "en/categories/true-crime/",
     "en/categories/true-crime/index.html"},
    {PagePath(Kind::category, "en", "news", "", 12), "en/categories/news/page/12/",
     "en/categories/news/page/12/index.html"},
    {PagePath(Kind::language, "ar", "zh-hant"), "ar/languages/zh-hant/",
     "ar/languages/zh-hant/index.html"},
    {PagePath(Kind::language, "ar", "en", "", 2), "ar/languages/en/page/2/",
     "ar/languages/en/page/2/index.html"},
    {PagePath(Kind::show, "en", "hello-world"), "en/podcasts/hello-world/",
     "en/podcasts/hello-world/index.html"},
    {PagePath(Kind::show, "en", "hello-world", "", k_max_page_number),
     "en/podcasts/hello-world/page/1000000000/",
     "en/podcasts/hello-world/page/1000000000/index.html"},
    {PagePath(Kind::episode, "ar", "hello-world", "episode-1"),
     "ar/podcasts/hello-world/episode-1/", "ar/podcasts/hello-world/episode-1/index.html"},
    {PagePath(Kind::search, "en"), "en/search/", "en/search/index.html"},
    {PagePath(Kind::search, "en", "", "", 3), "en/search/page/3/", "en/search/page/3/index.html"},
    {PagePath(Kind::opml, "", "hello-world"), "opml/hello-world.opml", "opml/hello-world.opml"},
    {PagePath(Kind::art, "", k_art), "art/" + k_art, "art/" + k_art},
};

TEST(Layout, EveryKindOfPageParsesBackFromItsPath) {
  for (const auto& c : k_every_kind) {
    EXPECT_EQ(path_of(c.page), c.path);
    EXPECT_EQ(file_of(c.page), c.file);
    const auto parsed = parse_path(c.path, k_locales);
    ASSERT_TRUE(parsed.has_value()) << c.path;
    EXPECT_EQ(*parsed, c.page) << c.path;
  }
}

TEST(Layout, PathsOfALocaleAreItsFolderAndThePathBelowIt) {
  for (const auto& c : k_every_kind) {
    if (!c.page.locale.empty()) {
      EXPECT_EQ(path_of(c.page), c.page.locale + "/" + locale_path_of(c.page)) << c.path;
    } else {
      EXPECT_EQ(locale_path_of(c.page), path_of(c.page)) << c.path;
    }
  }
  EXPECT_EQ(locale_path_of(PagePath(Kind::home, "en")), "");
  EXPECT_EQ(file_in(""), "index.html");
  EXPECT_EQ(file_in("podcasts/x/"), "podcasts/x/index.html");
  EXPECT_EQ(file_in("site.css"), "site.css");
}

TEST(Layout, NoOtherSpellingOfAPageParses) {
  const std::vector<std::string> others = {"/",
                                           "en",
                                           "en//",
                                           "fr/",
                                           "EN/",
                                           "en/index.html",
                                           "index.html",
                                           "en/podcasts/",
                                           "en/podcasts/hello-world",
                                           "en/podcasts/hello-world/page/1/",
                                           "en/podcasts/hello-world/page/01/",
                                           "en/podcasts/hello-world/page/1000000001/",
                                           "en/podcasts/hello-world/page/x/",

                                           "en/podcasts/Hello/",
                                           "en/podcasts/-x/",
                                           "en/podcasts/a_b/",
                                           "en/podcasts/x/y/z/",
                                           "en/podcasts/../",
                                           "en/categories/x/y/",
                                           "en/search/x/",
                                           "en/search",
                                           "en/authors/x/",
                                           "en/404.html/",
                                           "fr/404.html",
                                           "opml/x",
                                           "opml/X.opml",
                                           "opml/.opml",
                                           "opml/x.opml/",
                                           "art/x.webp",
                                           "art/" + std::string(40, 'a') + "-600.png",
                                           "site.css/",
                                           "style.css",
                                           "x/site.css",
                                           "en/podcasts/" + std::string(201, 'a') + "/"};
  for (const auto& path : others) {
    EXPECT_FALSE(parse_path(path, k_locales).has_value()) << path;
  }
}

TEST(Layout, APageSegmentIsLowerCaseLettersDigitsAndHyphens) {
  EXPECT_TRUE(is_page_segment("hello-world-2"));
  EXPECT_TRUE(is_page_segment(std::string(k_max_segment_bytes, 'a')));
  EXPECT_FALSE(is_page_segment(std::string(k_max_segment_bytes + 1, 'a')));
  for (const std::string& segment :
       std::vector<std::string>{"", "-x", "A", "a.b", "a/b", "a b", "\xC3\xA9", ".."}) {
    EXPECT_FALSE(is_page_segment(segment)) << segment;
  }
}

} // namespace
} // namespace podcrawl::render

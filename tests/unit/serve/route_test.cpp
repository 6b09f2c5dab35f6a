#include "podcrawl/serve/route.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace podcrawl::serve {
namespace {

using Kind = Route::Kind;

const std::vector<std::string> k_locales = {"en", "ar", "pt-BR"};

struct Accepted {
  const char* path;
  Kind kind;
  const char* locale;
  const char* slug;
  const char* episode;
  std::int64_t page;
  const char* key;
};

TEST(Route, NamesEveryPageOfTheSiteLayout) {
  const Accepted cases[] = {
      {"/", Kind::root, "", "", "", 1, ""},
      {"/index.html", Kind::root, "", "", "", 1, ""},
      {"/site.css", Kind::stylesheet, "", "", "", 1, "site.css"},
      {"/choose-locale.js", Kind::script, "", "", "", 1, "choose-locale.js"},
      {"/metrics", Kind::metrics, "", "", "", 1, "metrics"},
      {"/admin/report", Kind::report, "", "", "", 1, "admin/report"},
      {"/websub/0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", Kind::websub, "",
       "", "", 1, "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"},
      {"/opml/hello.opml", Kind::opml, "", "hello", "", 1, "opml/hello.opml"},
      {"/art/0123456789abcdef0123456789abcdef01234567-400.webp", Kind::art, "",
       "0123456789abcdef0123456789abcdef01234567-400.webp", "", 1,
       "art/0123456789abcdef0123456789abcdef01234567-400.webp"},
      {"/en/", Kind::home, "en", "", "", 1, "en/"},
      {"/pt-BR/index.html", Kind::home, "pt-BR", "", "", 1, "pt-BR/"},
      {"/ar/404.html", Kind::not_found_page, "ar", "", "", 1, "ar/404.html"},
      {"/en/categories/tech-news/", Kind::category, "en", "tech-news", "", 1,
       "en/categories/tech-news/"},
      {"/en/categories/tech-news/page/2/", Kind::category, "en", "tech-news", "", 2,
       "en/categories/tech-news/page/2/"},
      {"/ar/languages/pt/page/13/index.html", Kind::language, "ar", "pt", "", 13,
       "ar/languages/pt/page/13/"},
      {"/ar/podcasts/hello-world/", Kind::show, "ar", "hello-world", "", 1,
       "ar/podcasts/hello-world/"},
      {"/ar/podcasts/hello-world/page/2/", Kind::show, "ar", "hello-world", "", 2,
       "ar/podcasts/hello-world/page/2/"},
      {"/en/podcasts/hello-world/episode-83/", Kind::episode, "en", "hello-world", "episode-83", 1,
       "en/podcasts/hello-world/episode-83/"},
      // An episode may be called "page": its address has one segment fewer than a list page.
      {"/en/podcasts/hello-world/page/", Kind::episode, "en", "hello-world", "page", 1,
       "en/podcasts/hello-world/page/"},
      {"/en/podcasts/%68ello/", Kind::show, "en", "hello", "", 1, "en/podcasts/hello/"},
      {"/ar/search/", Kind::search, "ar", "", "", 1, "ar/search/"},
      {"/en/search/page/4/", Kind::search, "en", "", "", 4, "en/search/page/4/"},
  };
  for (const auto& c : cases) {
    const Route route = serve::route(c.path, k_locales);
    SCOPED_TRACE(c.path);
    EXPECT_EQ(route.kind, c.kind);
    EXPECT_EQ(route.path.locale, c.locale);
    EXPECT_EQ(route.path.slug, c.slug);
    EXPECT_EQ(route.path.episode, c.episode);
    EXPECT_EQ(route.path.page, c.page);
    EXPECT_EQ(route.key, c.key);
  }
}

TEST(Route, NamesNothingOutsideTheLayout) {
  const char* cases[] = {
      "",
      "en/",
      "/fr/",
      "/EN/",
      "/en//",
      "/en/podcasts/",
      "/en/podcasts//",
      "/en/podcasts/Hello/",
      "/en/podcasts/-x/",
      "/en/podcasts/x/page/1/",
      "/en/podcasts/x/page/02/",
      "/en/podcasts/x/page/0/",
      "/en/podcasts/x/page/99999999999/",
      "/en/podcasts/x/page/2/3/",
      "/en/podcasts/x/y/z/",
      "/en/categories/x/y/",
      "/en/shows/x/",
      "/en/../etc/passwd",
      "/en/%2e%2e/%2e%2e/etc/passwd",
      "/en/podcasts/..%2f..%2fetc/",
      "/en/podcasts/%2E%2E/",
      "/en/podcasts/a%00b/",
      "/en/podcasts/a%zzb/",
      "/en/podcasts/a%2",
      "/en/podcasts/a b/",
      "/en/podcasts/x/index.htm",
      "/opml/.opml",
      "/opml/../x.opml",
      "/art/0123456789abcdef0123456789abcdef0123456-400.webp",   // 39 digits
      "/art/0123456789ABCDEF0123456789abcdef01234567-400.webp",  // upper case
      "/art/0123456789abcdef0123456789abcdef01234567-0400.webp", // a leading zero
      "/art/0123456789abcdef0123456789abcdef01234567-.webp",
      "/art/0123456789abcdef0123456789abcdef01234567-400.jpg",
      "/art/0123456789abcdef0123456789abcdef01234567-400.webp/",
      "/art/../0123456789abcdef0123456789abcdef01234567-400.webp",
      "/en/art/0123456789abcdef0123456789abcdef01234567-400.webp",
      "/sitemap.xml.bak",
      "/en/404.htm",
      "/./en/",
      "/en/search/x/",
      "/en/search/page/1/",
      "/search/",
      "/admin/report/",
      "/admin/",
      "/admin/reports",
      "/websub/",
      "/websub/0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde",   // 63 digits
      "/websub/0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef",  // upper case
      "/websub/0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef/", // a folder
      "/en/websub/0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
  };
  for (const char* path : cases) {
    EXPECT_EQ(serve::route(path, k_locales).kind, Kind::not_found) << path;
  }
  EXPECT_EQ(serve::route("/" + std::string(k_max_path_bytes, 'a') + "/", k_locales).kind,
            Kind::not_found);
}

TEST(QueryValue, DecodesTheFirstFieldAsAFormSendsIt) {
  EXPECT_EQ(query_value("q=hello+world", "q"), "hello world");
  EXPECT_EQ(query_value("page=2&q=%D8%A8%D8%AD%D8%AB&q=second", "q"), "\xD8\xA8\xD8\xAD\xD8\xAB");
  EXPECT_EQ(query_value("qq=1&q", "q"), "");
  EXPECT_EQ(query_value("", "q"), "");
  EXPECT_EQ(query_value("x=1", "q"), "");
  // Malformed escapes stay as they are; any byte may come out, NUL and invalid UTF-8 too.
  EXPECT_EQ(query_value("q=100%&r", "q"), "100%");
  EXPECT_EQ(query_value("q=%G1%2", "q"), "%G1%2");
  EXPECT_EQ(query_value("q=%FF%00", "q"), std::string("\xFF\0", 2));
  EXPECT_EQ(query_value("q=a%2Bb%26c", "q"), "a+b&c");
}

TEST(RequestRoute, KeysASearchPageByItsWordsAndOtherPagesByTheirPathAlone) {
  const Route search = request_route("/en/search/page/2/", "x=1&q=caf%C3%A9+au+lait", k_locales);
  EXPECT_EQ(search.kind, Kind::search);
  EXPECT_EQ(search.path.page, 2);
  EXPECT_EQ(search.words, "caf\xC3\xA9 au lait");
  EXPECT_EQ(search.key, "en/search/page/2/?q=caf\xC3\xA9 au lait");
  EXPECT_NE(request_route("/en/search/", "q=a", k_locales).key,
            request_route("/en/search/", "q=b", k_locales).key);
  const Route show = request_route("/en/podcasts/hello-world/", "q=a", k_locales);
  EXPECT_EQ(show.key, "en/podcasts/hello-world/");
  EXPECT_TRUE(show.words.empty());
}

TEST(Route, SendsAFolderWithoutItsSlashToTheFolder) {
  const Route route = serve::route("/ar/podcasts/hello-world", k_locales);
  EXPECT_EQ(route.kind, Kind::redirect);
  EXPECT_EQ(route.location, "/ar/podcasts/hello-world/");
  EXPECT_EQ(serve::route("/en", k_locales).location, "/en/");
  EXPECT_EQ(serve::route("/en/podcasts", k_locales).kind, Kind::not_found);
}

TEST(Route, SendsARegionsLanguagePageToItsLanguage) {
  const Route route = serve::route("/ar/languages/pt-br/page/13/", k_locales);
  EXPECT_EQ(route.kind, Kind::redirect);
  EXPECT_EQ(route.location, "/ar/languages/pt/page/13/");
  EXPECT_EQ(serve::route("/en/languages/ar-eg/", k_locales).location, "/en/languages/ar/");
  EXPECT_EQ(serve::route("/en/languages/zh-tw/", k_locales).location, "/en/languages/zh-hant/");
  EXPECT_EQ(serve::route("/en/languages/zh-hant/", k_locales).kind, Kind::language);
  EXPECT_EQ(serve::route("/en/languages/ar/", k_locales).kind, Kind::language);
  EXPECT_EQ(serve::route("/podcasts/en/languages/en-us/", k_locales, "/podcasts").location,
            "/podcasts/en/languages/en/");
}

TEST(Route, ReadsPathsBelowTheSitesOwnPath) {
  EXPECT_EQ(serve::route("/dir/en/", k_locales, "/dir").kind, Kind::home);
  EXPECT_EQ(serve::route("/dir/", k_locales, "/dir").kind, Kind::root);
  EXPECT_EQ(serve::route("/en/", k_locales, "/dir").kind, Kind::not_found);
  EXPECT_EQ(serve::route("/directory/en/", k_locales, "/dir").kind, Kind::not_found);
  EXPECT_EQ(serve::route("/dir/en", k_locales, "/dir").location, "/dir/en/");
}

} // namespace
} // namespace podcrawl::serve

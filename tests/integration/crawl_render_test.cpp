// add -> crawl -> store -> render, through the podcrawl binary, against a real loopback HTTP
// server and a throwaway PostgreSQL database.
#include <filesystem>
#include <map>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "directory_fixture.hpp"
#include "podcrawl/core/config.hpp"
#include "support/loopback_server.hpp"

namespace podcrawl {
namespace {

using testing::arabic_feed;
using testing::k_render_time;
using testing::k_tech_episodes;
using testing::tech_feed;

// The text as an escaping template writes it into HTML.
std::string html_escaped(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

using CrawlRender = testing::DirectoryTest;

TEST_F(CrawlRender, CrawlsStoresAndRendersArabicAndEnglishPages) {
  testing::LoopbackServer server;
  server.serve_feed("/tech.xml", tech_feed(), "application/rss+xml", "\"tech-1\"");
  server.serve_feed("/ar.xml", arabic_feed(), "application/rss+xml", "\"ar-1\"");
  add_opml({server.url("/tech.xml"), server.url("/ar.xml")});

  const auto crawled = run({"--allow-private-networks", "crawl"});
  ASSERT_EQ(crawled.status, 0) << crawled.out;
  EXPECT_NE(crawled.out.find("2 fetched"), std::string::npos) << crawled.out;

  const auto shown = run({"show", server.url("/tech.xml")});
  ASSERT_EQ(shown.status, 0) << shown.out;
  const auto show = nlohmann::json::parse(shown.out);
  EXPECT_EQ(show["title"], "Loopback Tech Talk");
  EXPECT_EQ(show["language"], "en-US");
  ASSERT_EQ(show["episodes"].size(), static_cast<std::size_t>(k_tech_episodes));
  EXPECT_EQ(show["episodes"][0]["duration_seconds"], 1968);
  EXPECT_EQ(show["episodes"][0]["description"].get<std::string>().find("script"),
            std::string::npos);

  const auto site = m_dir.path() / "site";
  const auto rendered = run(
      {"render", "--out", site.string(), "--locales", "ar,en", "--now", "2026-12-01T00:00:00Z"});
  ASSERT_EQ(rendered.status, 0) << rendered.out;
  const auto slugs = slugs_by_url();
  ASSERT_EQ(slugs.size(), 2u);
  const std::string tech_slug = slugs.at(server.url("/tech.xml"));
  const std::string arabic_slug = slugs.at(server.url("/ar.xml"));
  EXPECT_NE(tech_slug, arabic_slug);
  for (const char c : arabic_slug) {
    EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(c)) || c == '-') << arabic_slug;
  }

  const auto ar_page = testing::read_file(site / "ar" / "podcasts" / tech_slug / "index.html");
  EXPECT_NE(ar_page.find("<html lang=\"ar\" dir=\"rtl\""), std::string::npos);
  EXPECT_NE(ar_page.find("Loopback Tech Talk"), std::string::npos);
  EXPECT_NE(ar_page.find("<time datetime="), std::string::npos);
  EXPECT_NE(ar_page.find("قبل"), std::string::npos); // ICU's Arabic "ago"
  const auto en_page = testing::read_file(site / "en" / "podcasts" / tech_slug / "index.html");
  EXPECT_NE(en_page.find("<html lang=\"en\" dir=\"ltr\""), std::string::npos);
  EXPECT_NE(en_page.find("83 episodes"), std::string::npos);
  // The oldest episodes are on the second page of the list (50 episodes a page).
  const auto en_second =
      testing::read_file(site / "en" / "podcasts" / tech_slug / "page" / "2" / "index.html");
  EXPECT_NE(en_second.find("4 years ago"), std::string::npos);
  for (const char* locale : {"ar", "en"}) {
    const auto page = testing::read_file(site / locale / "podcasts" / arabic_slug / "index.html");
    EXPECT_NE(page.find("بودكاست الحلقة"), std::string::npos) << locale;
  }
  EXPECT_TRUE(std::filesystem::exists(site / "index.html"));
  EXPECT_TRUE(std::filesystem::exists(site / "ar" / "index.html"));
  const auto sitemap = testing::read_file(site / "sitemap.xml");
  EXPECT_NE(sitemap.find("/ar/podcasts/" + tech_slug + "/"), std::string::npos);
  EXPECT_NE(sitemap.find("hreflang"), std::string::npos);
}

TEST_F(CrawlRender, ARecrawlSendsValidatorsAndStoresNothingOn304) {
  testing::LoopbackServer server;
  server.serve_feed("/tech.xml", tech_feed(), "application/rss+xml", "\"tech-1\"");
  add_opml({server.url("/tech.xml")});
  ASSERT_EQ(run({"--allow-private-networks", "crawl"}).status, 0);
  const auto again = run({"--allow-private-networks", "crawl", "--all"});
  ASSERT_EQ(again.status, 0) << again.out;
  EXPECT_NE(again.out.find("1 not modified"), std::string::npos) << again.out;
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[1].headers.at("if-none-match"), "\"tech-1\"");
  const auto stats = nlohmann::json::parse(run({"stats", "--json"}).out);
  EXPECT_EQ(stats["episodes"], k_tech_episodes);
  EXPECT_EQ(stats["last_crawl"]["not_modified"], 1);
  EXPECT_EQ(stats["last_crawl"]["new_episodes"], 0);
}

// A show whose feed carries its host's default tag is filed under the language it speaks.
TEST_F(CrawlRender, AShowTaggedEnglishButWrittenInArabicIsFiledAsArabic) {
  std::string feed = arabic_feed();
  feed.replace(feed.find("<language>ar</language>"), 23, "<language>en</language>");
  testing::LoopbackServer server;
  server.serve_feed("/ar.xml", feed, "application/rss+xml", "\"ar-1\"");
  add_opml({server.url("/ar.xml")});
  ASSERT_EQ(run({"--allow-private-networks", "crawl"}).status, 0);

  const auto shown = run({"show", server.url("/ar.xml")});
  ASSERT_EQ(shown.status, 0) << shown.out;
  const auto show = nlohmann::json::parse(shown.out);
  EXPECT_EQ(show["language"], "en");
  EXPECT_EQ(show["detected_language"], "ar");
  EXPECT_EQ(show["effective_language"], "ar");

  const auto site = m_dir.path() / "site";
  ASSERT_EQ(
      run({"render", "--out", site.string(), "--locales", "en", "--now", "2026-12-01T00:00:00Z"})
          .status,
      0);
  EXPECT_TRUE(std::filesystem::exists(site / "en" / "languages" / "ar" / "index.html"));
  EXPECT_FALSE(std::filesystem::exists(site / "en" / "languages" / "en" / "index.html"));
  const std::string slug = slugs_by_url().at(server.url("/ar.xml"));
  const auto page = testing::read_file(site / "en" / "podcasts" / slug / "index.html");
  EXPECT_NE(page.find("lang=\"ar\""), std::string::npos);
  EXPECT_EQ(page.find("lang=\"en\" dir=\"auto\""), std::string::npos);
}

TEST_F(CrawlRender, PrivateAddressesAreRefusedByDefault) {
  testing::LoopbackServer server;
  server.serve_feed("/tech.xml", tech_feed(), "application/rss+xml", "\"tech-1\"");
  add_opml({server.url("/tech.xml")});
  const auto crawled = run({"crawl"});
  ASSERT_EQ(crawled.status, 0) << crawled.out; // a refused feed is data, not a failed run
  EXPECT_NE(crawled.out.find("1 failed"), std::string::npos) << crawled.out;
  EXPECT_EQ(server.count("/tech.xml"), 0);
  const auto list = nlohmann::json::parse(run({"list", "--json"}).out);
  ASSERT_EQ(list.size(), 1u);
  // A refused address weighs 3, below the default failing score of 4: the feed stays active,
  // with the refusal as its last error.
  EXPECT_EQ(list[0]["status"], "active");
  EXPECT_EQ(list[0]["failures"], 1);
  EXPECT_EQ(list[0]["failure_score"], 3);
  EXPECT_NE(list[0]["last_error"].get<std::string>().find("non-public"), std::string::npos);
}

TEST_F(CrawlRender, AGoneFeedIsNoLongerFetched) {
  testing::LoopbackServer server;
  server.on_get("/gone.xml", [](const testing::Request&, testing::Response& response) {
    response.status = 410;
  });
  add_opml({server.url("/gone.xml")});
  ASSERT_EQ(run({"--allow-private-networks", "crawl"}).status, 0);
  ASSERT_EQ(run({"--allow-private-networks", "crawl", "--all"}).status, 0);
  EXPECT_EQ(server.count("/gone.xml"), 1);
  const auto list = nlohmann::json::parse(run({"list", "--json", "--status", "gone"}).out);
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0]["last_status"], 410);
}

TEST_F(CrawlRender, EveryDemoShowGetsAnArabicAndAnEnglishPage) {
  const auto demo = core::data_dir() / "seeds" / "demo";
  testing::LoopbackServer server;
  std::vector<std::string> urls;
  std::map<std::string, std::string> titles;
  for (const auto& entry : std::filesystem::directory_iterator(demo)) {
    if (entry.path().extension() != ".xml") {
      continue;
    }
    const std::string path = "/" + entry.path().filename().string();
    server.serve_feed(path, testing::read_file(entry.path()), "application/rss+xml", "\"demo\"");
    urls.push_back(server.url(path));
    const auto parsed =
        testing::run_process({testing::podcrawl_binary(), "parse", entry.path().string()});
    ASSERT_EQ(parsed.status, 0) << entry.path();
    titles[server.url(path)] = nlohmann::json::parse(parsed.out)["title"];
  }
  ASSERT_GE(urls.size(), 6u);
  add_opml(urls);
  ASSERT_EQ(run({"--allow-private-networks", "crawl"}).status, 0);
  const auto site = m_dir.path() / "site";
  ASSERT_EQ(run({"render", "--out", site.string(), "--locales", "ar,en"}).status, 0);
  const auto slugs = slugs_by_url();
  ASSERT_EQ(slugs.size(), urls.size());
  for (const auto& [url, slug] : slugs) {
    for (const char* locale : {"ar", "en"}) {
      const auto page = testing::read_file(site / locale / "podcasts" / slug / "index.html");
      EXPECT_NE(page.find(html_escaped(titles.at(url))), std::string::npos) << locale << " " << url;
    }
  }
}

} // namespace
} // namespace podcrawl

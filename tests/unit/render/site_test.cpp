#include "podcrawl/render/site.hpp"

#include <gtest/gtest.h>

#include <chrono>

#include <map>
#include <string>
#include <vector>

#include "podcrawl/core/error.hpp"
#include "podcrawl/core/time.hpp"
#include "podcrawl/l10n/localizer.hpp"
#include "support/temp_dir.hpp"

namespace podcrawl::render {
namespace {

namespace fs = std::filesystem;

const fs::path k_source_dir = PODCRAWL_SOURCE_DIR;
const std::string k_site_url = "https://podcasts.example";

// 2025-06-10T12:00:00Z.
constexpr std::int64_t k_now = 1749556800;
constexpr std::int64_t k_day = 86400;
// Four calendar years before k_now.
constexpr std::int64_t k_four_years_ago = 1623326400;

feed::Episode make_episode(int number, std::int64_t published) {
  feed::Episode episode;
  episode.guid = "guid-" + std::to_string(number);
  episode.title = "Episode " + std::to_string(number) + ": compilers";
  episode.published = published;
  episode.enclosure_url = "https://cdn.example/e" + std::to_string(number) + ".mp3";
  episode.enclosure_type = "audio/mpeg";
  episode.duration_seconds = 1968 + number;
  episode.description = "<p>About episode " + std::to_string(number) + "</p>";
  return episode;
}

// An English show with 83 episodes, the newest five weeks old, added four years ago.
store::StoredShow hello_world_tech() {
  store::StoredShow stored;
  stored.slug = "hello-world-tech";
  stored.feed_url = "https://feeds.example/hello.xml";
  stored.added_at = k_four_years_ago;
  stored.updated_at = k_now - k_day;
  stored.show.title = "Hello World Tech";
  stored.show.language = "en";
  stored.show.author = "Ada & Co";
  stored.show.link = "https://hello.example/";
  stored.show.description = "<p>A show about <b>software</b>.</p>";
  stored.show.categories = {"Technology", "Tech News"};
  for (int i = 0; i < 83; ++i) {
    stored.show.episodes.push_back(make_episode(83 - i, k_now - 35 * k_day - i * 17 * k_day));
    stored.episode_slugs.push_back("episode-" + std::to_string(83 - i));
  }
  return stored;
}

store::StoredShow hostile_show() {
  store::StoredShow stored;
  stored.slug = "script-show";
  stored.added_at = k_now - 3 * k_day;
  stored.show.title = "<script>alert(1)</script> Show";
  stored.show.author = "\"Quote\" <b>Author</b>";
  stored.show.categories = {"Technology"};
  feed::Episode episode = make_episode(1, k_now - 2 * 3600);
  episode.enclosure_url = "javascript:alert(2)";
  episode.link = "javascript:alert(3)";
  stored.show.episodes.push_back(episode);
  stored.episode_slugs.push_back("first");
  return stored;
}

store::StoredShow arabic_show() {
  store::StoredShow stored;
  stored.slug = "mrhba";
  stored.added_at = k_now - 400 * k_day;
  stored.show.title = "مرحبا بالعالم";
  stored.show.language = "ar";
  stored.show.categories = {"تقنية"};
  return stored;
}

store::StoredShow inactive_show() {
  store::StoredShow stored = arabic_show();
  stored.slug = "gone-show";
  stored.active = false;
  return stored;
}

RenderOptions options_for(const fs::path& out_dir) {
  RenderOptions options;
  options.out_dir = out_dir;
  options.locales = {"en", "ar"};
  options.site_url = k_site_url + "/";
  options.now = k_now;
  options.templates_dir = k_source_dir / "templates";
  options.locales_dir = k_source_dir / "config" / "locales";
  return options;
}

std::vector<store::StoredShow> all_shows() {
  return {hello_world_tech(), hostile_show(), arabic_show(), inactive_show()};
}

// Every file below dir, by path relative to dir.
std::map<std::string, std::string> read_tree(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file()) {
      files[fs::relative(entry.path(), dir).generic_string()] = testing::read_file(entry.path());
    }
  }
  return files;
}

class RenderedSite : public ::testing::Test {
protected:
  void SetUp() override { m_summary = render_site(all_shows(), options_for(m_dir.path())); }

  std::string page(const std::string& relative) const {
    return testing::read_file(m_dir.path() / relative);
  }

  testing::TempDir m_dir;
  RenderSummary m_summary;
};

TEST_F(RenderedSite, WritesTheSpecLayout) {
  const char* expected[] = {
      "index.html",
      "sitemap.xml",
      "en/index.html",
      "ar/index.html",
      "en/categories/technology/index.html",
      "ar/categories/tech-news/index.html",
      "en/podcasts/hello-world-tech/index.html",
      "ar/podcasts/hello-world-tech/episode-83/index.html",
      "ar/podcasts/hello-world-tech/episode-1/index.html",
      "en/podcasts/mrhba/index.html",
  };
  for (const char* file : expected) {
    EXPECT_TRUE(fs::is_regular_file(m_dir.path() / file)) << file;
  }
  EXPECT_FALSE(fs::exists(m_dir.path() / "en/podcasts/gone-show"));
}

TEST_F(RenderedSite, CountsEveryPageAndSkipsInactiveShows) {
  std::int64_t html_files = 0;
  for (const auto& [name, content] : read_tree(m_dir.path())) {
    html_files += name.ends_with("index.html") ? 1 : 0;
    EXPECT_EQ(name.find(".tmp-"), std::string::npos) << "temporary file left: " << name;
  }
  // Per locale: home, 3 categories, 3 shows, 84 episodes; plus the language chooser.
  EXPECT_EQ(html_files, 1 + 2 * (1 + 3 + 3 + 84));
  EXPECT_EQ(m_summary.pages, html_files);
  EXPECT_EQ(m_summary.skipped_shows, 1);
}

TEST_F(RenderedSite, ArabicShowPageIsRightToLeftWithIsolatedEnglishTitle) {
  const std::string html = page("ar/podcasts/hello-world-tech/index.html");
  EXPECT_EQ(html.rfind("<!DOCTYPE html>\n<html lang=\"ar\" dir=\"rtl\">", 0), 0U);
  EXPECT_NE(html.find("<bdi lang=\"en\">Hello World Tech</bdi>"), std::string::npos);
  EXPECT_NE(html.find("<title>\u2068Hello World Tech\u2069"), std::string::npos);
  EXPECT_NE(html.find("<bdi lang=\"en\">Ada &amp; Co</bdi>"), std::string::npos);
}

TEST_F(RenderedSite, ArabicShowPageUsesCldrPluralsAndIcuRelativeTimes) {
  const std::string html = page("ar/podcasts/hello-world-tech/index.html");
  EXPECT_NE(html.find("83 حلقة"), std::string::npos);
  EXPECT_EQ(html.find("83 حلقات"), std::string::npos);
  const std::string added =
      "<time datetime=\"" + core::format_iso8601(k_four_years_ago) + "\">قبل 4 سنوات</time>";
  EXPECT_NE(html.find(added), std::string::npos) << added;
  const std::string newest =
      "datetime=\"" + core::format_iso8601(k_now - 35 * k_day) + "\">قبل 5 أسابيع</time>";
  EXPECT_NE(html.find(newest), std::string::npos) << newest;
  EXPECT_EQ(html.find("منذ قبل"), std::string::npos);
}

TEST_F(RenderedSite, EnglishShowPageCountsEpisodesAndSaysWhenItWasAdded) {
  const std::string html = page("en/podcasts/hello-world-tech/index.html");
  EXPECT_EQ(html.rfind("<!DOCTYPE html>\n<html lang=\"en\" dir=\"ltr\">", 0), 0U);
  EXPECT_NE(html.find("83 episodes"), std::string::npos);
  EXPECT_NE(html.find("Added <time datetime=\"" + core::format_iso8601(k_four_years_ago) +
                      "\">4 years ago</time>"),
            std::string::npos);
  EXPECT_NE(html.find(">5 weeks ago</time>"), std::string::npos);
  EXPECT_NE(html.find("<time class=\"length\" datetime=\"PT33M20S\">33:20</time>"),
            std::string::npos); // episode 32 lasts 1968 + 32 seconds
  EXPECT_NE(html.find("href=\"../../categories/technology/\""), std::string::npos);
  EXPECT_NE(html.find("href=\"episode-83/\""), std::string::npos);
}

TEST_F(RenderedSite, ArabicPagesCarryNoEnglishInterfaceText) {
  const fs::path locales = k_source_dir / "config" / "locales";
  const l10n::Localizer english(locales, "en");
  const l10n::Localizer arabic(locales, "ar");
  const char* keys[] = {"site_tagline", "languages",    "episode_list", "skip_to_content",
                        "footer",       "all_podcasts", "categories",   "download_audio",
                        "website",      "rss_feed",     "home_title"};
  for (const auto& [name, html] : read_tree(m_dir.path() / "ar")) {
    for (const char* key : keys) {
      ASSERT_NE(english.text(key), arabic.text(key)) << key;
      EXPECT_EQ(html.find(english.text(key)), std::string::npos) << key << " in ar/" << name;
    }
  }
}

TEST_F(RenderedSite, EpisodePageEmbedsTheSanitizedDescriptionAndAudio) {
  const std::string html = page("ar/podcasts/hello-world-tech/episode-83/index.html");
  EXPECT_NE(html.find("<div class=\"description\" dir=\"auto\" lang=\"en\"><p>About episode "
                      "83</p></div>"),
            std::string::npos);
  EXPECT_NE(html.find("<audio controls preload=\"none\" src=\"https://cdn.example/e83.mp3\">"),
            std::string::npos);
  EXPECT_NE(html.find("href=\"../\"><bdi lang=\"en\">Hello World Tech</bdi></a>"),
            std::string::npos);
}

TEST_F(RenderedSite, EscapesFeedTextAndDropsScriptUrls) {
  for (const auto& [name, content] : read_tree(m_dir.path())) {
    EXPECT_EQ(content.find("<script>alert"), std::string::npos) << name;
    EXPECT_EQ(content.find("<b>Author"), std::string::npos) << name;
    EXPECT_EQ(content.find("javascript:"), std::string::npos) << name;
  }
  const std::string html = page("en/podcasts/script-show/index.html");
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt; Show"), std::string::npos);
  EXPECT_NE(html.find("&quot;Quote&quot; &lt;b&gt;Author&lt;/b&gt;"), std::string::npos);
}

TEST_F(RenderedSite, EveryPageLinksItsAlternatesInEveryLocale) {
  for (const auto& [name, html] : read_tree(m_dir.path())) {
    if (!name.ends_with(".html")) {
      continue;
    }
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
}

TEST_F(RenderedSite, SitemapListsEveryPageWithAlternates) {
  const std::string sitemap = page("sitemap.xml");
  std::size_t pages = 0;
  for (const auto& [name, content] : read_tree(m_dir.path())) {
    if (!name.ends_with("index.html")) {
      continue;
    }
    ++pages;
    const std::string url =
        k_site_url + "/" + name.substr(0, name.size() - std::string("index.html").size());
    EXPECT_NE(sitemap.find("<loc>" + url + "</loc>"), std::string::npos) << url;
    EXPECT_NE(sitemap.find("hreflang=\"ar\" href=\"" + url),
              std::string::npos || name == "index.html")
        << url;
  }
  std::size_t locations = 0;
  std::size_t defaults = 0;
  for (auto at = sitemap.find("<loc>"); at != std::string::npos;
       at = sitemap.find("<loc>", at + 1)) {
    ++locations;
  }
  for (auto at = sitemap.find("hreflang=\"x-default\""); at != std::string::npos;
       at = sitemap.find("hreflang=\"x-default\"", at + 1)) {
    ++defaults;
  }
  EXPECT_EQ(locations, pages);
  EXPECT_EQ(defaults, pages);
  EXPECT_NE(sitemap.find("xmlns:xhtml=\"http://www.w3.org/1999/xhtml\""), std::string::npos);
}

TEST(RenderSite, GivesByteIdenticalOutputForTheSameInput) {
  const testing::TempDir first;
  const testing::TempDir second;
  std::vector<store::StoredShow> shows = all_shows();
  render_site(shows, options_for(first.path()));
  std::swap(shows.front(), shows.back()); // input order must not matter either
  render_site(shows, options_for(second.path()));
  const auto first_files = read_tree(first.path());
  ASSERT_FALSE(first_files.empty());
  EXPECT_TRUE(first_files == read_tree(second.path()));
}

TEST(RenderSite, RewritesOnlyThePagesWhoseContentChanged) {
  const testing::TempDir dir;
  const auto options = options_for(dir.path());
  render_site({hello_world_tech()}, options);
  const fs::path show_page = dir.path() / "en" / "podcasts" / "hello-world-tech" / "index.html";
  const fs::path episode_page = dir.path() / "en" / "podcasts" / "hello-world-tech" /
                                hello_world_tech().episode_slugs.front() / "index.html";
  const auto long_ago = fs::file_time_type::clock::now() - std::chrono::hours(24 * 365);
  fs::last_write_time(show_page, long_ago);
  fs::last_write_time(episode_page, long_ago);
  store::StoredShow changed = hello_world_tech();
  changed.show.title = "Hello World Tech, renamed";
  render_site({changed}, options);
  EXPECT_GT(fs::last_write_time(show_page), long_ago); // its title changed
  EXPECT_NE(testing::read_file(show_page).find("renamed"), std::string::npos);
  const auto episode_time = fs::last_write_time(episode_page);
  render_site({changed}, options);
  EXPECT_EQ(fs::last_write_time(episode_page), episode_time); // same content: not rewritten
  fs::last_write_time(show_page, long_ago);
  render_site({changed}, options);
  EXPECT_EQ(fs::last_write_time(show_page), long_ago);
}

TEST(RenderSite, RejectsUnknownLocalesAndRelativeSiteUrls) {
  const testing::TempDir dir;
  RenderOptions options = options_for(dir.path());
  options.locales = {"en", "xx"};
  EXPECT_THROW(render_site({hello_world_tech()}, options), core::UsageError);
  options = options_for(dir.path());
  options.site_url = "podcasts.example";
  EXPECT_THROW(render_site({hello_world_tech()}, options), core::UsageError);
}

} // namespace
} // namespace podcrawl::render

#include "podcrawl/publish/site.hpp"
#include "podcrawl/core/config.hpp"

#include <gtest/gtest.h>

#include <sys/resource.h>

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <chrono>

#include <algorithm>
#include <cctype>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "podcrawl/core/error.hpp"
#include "podcrawl/core/time.hpp"
#include "podcrawl/l10n/localizer.hpp"
#include "support/temp_dir.hpp"

// The exported site as SiteWriter writes it, and the pages it holds as render::Renderer makes them.
namespace podcrawl::render {
namespace {

namespace fs = std::filesystem;
using publish::SiteWriter;
using publish::Summary;

const fs::path k_source_dir = podcrawl::core::source_dir();
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

// The cover art of Hello World Tech, as the crawler stores it: three renditions of a square.
constexpr const char* k_art_hash = "0123456789abcdef0123456789abcdef01234567";
store::StoredArtwork hello_artwork() {
  store::StoredArtwork artwork;
  artwork.content_hash = k_art_hash;
  artwork.width = 3000;
  artwork.height = 3000;
  for (const int width : {160, 400, 1400}) {
    artwork.renditions.push_back({width, width, 4 + width});
  }
  return artwork;
}

// The art folder the renders read: one file for each rendition of hello_artwork(), its bytes
// naming its width. One for the whole test program.
const fs::path& art_folder() {
  static const testing::TempDir folder;
  static const bool made = [] {
    for (const auto& rendition : hello_artwork().renditions) {
      testing::write_file(folder.path() / store::art_file_name(k_art_hash, rendition.width),
                          "RIFF" + std::to_string(rendition.width));
    }
    return true;
  }();
  (void)made;
  return folder.path();
}

// An English show with 83 episodes, the newest five weeks old, added four years ago, with
// cover art (its feed's image URL is on another host, which no page may link).
store::StoredShow hello_world_tech() {
  store::StoredShow stored;
  stored.slug = "hello-world-tech";
  stored.feed_url = "https://feeds.example/hello.xml";
  stored.added_at = k_four_years_ago;
  stored.updated_at = k_now - k_day;
  stored.show.title = "Hello World Tech";
  stored.show.language = "en";
  stored.show.effective_language = "en";
  stored.show.author = "Ada & Co";
  stored.show.link = "https://hello.example/";
  stored.show.description = "<p>A show about <b>software</b>.</p>";
  stored.show.categories = {"Technology", "Tech News"};
  stored.show.image = "https://images.example/hello.jpg";
  stored.artwork = hello_artwork();
  for (int i = 0; i < 83; ++i) {
    stored.show.episodes.push_back(make_episode(83 - i, k_now - 35 * k_day - i * 17 * k_day));
    stored.episode_slugs.push_back("episode-" + std::to_string(83 - i));
  }
  feed::Episode& newest = stored.show.episodes.front();
  newest.season = 2;
  newest.episode = 83;
  newest.transcripts = {{"https://cdn.example/e83.vtt", "text/vtt"},
                        {"https://cdn.example/e83.srt", "application/x-subrip"},
                        {"https://cdn.example/e83.txt", ""}};
  newest.chapters_url = "https://cdn.example/e83.json";
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
  episode.transcripts = {{"javascript:alert(4)", "text/html"}};
  episode.chapters_url = "javascript:alert(5)";
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
  stored.show.effective_language = "ar";
  stored.show.categories = {"تقنية"};
  return stored;
}

store::StoredShow inactive_show() {
  store::StoredShow stored = arabic_show();
  stored.slug = "gone-show";
  stored.active = false;
  return stored;
}

// What a render takes besides its page models.
struct TestOptions {
  fs::path out_dir;
  SiteOptions site;
  std::int64_t now = k_now;
};

TestOptions options_for(const fs::path& out_dir) {
  TestOptions options;
  options.out_dir = out_dir;
  options.site.locales = {"en", "ar"};
  options.site.site_url = k_site_url + "/";
  options.site.templates_dir = k_source_dir / "templates";
  options.site.locales_dir = k_source_dir / "config" / "locales";
  options.site.art_dir = art_folder();
  return options;
}

std::string lower(std::string text) {
  for (char& c : text) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return text;
}

// The page models a store holding `shows` hands over, built here by hand (the store's own are
// tested against PostgreSQL in tests/unit/store/pages_test.cpp), written by a SiteWriter.
Summary render_site(std::vector<store::StoredShow> shows, const TestOptions& options) {
  std::erase_if(shows, [](const auto& s) { return !s.active || s.show.title.empty(); });
  std::sort(shows.begin(), shows.end(),
            [](const auto& a, const auto& b) { return a.slug < b.slug; });
  store::HomePage home;
  home.show_count = static_cast<std::int64_t>(shows.size());
  std::map<std::string, std::vector<const store::StoredShow*>> by_category;
  std::map<std::string, store::CategoryEntry> categories;
  std::map<std::string, std::vector<const store::StoredShow*>> by_language;
  for (const auto& show : shows) {
    for (std::size_t i = 0; i < show.show.episodes.size(); ++i) {
      if (show.show.episodes[i].published) {
        home.latest.push_back({show.slug, show.show.title, show.show.language,
                               show.episode_slugs[i], show.show.episodes[i]});
      }
    }
    for (const auto& name : show.show.categories) {
      const std::string slug = l10n::slugify(name);
      categories.try_emplace(slug, store::CategoryEntry{slug, name, show.show.language, 0});
      by_category[slug].push_back(&show);
    }
    if (!show.show.language.empty()) {
      by_language[lower(show.show.language)].push_back(&show);
    }
  }
  std::stable_sort(home.latest.begin(), home.latest.end(), [](const auto& a, const auto& b) {
    return *a.episode.published > *b.episode.published;
  });
  home.latest.resize(std::min<std::size_t>(home.latest.size(), store::k_latest_episodes));
  const auto summaries = [](std::vector<const store::StoredShow*> members) {
    std::sort(members.begin(), members.end(), [](const auto* a, const auto* b) {
      return std::tie(a->show.title, a->slug) < std::tie(b->show.title, b->slug);
    });
    std::vector<store::ShowSummary> list;
    for (const auto* show : members) {
      list.push_back({show->slug, show->show.title, show->show.author, show->show.language,
                      static_cast<std::int64_t>(show->show.episodes.size()), show->artwork});
    }
    return list;
  };
  SiteWriter writer(options.site, options.out_dir, options.now);
  for (auto& [slug, category] : categories) {
    category.show_count = static_cast<std::int64_t>(by_category[slug].size());
    home.categories.push_back(category);
  }
  for (const auto& [tag, members] : by_language) {
    home.languages.push_back({tag, static_cast<std::int64_t>(members.size())});
  }
  writer.write_home(home);
  for (const auto& category : home.categories) {
    store::ShowListPage list;
    list.category = category;
    list.total = category.show_count;
    list.shows = summaries(by_category[category.slug]);
    writer.write_list(list);
  }
  for (const auto& language : home.languages) {
    store::ShowListPage list;
    list.kind = store::ListKind::language;
    list.language = language;
    list.total = language.show_count;
    list.shows = summaries(by_language[language.tag]);
    writer.write_list(list);
  }
  for (const auto& show : shows) {
    store::ShowPages pages;
    pages.show = show;
    pages.episodes = std::move(pages.show.show.episodes);
    pages.episode_slugs = std::move(pages.show.episode_slugs);
    pages.show.show.episodes.clear();
    pages.show.episode_slugs.clear();
    for (const auto& name : show.show.categories) {
      pages.categories.push_back(categories.at(l10n::slugify(name)));
    }
    writer.write_show(pages);
  }
  return writer.publish();
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
  Summary m_summary;
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

TEST_F(RenderedSite, CountsEveryPage) {
  std::int64_t html_files = 0;
  for (const auto& [name, content] : read_tree(m_dir.path())) {
    html_files += name.ends_with("index.html") ? 1 : 0;
    EXPECT_EQ(name.find(".tmp-"), std::string::npos) << "temporary file left: " << name;
  }
  // Per locale: home, 3 categories, 2 languages, 3 shows (83 episodes take a second list page),
  // 84 episodes; plus the language chooser. The summary counts the two 404 pages too.
  EXPECT_EQ(html_files, 1 + 2 * (1 + 3 + 2 + 3 + 1 + 84));
  EXPECT_EQ(m_summary.pages, html_files + 2);
  EXPECT_EQ(m_summary.skipped_shows, 0);
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
  // Episode 34, the oldest on the first page, lasts 1968 + 34 seconds: a clock for the eye,
  // words for screen readers.
  EXPECT_NE(html.find("<time class=\"length\" datetime=\"PT33M22S\"><span "
                      "aria-hidden=\"true\">33:22</span><span class=\"visually-hidden\">33 "
                      "minutes, 22 seconds</span></time>"),
            std::string::npos);
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

TEST_F(RenderedSite, EpisodePageNumbersTheEpisodeAndLinksTranscriptsAndChapters) {
  const std::string english = page("en/podcasts/hello-world-tech/episode-83/index.html");
  EXPECT_NE(english.find("<p class=\"meta\">Season 2 · Episode 83</p>"), std::string::npos);
  EXPECT_NE(english.find("<li><a href=\"https://cdn.example/e83.vtt\" rel=\"nofollow ugc "
                         "noopener\">Transcript <bdi dir=\"ltr\">(VTT)</bdi></a></li>"),
            std::string::npos);
  EXPECT_NE(english.find("href=\"https://cdn.example/e83.srt\" rel=\"nofollow ugc "
                         "noopener\">Transcript <bdi dir=\"ltr\">(SRT)</bdi>"),
            std::string::npos);
  EXPECT_NE(english.find("href=\"https://cdn.example/e83.txt\" rel=\"nofollow ugc "
                         "noopener\">Transcript</a>"),
            std::string::npos);
  EXPECT_NE(english.find("<li><a href=\"https://cdn.example/e83.json\" rel=\"nofollow ugc "
                         "noopener\">Chapters</a></li>"),
            std::string::npos);
  const std::string arabic = page("ar/podcasts/hello-world-tech/episode-83/index.html");
  EXPECT_NE(arabic.find("<p class=\"meta\">الموسم 2 · الحلقة 83</p>"), std::string::npos);
  EXPECT_NE(arabic.find(">الفصول</a>"), std::string::npos);
  // An episode without numbers or resources shows neither.
  const std::string older = page("en/podcasts/hello-world-tech/episode-82/index.html");
  EXPECT_EQ(older.find("Season"), std::string::npos);
  EXPECT_EQ(older.find("class=\"resources\""), std::string::npos);
}

// Nothing a page holds can run: the policy allows no script (the language chooser's own file
// aside) and no inline style, and the pages need neither.
TEST_F(RenderedSite, EveryPageCarriesAStrictContentSecurityPolicy) {
  const std::string policy =
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src &apos;none&apos;; "
      "style-src &apos;self&apos;; img-src &apos;self&apos;; media-src http: https:; base-uri "
      "&apos;none&apos;; form-action &apos;self&apos;";
  int pages = 0;
  for (const auto& [name, content] : read_tree(m_dir.path())) {
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
  EXPECT_EQ(page("site.css"), testing::read_file(k_source_dir / "templates" / "site.css"));
  EXPECT_NE(page("choose-locale.js").find("location.replace"), std::string::npos);
  EXPECT_NE(page("en/podcasts/hello-world-tech/index.html")
                .find("<link rel=\"stylesheet\" href=\"../../../site.css\">"),
            std::string::npos);
}

// Cover art is the site's own copy: the files its pages link are placed under art/, each page
// links them relatively with every width in srcset, og:image and JSON-LD name the widest, and
// the feed's image URL appears nowhere. A show without art gets the placeholder.
TEST_F(RenderedSite, ShowsCoverArtFromTheSitesOwnFolder) {
  const std::string prefix = std::string("art/") + k_art_hash + "-";
  for (const int width : {160, 400, 1400}) {
    const std::string file = prefix + std::to_string(width) + ".webp";
    EXPECT_EQ(page(file), "RIFF" + std::to_string(width)) << file;
  }
  const std::string show = page("en/podcasts/hello-world-tech/index.html");
  const std::string up = "../../../";
  const std::string image =
      "<img class=\"art\" src=\"" + up + prefix + "400.webp\" srcset=\"" + up + prefix +
      "160.webp 160w, " + up + prefix + "400.webp 400w, " + up + prefix +
      "1400.webp 1400w\" sizes=\"200px\" width=\"400\" height=\"400\" alt=\"Cover art of "
      "\u2068Hello World Tech\u2069\" loading=\"lazy\" decoding=\"async\">";
  EXPECT_NE(show.find(image), std::string::npos) << show;
  EXPECT_NE(show.find("<meta property=\"og:image\" content=\"" + k_site_url + "/" + prefix +
                      "1400.webp\">"),
            std::string::npos);
  EXPECT_NE(show.find("\"image\":\"" + k_site_url + "/" + prefix + "1400.webp\""),
            std::string::npos);
  const std::string arabic = page("ar/podcasts/hello-world-tech/episode-83/index.html");
  EXPECT_NE(arabic.find("alt=\"صورة غلاف \u2068Hello World Tech\u2069\""), std::string::npos);
  EXPECT_NE(arabic.find("src=\"../../../../" + prefix + "400.webp\""), std::string::npos);
  const std::string list = page("en/categories/technology/index.html");
  EXPECT_NE(list.find("src=\"../../../" + prefix + "160.webp\" srcset=\""), std::string::npos)
      << list;
  EXPECT_NE(list.find("sizes=\"64px\" width=\"160\" height=\"160\""), std::string::npos);
  const std::string without = page("en/podcasts/mrhba/index.html");
  EXPECT_EQ(without.find("<img"), std::string::npos);
  EXPECT_NE(without.find("<span class=\"art art-none\" aria-hidden=\"true\"></span>"),
            std::string::npos);
  EXPECT_EQ(without.find("og:image"), std::string::npos);
  for (const auto& [name, content] : read_tree(m_dir.path())) {
    EXPECT_EQ(content.find("images.example"), std::string::npos) << name;
    for (std::size_t at = content.find("<img"); at != std::string::npos;
         at = content.find("<img", at + 1)) {
      const std::size_t src = content.find(" src=\"", at) + 6;
      EXPECT_EQ(content.substr(src, content.find('"', src) - src).find("//"), std::string::npos)
          << name;
    }
  }
  EXPECT_EQ(m_summary.missing_art, 0);
}

TEST(RenderSite, CountsCoverArtMissingFromTheArtFolder) {
  const testing::TempDir dir;
  const testing::TempDir empty_art;
  TestOptions options = options_for(dir.path() / "site");
  options.site.art_dir = empty_art.path();
  const Summary summary = render_site({hello_world_tech()}, options);
  EXPECT_EQ(summary.missing_art, 3);
  EXPECT_FALSE(fs::exists(dir.path() / "site" / "art"));
}

// The show pages as they are meant to be, byte for byte, in tests/unit/render/golden/. After an
// intended change, PODCRAWL_UPDATE_GOLDEN=1 rewrites the files; review their diff.
TEST_F(RenderedSite, ShowPagesMatchTheirGoldenFiles) {
  const fs::path golden_dir = k_source_dir / "tests" / "unit" / "render" / "golden";
  const bool update = std::getenv("PODCRAWL_UPDATE_GOLDEN") != nullptr;
  for (const std::string locale : {"ar", "en"}) {
    for (const std::string slug : {"hello-world-tech", "mrhba"}) {
      const fs::path golden = golden_dir / (locale + "-" + slug + ".html");
      const std::string rendered = page(locale + "/podcasts/" + slug + "/index.html");
      SCOPED_TRACE(golden.string());
      if (update) {
        std::ofstream(golden, std::ios::binary) << rendered;
        continue;
      }
      ASSERT_TRUE(fs::exists(golden)) << "missing: run with PODCRAWL_UPDATE_GOLDEN=1";
      const std::string expected = testing::read_file(golden);
      if (rendered == expected) {
        continue;
      }
      std::istringstream want(expected);
      std::istringstream got(rendered);
      std::string want_line;
      std::string got_line;
      int line = 0;
      while (true) {
        ++line;
        const bool more_wanted = static_cast<bool>(std::getline(want, want_line));
        const bool more_got = static_cast<bool>(std::getline(got, got_line));
        if (!more_wanted || !more_got || want_line != got_line) {
          ADD_FAILURE() << "first difference at line " << line
                        << "\n  golden:   " << (more_wanted ? want_line : "<end>")
                        << "\n  rendered: " << (more_got ? got_line : "<end>");
          break;
        }
      }
    }
  }
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
    if (!name.ends_with("index.html")) {
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

// The text of the page's one <script type="application/ld+json"> element.
std::string json_ld_of(const std::string& html) {
  const std::string open = "<script type=\"application/ld+json\">";
  const auto start = html.find(open);
  if (start == std::string::npos) {
    return {};
  }
  const auto end = html.find("</script>", start);
  return html.substr(start + open.size(), end - start - open.size());
}

TEST_F(RenderedSite, ShowPageDescribesThePodcastSeriesInJsonLd) {
  const std::string text = json_ld_of(page("ar/podcasts/hello-world-tech/index.html"));
  ASSERT_FALSE(text.empty());
  const auto json = nlohmann::json::parse(text);
  EXPECT_EQ(json["@context"], "https://schema.org");
  EXPECT_EQ(json["@type"], "PodcastSeries");
  EXPECT_EQ(json["name"], "Hello World Tech");
  EXPECT_EQ(json["url"], k_site_url + "/ar/podcasts/hello-world-tech/");
  EXPECT_EQ(json["webFeed"], "https://feeds.example/hello.xml");
  EXPECT_EQ(json["inLanguage"], "en");
  EXPECT_EQ(json["author"]["name"], "Ada & Co");
  EXPECT_EQ(json["numberOfEpisodes"], 83);
  EXPECT_EQ(text.find('&'), std::string::npos) << "raw & in " << text;
}

TEST_F(RenderedSite, JsonLdCannotCloseItsScriptElement) {
  const std::string html = page("en/podcasts/script-show/index.html");
  const std::string text = json_ld_of(html);
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.find('<'), std::string::npos) << text;
  EXPECT_NE(text.find("\\u003c/script\\u003e"), std::string::npos) << text;
  EXPECT_EQ(nlohmann::json::parse(text)["name"], "<script>alert(1)</script> Show");
  const auto episode =
      nlohmann::json::parse(json_ld_of(page("en/podcasts/script-show/first/index.html")));
  EXPECT_FALSE(episode.contains("associatedMedia")); // a javascript: enclosure is no media
}

TEST_F(RenderedSite, EpisodePageDescribesThePodcastEpisodeInJsonLd) {
  const auto json =
      nlohmann::json::parse(json_ld_of(page("en/podcasts/hello-world-tech/episode-83/index.html")));
  EXPECT_EQ(json["@type"], "PodcastEpisode");
  EXPECT_EQ(json["name"], "Episode 83: compilers");
  EXPECT_EQ(json["datePublished"], core::format_iso8601(k_now - 35 * k_day));
  EXPECT_EQ(json["timeRequired"], "PT34M11S");
  EXPECT_EQ(json["associatedMedia"]["contentUrl"], "https://cdn.example/e83.mp3");
  EXPECT_EQ(json["partOfSeries"]["@type"], "PodcastSeries");
  EXPECT_EQ(json["partOfSeries"]["url"], k_site_url + "/en/podcasts/hello-world-tech/");
}

TEST_F(RenderedSite, PagesCarryOpenGraphProperties) {
  const std::string html = page("ar/podcasts/hello-world-tech/index.html");
  const char* expected[] = {
      "<meta property=\"og:type\" content=\"website\">",
      "<meta property=\"og:title\" content=\"Hello World Tech\">",
      "<meta property=\"og:url\" "
      "content=\"https://podcasts.example/ar/podcasts/hello-world-tech/\">",
      "<meta property=\"og:locale\" content=\"ar_EG\">",
      "<meta property=\"og:locale:alternate\" content=\"en_US\">",
      "<meta property=\"og:description\" content=\"A show about software.\">",
  };
  for (const char* tag : expected) {
    EXPECT_NE(html.find(tag), std::string::npos) << tag;
  }
  EXPECT_NE(page("en/podcasts/hello-world-tech/episode-1/index.html")
                .find("<meta property=\"og:type\" content=\"article\">"),
            std::string::npos);
}

TEST_F(RenderedSite, SplitsLongEpisodeListsIntoPagesOfFifty) {
  const std::string first = page("en/podcasts/hello-world-tech/index.html");
  const std::string second = page("en/podcasts/hello-world-tech/page/2/index.html");
  // Newest first: episodes 83 to 34 on the show page, 33 to 1 on page 2.
  EXPECT_NE(first.find("href=\"episode-34/\""), std::string::npos);
  EXPECT_EQ(first.find("href=\"episode-33/\""), std::string::npos);
  EXPECT_NE(second.find("href=\"../../episode-33/\""), std::string::npos);
  EXPECT_NE(second.find("href=\"../../episode-1/\""), std::string::npos);
  EXPECT_EQ(second.find("episode-34/"), std::string::npos);
  EXPECT_NE(first.find("<a href=\"page/2/\" rel=\"next\">Next page</a>"), std::string::npos);
  EXPECT_NE(second.find("<a href=\"../../\" rel=\"prev\">Previous page</a>"), std::string::npos);
  EXPECT_NE(second.find("<a aria-current=\"page\">2</a>"), std::string::npos);
  EXPECT_NE(second.find("<link rel=\"canonical\" "
                        "href=\"https://podcasts.example/en/podcasts/hello-world-tech/page/2/\">"),
            std::string::npos);
  EXPECT_NE(page("sitemap.xml")
                .find("<loc>https://podcasts.example/ar/podcasts/hello-world-tech/"
                      "page/2/</loc>"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(m_dir.path() / "en/podcasts/hello-world-tech/page/3"));
  EXPECT_FALSE(fs::exists(m_dir.path() / "en/podcasts/mrhba/page"));
}

TEST_F(RenderedSite, WritesOneOpmlFilePerShowAndLinksIt) {
  const std::string opml = page("opml/hello-world-tech.opml");
  EXPECT_NE(opml.find("<opml version=\"2.0\">"), std::string::npos);
  EXPECT_NE(opml.find("<outline type=\"rss\" text=\"Hello World Tech\" title=\"Hello World Tech\" "
                      "xmlUrl=\"https://feeds.example/hello.xml\" "
                      "htmlUrl=\"https://hello.example/\" language=\"en\"/>"),
            std::string::npos)
      << opml;
  EXPECT_NE(page("ar/podcasts/hello-world-tech/index.html")
                .find("href=\"../../../opml/hello-world-tech.opml\""),
            std::string::npos);
  EXPECT_FALSE(fs::exists(m_dir.path() / "opml/script-show.opml")); // no http(s) feed URL
}

TEST_F(RenderedSite, LocalizesApplesCategoriesAndKeepsOthersInTheFeedsLanguage) {
  const std::string arabic = page("ar/podcasts/hello-world-tech/index.html");
  EXPECT_NE(arabic.find("<bdi lang=\"ar\">تقنية</bdi>"), std::string::npos);
  EXPECT_NE(arabic.find("<bdi lang=\"en\">Tech News</bdi>"), std::string::npos);
  EXPECT_EQ(arabic.find(">Technology<"), std::string::npos);
  const std::string category = page("ar/categories/technology/index.html");
  EXPECT_NE(category.find("<h1>البودكاست في تصنيف <bdi lang=\"ar\">تقنية</bdi></h1>"),
            std::string::npos);
  // The Arabic show's own category "تقنية" is no Apple category: shown as the feed spells it.
  EXPECT_NE(page("en/index.html").find("<bdi lang=\"ar\">تقنية</bdi>"), std::string::npos);
}

TEST_F(RenderedSite, HomePageListsTheLatestEpisodesAcrossShows) {
  const std::string html = page("en/index.html");
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

TEST_F(RenderedSite, WritesALocalized404PageWithAbsoluteLinks) {
  const std::string html = page("ar/404.html");
  EXPECT_EQ(html.rfind("<!DOCTYPE html>\n<html lang=\"ar\" dir=\"rtl\">", 0), 0U);
  EXPECT_NE(html.find("<h1>الصفحة غير موجودة</h1>"), std::string::npos);
  EXPECT_NE(html.find("<meta name=\"robots\" content=\"noindex\">"), std::string::npos);
  EXPECT_EQ(html.find("rel=\"canonical\""), std::string::npos);
  EXPECT_EQ(html.find("hreflang=\"x-default\""), std::string::npos);
  EXPECT_NE(html.find("<a class=\"site-name\" href=\"/ar/\">"), std::string::npos);
  EXPECT_NE(html.find("href=\"/en/\" hreflang=\"en\""), std::string::npos);
  EXPECT_EQ(page("sitemap.xml").find("404"), std::string::npos);
}

TEST(RenderSite, Roots404LinksAtTheSiteUrlsPath) {
  const testing::TempDir dir;
  TestOptions options = options_for(dir.path());
  options.site.site_url = "https://example.org/podcasts/";
  render_site({hello_world_tech()}, options);
  const std::string html = testing::read_file(dir.path() / "en" / "404.html");
  EXPECT_NE(html.find("<a class=\"site-name\" href=\"/podcasts/en/\">"), std::string::npos);
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

// Every file of the site with its content and modification time.
std::map<std::string, std::pair<std::string, fs::file_time_type>> snapshot(const fs::path& dir) {
  std::map<std::string, std::pair<std::string, fs::file_time_type>> files;
  for (const auto& [name, content] : read_tree(dir)) {
    files[name] = {content, fs::last_write_time(dir / name)};
  }
  return files;
}

// Files may grow to `bytes` at most while it lives; writing past that fails with EFBIG (the
// signal that would kill the process is ignored), as a full disk fails with ENOSPC.
class FileSizeLimit {
public:
  explicit FileSizeLimit(rlim_t bytes) {
    ::getrlimit(RLIMIT_FSIZE, &m_saved);
    m_handler = std::signal(SIGXFSZ, SIG_IGN);
    rlimit limited = m_saved;
    limited.rlim_cur = bytes;
    ::setrlimit(RLIMIT_FSIZE, &limited);
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &m_saved);
    std::signal(SIGXFSZ, m_handler);
  }

private:
  rlimit m_saved{};
  void (*m_handler)(int) = nullptr;
};

TEST(RenderSite, AFailedRenderLeavesThePreviousSiteAsItWas) {
  const testing::TempDir dir;
  const auto options = options_for(dir.path());
  render_site({hello_world_tech()}, options);
  const auto before = snapshot(dir.path());
  store::StoredShow changed = hello_world_tech();
  changed.show.title = "Hello World Tech, renamed";
  {
    const FileSizeLimit full(4096);
    try {
      render_site({changed, arabic_show()}, options);
      ADD_FAILURE() << "the render did not fail";
    } catch (const core::EnvironmentError& error) {
      EXPECT_NE(std::string(error.what()).find("cannot write"), std::string::npos) << error.what();
      EXPECT_NE(std::string(error.what()).find("File too large"), std::string::npos)
          << error.what();
    }
  }
  EXPECT_EQ(snapshot(dir.path()), before);
  // Nothing staged is left beside the site.
  for (const char* staging : {".next", ".update"}) {
    EXPECT_FALSE(
        fs::exists(dir.path().parent_path() / ("." + dir.path().filename().string() + staging)))
        << staging;
  }
  render_site({changed, arabic_show()}, options);
  EXPECT_NE(testing::read_file(dir.path() / "en" / "podcasts" / "hello-world-tech" / "index.html")
                .find("renamed"),
            std::string::npos);
}

TEST(RenderSite, RejectsUnknownLocalesAndRelativeSiteUrls) {
  const testing::TempDir dir;
  TestOptions options = options_for(dir.path());
  options.site.locales = {"en", "xx"};
  EXPECT_THROW(render_site({hello_world_tech()}, options), core::UsageError);
  options = options_for(dir.path());
  options.site.site_url = "podcasts.example";
  EXPECT_THROW(render_site({hello_world_tech()}, options), core::UsageError);
}

// A page of search results: shows, one with a matching episode under it, the words isolated
// and escaped, every link (pages, locales) carrying the words, nothing for crawlers to index.
TEST(SearchPage, ListsShowsWithTheirEpisodesAndKeepsTheWordsInEveryLink) {
  testing::TempDir dir;
  Renderer renderer(options_for(dir.path()).site);
  const store::StoredShow show = hello_world_tech();
  store::SearchPage results;
  results.query = "compilers <b>";
  results.page = 2;
  results.total = 45;
  const store::ShowSummary summary{show.slug, show.show.title, show.show.author, "en",
                                   83,        std::nullopt};
  results.results.push_back({summary, true, false, {}});
  results.results.push_back({summary,
                             false,
                             false,
                             {store::EpisodeEntry{show.slug, show.show.title, "en",
                                                  show.episode_slugs[3], show.show.episodes[3]}}});
  const std::string html = renderer.search_page(results, "ar", k_now).html;
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

// A language page lists the shows of every region of its language, each labelled with its
// region in the reader's language.
TEST(LanguagePage, LabelsEachShowWithItsRegion) {
  testing::TempDir dir;
  Renderer renderer(options_for(dir.path()).site);
  store::ShowListPage list;
  list.kind = store::ListKind::language;
  list.language = {"ar", 2};
  list.total = 2;
  list.shows = {{"cairo", "Cairo Nights", "", "ar-EG", 3, std::nullopt},
                {"plain", "Plain Arabic", "", "ar", 1, std::nullopt}};
  const std::string english = renderer.list_page(list, "en", k_now).html;
  EXPECT_NE(english.find("<h1>"), std::string::npos);
  EXPECT_NE(english.find(" <span class=\"meta\">Egypt</span>"), std::string::npos);
  EXPECT_EQ(english.find("Egypt", english.find("Plain Arabic")), std::string::npos);
  const std::string arabic = renderer.list_page(list, "ar", k_now).html;
  EXPECT_NE(arabic.find("<span class=\"meta\">مصر</span>"), std::string::npos);
}

TEST(SearchPage, AnEmptyOrTooLongQueryGetsAPageThatAsksForWords) {
  testing::TempDir dir;
  Renderer renderer(options_for(dir.path()).site);
  store::SearchPage empty;
  const std::string asking = renderer.search_page(empty, "en", k_now).html;
  EXPECT_NE(asking.find("<h1>Search</h1>"), std::string::npos);
  EXPECT_NE(asking.find("<p>Type a few words to search"), std::string::npos);
  EXPECT_EQ(asking.find("class=\"pagination\""), std::string::npos);

  store::SearchPage long_query;
  long_query.query = std::string(300, 'x');
  long_query.too_long = true;
  const std::string shorten = renderer.search_page(long_query, "en", k_now).html;
  EXPECT_NE(shorten.find("at most 200 characters long"), std::string::npos);
  EXPECT_EQ(shorten.find("?q=xxx"), std::string::npos);

  store::SearchPage nothing;
  nothing.query = "zzzz";
  const std::string none = renderer.search_page(nothing, "en", k_now).html;
  EXPECT_NE(none.find("Nothing in the directory matches"), std::string::npos);
  EXPECT_EQ(none.find("class=\"results\""), std::string::npos);
}

} // namespace
} // namespace podcrawl::render

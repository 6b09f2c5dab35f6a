#include "podcrawl/publish/site.hpp"

#include <gtest/gtest.h>

#include <sys/resource.h>

#include <csignal>

#include <chrono>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "podcrawl/core/config.hpp"
#include "podcrawl/core/error.hpp"
#include "support/temp_dir.hpp"
#include "unit/render/page_fixture.hpp"

// The exported site as SiteWriter writes it: its files, where they are, which are rewritten and
// what a failure leaves. What the pages say is tested on render::Renderer in tests/unit/render/.
namespace podcrawl::render {
namespace {

namespace fs = std::filesystem;
using publish::SiteWriter;
using publish::Summary;

// What a render takes besides its page models.
struct TestOptions {
  fs::path out_dir;
  SiteOptions site;
  std::int64_t now = k_now;
};

TestOptions options_for(const fs::path& out_dir) {
  TestOptions options;
  options.out_dir = out_dir;
  options.site = site_options();
  return options;
}

// The page models of `shows` (render/page_fixture.hpp), written by a SiteWriter.
Summary render_site(std::vector<model::StoredShow> shows, const TestOptions& options) {
  const Directory directory = directory_of(std::move(shows));
  SiteWriter writer(options.site, options.out_dir, options.now);
  writer.write_home(directory.home);
  for (const auto& list : directory.lists) {
    writer.write_list(list);
  }
  for (const auto& show : directory.shows) {
    writer.write_show(show);
  }
  return writer.publish();
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
      "en/404.html",
      "ar/404.html",
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

// The site holds each page, the stylesheet, the chooser's script and each OPML file as the
// renderer makes them (so what tests/unit/render/ finds on a page holds for the exported site),
// and besides them only the sitemap and the cover art.
TEST_F(RenderedSite, HoldsEveryFileAsTheRendererMakesIt) {
  Renderer renderer(site_options());
  const auto rendered = every_file(renderer, directory_of(all_shows()));
  const auto site = read_tree(m_dir.path());
  for (const auto& [name, content] : rendered) {
    const auto file = site.find(name);
    ASSERT_NE(file, site.end()) << name;
    EXPECT_EQ(file->second, content) << name;
  }
  for (const auto& [name, content] : site) {
    EXPECT_TRUE(rendered.contains(name) || name == "sitemap.xml" || name.starts_with("art/"))
        << name;
  }
}

TEST_F(RenderedSite, WritesTheStylesheetAndTheChoosersScriptAtItsRoot) {
  EXPECT_EQ(page("site.css"), testing::read_file(core::source_dir() / "templates" / "site.css"));
  EXPECT_NE(page("choose-locale.js").find("location.replace"), std::string::npos);
}

// Cover art is the site's own copy: the files its pages link are placed under art/.
TEST_F(RenderedSite, PlacesTheCoverArtItsPagesLinkUnderArt) {
  const std::string prefix = std::string("art/") + k_art_hash + "-";
  for (const int width : {160, 400, 1400}) {
    const std::string file = prefix + std::to_string(width) + ".webp";
    EXPECT_EQ(page(file), "RIFF" + std::to_string(width)) << file;
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
    if (name != "index.html") { // the language chooser has no locale of its own
      // Each page is its own locale's alternate: <locale>/... links itself under that tag.
      const std::string locale = name.substr(0, name.find('/'));
      EXPECT_NE(sitemap.find("hreflang=\"" + locale + "\" href=\"" + url + "\""), std::string::npos)
          << url;
    }
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
  EXPECT_EQ(sitemap.find("404"), std::string::npos);
  // It names the site's pages alone: no feed's text, script URL or image.
  for (const char* text : {"<script>alert", "<b>Author", "javascript:", "images.example"}) {
    EXPECT_EQ(sitemap.find(text), std::string::npos) << text;
  }
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

TEST(RenderSite, GivesByteIdenticalOutputForTheSameInput) {
  const testing::TempDir first;
  const testing::TempDir second;
  std::vector<model::StoredShow> shows = all_shows();
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
                                hello_world_tech().episodes.front().slug / "index.html";
  const auto long_ago = fs::file_time_type::clock::now() - std::chrono::hours(24 * 365);
  fs::last_write_time(show_page, long_ago);
  fs::last_write_time(episode_page, long_ago);
  model::StoredShow changed = hello_world_tech();
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

TEST(RenderSite, ASiteDeletedBesideItsStateIsRenderedWhole) {
  const testing::TempDir dir;
  const auto options = options_for(dir.path() / "site");
  render_site({hello_world_tech()}, options);
  const auto whole = read_tree(dir.path() / "site");
  ASSERT_GT(whole.size(), 80u);
  fs::remove_all(dir.path() / "site");
  const Summary summary = render_site({hello_world_tech()}, options);
  EXPECT_FALSE(summary.updated);
  EXPECT_EQ(read_tree(dir.path() / "site"), whole);
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
  model::StoredShow changed = hello_world_tech();
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

} // namespace
} // namespace podcrawl::render

// Incremental rendering through the podcrawl binary: a render after a crawl rewrites exactly
// the pages the crawl changed, removes the pages of shows that left, writes nothing when nothing
// changed, and equals a full render byte for byte; a killed render leaves the site whole.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "directory_fixture.hpp"
#include "support/loopback_server.hpp"

namespace podcrawl {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

constexpr const char* k_now = "2026-12-01T00:00:00Z";

std::string read_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// One published file: its inode and modification time (a rewrite changes them) and content.
struct FileState {
  ino_t inode = 0;
  std::int64_t mtime_ns = 0;
  std::string content;
};

using SiteSnapshot = std::map<std::string, FileState>;

SiteSnapshot snapshot_of(const fs::path& site) {
  SiteSnapshot files;
  for (const auto& entry : fs::recursive_directory_iterator(site)) {
    if (!entry.is_regular_file()) {
      continue;
    }
    struct stat status {};
    ::stat(entry.path().c_str(), &status);
    files[fs::relative(entry.path(), site).string()] = {
        status.st_ino, std::int64_t{status.st_mtim.tv_sec} * 1'000'000'000 + status.st_mtim.tv_nsec,
        read_file(entry.path())};
  }
  return files;
}

// The files written (new, or another inode or time), in path order.
std::vector<std::string> rewritten(const SiteSnapshot& before, const SiteSnapshot& after) {
  std::vector<std::string> paths;
  for (const auto& [path, file] : after) {
    const auto old = before.find(path);
    if (old == before.end() || old->second.inode != file.inode ||
        old->second.mtime_ns != file.mtime_ns) {
      paths.push_back(path);
    }
  }
  return paths;
}

std::vector<std::string> removed(const SiteSnapshot& before, const SiteSnapshot& after) {
  std::vector<std::string> paths;
  for (const auto& [path, file] : before) {
    if (!after.contains(path)) {
      paths.push_back(path);
    }
  }
  return paths;
}

// Two sites hold the same files with the same bytes; the first difference otherwise.
std::string difference(const SiteSnapshot& a, const SiteSnapshot& b) {
  for (const auto& [path, file] : a) {
    const auto other = b.find(path);
    if (other == b.end()) {
      return path + " only in the first";
    }
    if (other->second.content != file.content) {
      return path + " differs";
    }
  }
  for (const auto& [path, file] : b) {
    if (!a.contains(path)) {
      return path + " only in the second";
    }
  }
  return "";
}

std::string joined(const std::vector<std::string>& paths) {
  std::string text;
  for (const auto& path : paths) {
    text += path + "\n";
  }
  return text;
}

class RenderUpdate : public testing::DirectoryTest {
protected:
  void SetUp() override {
    DirectoryTest::SetUp();
    if (IsSkipped()) { // no test database
      return;
    }
    add_show("tech", "Tech Weekly", "Technology", 60);
    add_show("news", "Morning News", "News", 3);
    add_show("ar", "نشرة الأخبار", "News", 2, "ar");
    add_opml(m_urls);
    crawl();
    m_slugs = slugs_by_url();
  }

  void add_show(const std::string& name, const std::string& title, const std::string& category,
                int episodes, const std::string& language = "en") {
    auto feed = std::make_shared<testing::ChangingFeed>();
    feed->set(testing::generated_feed(title, category, episodes, language), "\"1\"");
    feed->serve(m_server, "/" + name + ".xml");
    m_feeds[name] = feed;
    m_urls.push_back(m_server.url("/" + name + ".xml"));
  }

  void crawl() {
    const auto crawled = run({"--allow-private-networks", "crawl", "--all"});
    ASSERT_EQ(crawled.status, 0) << crawled.out;
  }

  // Render into `site` (relative to the test's folder); its stdout.
  std::string render(const std::string& site, std::vector<std::string> extra = {}) {
    std::vector<std::string> arguments = {
        "render", "--out", (m_dir.path() / site).string(), "--locales", "ar,en", "--now", k_now};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    const auto rendered = run(arguments);
    EXPECT_EQ(rendered.status, 0) << rendered.out;
    return rendered.out;
  }

  fs::path site(const std::string& name) const { return m_dir.path() / name; }
  std::string slug(const std::string& name) const {
    return m_slugs.at(m_server.url("/" + name + ".xml"));
  }

  testing::LoopbackServer m_server;
  std::map<std::string, std::shared_ptr<testing::ChangingFeed>> m_feeds;
  std::vector<std::string> m_urls;
  std::map<std::string, std::string> m_slugs;
};

TEST_F(RenderUpdate, OneNewEpisodeRewritesItsShowsPagesAndTheListsThatShowIt) {
  EXPECT_NE(render("site").find("rendered "), std::string::npos);
  const SiteSnapshot before = snapshot_of(site("site"));

  m_feeds["tech"]->set(testing::generated_feed("Tech Weekly", "Technology", 61), "\"2\"");
  crawl();
  const std::string out = render("site");
  EXPECT_NE(out.find("updated "), std::string::npos) << out;
  const SiteSnapshot after = snapshot_of(site("site"));

  const std::string tech = "/podcasts/" + slug("tech") + "/";
  const std::vector<std::string> written = rewritten(before, after);
  std::set<std::string> written_set(written.begin(), written.end());
  for (const std::string locale : {"ar", "en"}) {
    // The new episode's page, and the show's list pages (every episode moved down one).
    EXPECT_TRUE(written_set.contains(locale + tech + "index.html")) << joined(written);
    EXPECT_TRUE(written_set.contains(locale + tech + "page/2/index.html")) << joined(written);
    EXPECT_TRUE(written_set.contains(locale + "/index.html")) << joined(written);
    EXPECT_TRUE(written_set.contains(locale + "/categories/technology/index.html"))
        << joined(written);
  }
  for (const auto& path : written) {
    const bool tech_page = path.find(tech) != std::string::npos;
    const bool list_page = path == "ar/index.html" || path == "en/index.html" ||
                           path.find("/categories/technology/") != std::string::npos ||
                           path.find("/languages/en/") != std::string::npos;
    const bool sitemap = path.starts_with("sitemap");
    EXPECT_TRUE(tech_page || list_page || sitemap) << path << " was rewritten";
  }
  // 61 episode pages and 2 list pages per locale, of which one episode page is new.
  std::size_t new_files = 0;
  for (const auto& path : written) {
    new_files += before.contains(path) ? 0 : 1;
  }
  EXPECT_EQ(new_files, 2u) << joined(written);
  EXPECT_TRUE(removed(before, after).empty()) << joined(removed(before, after));

  // The update holds exactly what a full render of the same database writes.
  render("full", {"--full"});
  EXPECT_EQ(difference(after, snapshot_of(site("full"))), "");
}

TEST_F(RenderUpdate, RemovedShowsLoseTheirPagesAndARenderWithNothingToDoWritesNothing) {
  render("site");
  const std::string news = slug("news");
  ASSERT_TRUE(fs::exists(site("site") / "en" / "podcasts" / news / "index.html"));
  ASSERT_EQ(run({"remove", m_server.url("/news.xml")}).status, 0);
  render("site");
  const SiteSnapshot after_removal = snapshot_of(site("site"));
  for (const std::string locale : {"ar", "en"}) {
    EXPECT_FALSE(fs::exists(site("site") / locale / "podcasts" / news)) << locale;
  }
  EXPECT_FALSE(fs::exists(site("site") / "opml" / (news + ".opml")));
  // The Arabic show keeps the News category alive; its list no longer names the removed show.
  const std::string category =
      read_file(site("site") / "en" / "categories" / "news" / "index.html");
  EXPECT_EQ(category.find("Morning News"), std::string::npos);
  EXPECT_NE(category.find(slug("ar")), std::string::npos);
  render("full", {"--full"});
  EXPECT_EQ(difference(after_removal, snapshot_of(site("full"))), "");

  const std::string out = render("site");
  EXPECT_NE(out.find(" 0 files written, 0 removed"), std::string::npos) << out;
  const SiteSnapshot unchanged = snapshot_of(site("site"));
  EXPECT_TRUE(rewritten(after_removal, unchanged).empty())
      << joined(rewritten(after_removal, unchanged));
  EXPECT_EQ(unchanged.size(), after_removal.size());
}

TEST_F(RenderUpdate, AFullRenderEqualsARenderIntoAnEmptyFolder) {
  render("site");
  m_feeds["news"]->set(testing::generated_feed("Morning News", "News", 4), "\"2\"");
  crawl();
  render("site");
  ASSERT_EQ(run({"remove", m_server.url("/tech.xml")}).status, 0);
  const std::string out = render("site", {"--full"});
  EXPECT_NE(out.find("rendered "), std::string::npos) << out;
  render("fresh");
  EXPECT_EQ(difference(snapshot_of(site("site")), snapshot_of(site("fresh"))), "");
}

TEST_F(RenderUpdate, AKilledRenderLeavesTheSiteWholeAndTheNextRenderCompletesIt) {
  // Enough shows that the update is still staging when it is killed.
  std::vector<std::string> urls;
  for (int i = 0; i < 150; ++i) {
    const std::string name = "bulk-" + std::to_string(i);
    add_show(name, "Bulk Show " + std::to_string(i), "Arts", 30);
    urls.push_back(m_urls.back());
  }
  add_opml(urls);
  crawl();
  render("site");
  const SiteSnapshot before = snapshot_of(site("site"));
  for (int i = 0; i < 150; ++i) {
    m_feeds["bulk-" + std::to_string(i)]->set(
        testing::generated_feed("Bulk Show " + std::to_string(i), "Arts", 31), "\"2\"");
  }
  crawl();

  testing::ChildProcess update(
      command({"render", "--out", site("site").string(), "--locales", "ar,en", "--now", k_now}));
  const fs::path staged = m_dir.path() / ".site.update" / "site";
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  while (!fs::exists(staged / "en") && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::yield();
  }
  update.kill();
  ASSERT_TRUE(update.wait_for(30s).has_value());

  const SiteSnapshot after_kill = snapshot_of(site("site"));
  for (const auto& [path, file] : after_kill) {
    EXPECT_EQ(path.find(".tmp-"), std::string::npos) << path;
    if (path.ends_with(".html")) {
      EXPECT_TRUE(file.content.ends_with("</html>\n")) << path << " is cut short";
    }
  }
  if (!fs::exists(m_dir.path() / ".site.update" / "committed")) {
    EXPECT_EQ(difference(before, after_kill), "");
    EXPECT_TRUE(rewritten(before, after_kill).empty());
  }

  render("site");
  EXPECT_FALSE(fs::exists(m_dir.path() / ".site.update"));
  render("full", {"--full"});
  EXPECT_EQ(difference(snapshot_of(site("site")), snapshot_of(site("full"))), "");
}

TEST_F(RenderUpdate, ASecondRenderOfTheSameSiteIsRefusedWhileOneRuns) {
  render("site");
  const SiteSnapshot before = snapshot_of(site("site"));
  // Hold the site's lock as a running render does.
  const int lock = ::open((m_dir.path() / ".site.lock").c_str(), O_RDWR | O_CLOEXEC);
  ASSERT_GE(lock, 0);
  ASSERT_EQ(::flock(lock, LOCK_EX | LOCK_NB), 0);
  const auto refused = run(
      {"render", "--out", site("site").string(), "--locales", "ar,en", "--now", k_now, "--full"});
  ::close(lock);
  EXPECT_EQ(refused.status, 1);
  EXPECT_EQ(difference(before, snapshot_of(site("site"))), "");
  EXPECT_TRUE(rewritten(before, snapshot_of(site("site"))).empty());
}

} // namespace
} // namespace podcrawl

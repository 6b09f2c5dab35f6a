// The live directory (`podcrawl serve` without --dir) against a real PostgreSQL and a crawl of
// loopback feeds: the same bytes as `render`, HTTP validators and codings, changes from a crawl,
// hostile requests, slow clients and SIGTERM.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <brotli/decode.h>
#include <gtest/gtest.h>
#include <zlib.h>

#include "directory_fixture.hpp"
#include "support/http_client.hpp"
#include "support/images.hpp"
#include "support/loopback_server.hpp"

namespace podcrawl {
namespace {

using namespace std::chrono_literals;

using testing::Answer;
using testing::connect_to;
using testing::get;
using testing::request;
using testing::send_all;
using testing::send_request;

constexpr const char* k_now = "2026-12-01T00:00:00Z";

std::string gunzip(const std::string& compressed) {
  z_stream stream{};
  if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK) {
    throw std::runtime_error("inflateInit2 failed");
  }
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  stream.avail_in = static_cast<uInt>(compressed.size());
  std::string out;
  int status = Z_OK;
  while (status == Z_OK) {
    char buffer[65536];
    stream.next_out = reinterpret_cast<Bytef*>(buffer);
    stream.avail_out = sizeof buffer;
    status = inflate(&stream, Z_NO_FLUSH);
    out.append(buffer, sizeof buffer - stream.avail_out);
  }
  inflateEnd(&stream);
  if (status != Z_STREAM_END) {
    throw std::runtime_error("not a whole gzip stream");
  }
  return out;
}

std::string unbrotli(const std::string& compressed) {
  std::string out(compressed.size() * 40 + 65536, '\0');
  std::size_t size = out.size();
  if (BrotliDecoderDecompress(
          compressed.size(), reinterpret_cast<const std::uint8_t*>(compressed.data()), &size,
          reinterpret_cast<std::uint8_t*>(out.data())) != BROTLI_DECODER_RESULT_SUCCESS) {
    throw std::runtime_error("not a whole brotli stream");
  }
  out.resize(size);
  return out;
}

std::string read_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The address the live directory answers a rendered file at: a folder's index.html is the folder.
std::string address_of(const std::string& relative) {
  if (relative == "index.html") {
    return "/";
  }
  if (relative.ends_with("/index.html")) {
    return "/" + relative.substr(0, relative.size() - 10);
  }
  return "/" + relative;
}

// podcrawl_cache_hits_total from /metrics.
long cache_hits(int port) {
  const std::string metrics = get(port, "/metrics").body;
  const std::string name = "\npodcrawl_cache_hits_total ";
  const auto at = metrics.find(name);
  return at == std::string::npos ? -1 : std::stol(metrics.substr(at + name.size()));
}

class LiveServe : public testing::DirectoryTest {
protected:
  void SetUp() override {
    DirectoryTest::SetUp();
    if (IsSkipped()) { // no test database
      return;
    }
    m_tech->set(testing::tech_feed(), "\"tech-1\"");
    m_tech->serve(m_feeds, "/tech.xml");
    // The Arabic show has cover art, kept in the test's own art folder.
    m_feeds.serve_feed("/cover.jpg", testing::noise_jpeg(300, 300), "image/jpeg", "\"cover-1\"");
    std::string arabic = testing::arabic_feed();
    const std::string language = "<language>ar</language>";
    arabic.insert(arabic.find(language) + language.size(),
                  "<itunes:image href=\"" + m_feeds.url("/cover.jpg") + "\"/>");
    m_feeds.serve_feed("/ar.xml", arabic, "application/rss+xml", "\"ar-1\"");
    testing::write_file(art_config(), art_lines());
    add_opml({m_feeds.url("/tech.xml"), m_feeds.url("/ar.xml")});
    const auto crawled =
        run({"--config", art_config().string(), "--allow-private-networks", "crawl"});
    ASSERT_EQ(crawled.status, 0) << crawled.out;
    m_tech_slug = slugs_by_url().at(m_feeds.url("/tech.xml"));
  }

  // Start the live directory on a free port with the test's clock, configured by the given
  // [serve] lines; the port it listens on. Its access log is off: nothing reads the server's
  // stderr while it runs, and a full pipe would stall it.
  int start_serve(const std::string& serve_lines = "") {
    const auto config = m_dir.path() / "serve.toml";
    testing::write_file(config, art_lines() + "[serve]\naccess_log = false\n" + serve_lines);
    std::vector<std::string> arguments = {"--config", config.string()};
    for (const char* argument : {"serve", "--port", "0", "--locales", "ar,en", "--now", k_now}) {
      arguments.emplace_back(argument);
    }
    m_serve = std::make_unique<testing::ChildProcess>(command(arguments));
    const auto out = m_serve->wait_for_output("/\n", 60s);
    if (!out) {
      ADD_FAILURE() << "serve did not start";
      return 0;
    }
    const auto colon = out->rfind(':');
    return std::stoi(out->substr(colon + 1));
  }

  // Start `serve --dir site` on a free port; the port it listens on.
  int start_files(const std::filesystem::path& site) {
    const auto config = m_dir.path() / "files.toml";
    testing::write_file(config, "[serve]\naccess_log = false\n");
    m_files = std::make_unique<testing::ChildProcess>(
        command({"--config", config.string(), "serve", "--dir", site.string(), "--port", "0"}));
    const auto out = m_files->wait_for_output("/\n", 60s);
    if (!out) {
      ADD_FAILURE() << "serve --dir did not start";
      return 0;
    }
    return std::stoi(out->substr(out->rfind(':') + 1));
  }

  std::string show_address() const { return "/en/podcasts/" + m_tech_slug + "/"; }
  std::filesystem::path art_config() const { return m_dir.path() / "art.toml"; }
  std::string art_lines() const {
    return "[art]\ndir = \"" + (m_dir.path() / "art").string() + "\"\n";
  }
  void expect_a_new_episode_on_the_live_pages(int port);

  testing::LoopbackServer m_feeds;
  std::shared_ptr<testing::ChangingFeed> m_tech = std::make_shared<testing::ChangingFeed>();
  std::string m_tech_slug;
  std::unique_ptr<testing::ChildProcess> m_serve;
  std::unique_ptr<testing::ChildProcess> m_files;
};

TEST_F(LiveServe, AnswersEveryFileRenderWritesWithTheSameBytes) {
  const auto site = m_dir.path() / "site";
  const auto rendered = run({"--config", art_config().string(), "render", "--out", site.string(),
                             "--locales", "ar,en", "--now", k_now});
  ASSERT_EQ(rendered.status, 0) << rendered.out;
  const int port = start_serve();
  ASSERT_NE(port, 0);

  int compared = 0;
  std::map<std::string, int> by_kind;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(site)) {
    if (!entry.is_regular_file()) {
      continue;
    }
    const std::string relative = std::filesystem::relative(entry.path(), site).string();
    // Sitemaps list the exported files for crawlers; the live directory has none.
    if (relative.starts_with("sitemap")) {
      continue;
    }
    const Answer answer = get(port, address_of(relative));
    ASSERT_EQ(answer.status, 200) << relative;
    ASSERT_EQ(answer.body, read_file(entry.path())) << relative;
    ++compared;
    ++by_kind[entry.path().extension().string()];
  }
  RecordProperty("compared", compared);
  // Both locales' home, category, language, show (two pages), episode and 404 pages, the root,
  // the stylesheet, the script and the OPML files.
  EXPECT_GE(compared, 2 * (1 + 2 + 2 + 3 + 84 + 1) + 3);
  EXPECT_GE(by_kind[".opml"], 2);
  EXPECT_EQ(by_kind[".css"], 1);
  // The cover art's two widths (160 px and the original 300), cached for good.
  EXPECT_EQ(by_kind[".webp"], 2);
  for (const auto& entry : std::filesystem::directory_iterator(site / "art")) {
    const Answer art = get(port, "/art/" + entry.path().filename().string());
    EXPECT_EQ(art.header("content-type"), "image/webp");
    EXPECT_EQ(art.header("cache-control"), "public, max-age=31536000, immutable");
  }
  EXPECT_EQ(get(port, "/art/0123456789abcdef0123456789abcdef01234567-160.webp").status, 404);

  const Answer missing = get(port, "/ar/podcasts/no-such-show/");
  EXPECT_EQ(missing.status, 404);
  EXPECT_EQ(missing.body, read_file(site / "ar" / "404.html"));
  const Answer html = get(port, show_address());
  EXPECT_EQ(html.header("content-type"), "text/html; charset=utf-8");
}

TEST_F(LiveServe, ServesARenderedSiteAsFilesWithTheLiveDirectorysAnswers) {
  const auto site = m_dir.path() / "site";
  const auto rendered = run({"--config", art_config().string(), "render", "--out", site.string(),
                             "--locales", "ar,en", "--now", k_now});
  ASSERT_EQ(rendered.status, 0) << rendered.out;
  testing::write_file(site / ".hidden", "not for clients");
  testing::write_file(site / "en" / "notes.txt", "not of the layout");
  const int live = start_serve();
  const int files = start_files(site);
  ASSERT_NE(live, 0);
  ASSERT_NE(files, 0);

  int compared = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(site)) {
    const std::string relative = std::filesystem::relative(entry.path(), site).string();
    if (!entry.is_regular_file() || relative.starts_with("sitemap") || relative == "en/notes.txt" ||
        relative == ".hidden") {
      continue;
    }
    const Answer from_files = get(files, address_of(relative));
    const Answer from_live = get(live, address_of(relative));
    ASSERT_EQ(from_files.status, 200) << relative;
    EXPECT_EQ(from_files.body, read_file(entry.path())) << relative;
    for (const char* header :
         {"content-type", "content-security-policy", "x-content-type-options", "vary"}) {
      EXPECT_EQ(from_files.header(header), from_live.header(header)) << relative << " " << header;
    }
    EXPECT_EQ(from_files.header("cache-control"),
              relative.starts_with("art/") ? "public, max-age=31536000, immutable" : "max-age=0")
        << relative;
    ++compared;
  }
  EXPECT_GE(compared, 2 * (1 + 2 + 2 + 3 + 84 + 1) + 3);
  const Answer sitemap = get(files, "/sitemap.xml");
  EXPECT_EQ(sitemap.status, 200);
  EXPECT_EQ(sitemap.header("content-type"), "application/xml; charset=utf-8");
  EXPECT_EQ(sitemap.body, read_file(site / "sitemap.xml"));

  // The same answers where no file is: 404 pages, redirects, the root by language.
  for (const std::string& path :
       std::vector<std::string>{"/ar/podcasts/no-such-show/", "/en/search/", "/metrics",
                                "/en/notes.txt", "/.hidden", "/en/podcasts/" + m_tech_slug}) {
    const Answer from_files = get(files, path);
    const Answer from_live = get(live, path);
    if (path == "/en/search/" || path == "/metrics") { // the live directory's own
      EXPECT_EQ(from_files.status, 404) << path;
      continue;
    }
    EXPECT_EQ(from_files.status, from_live.status) << path;
    EXPECT_EQ(from_files.body, from_live.body) << path;
    EXPECT_EQ(from_files.header("location"), from_live.header("location")) << path;
  }
  const Answer arabic_root = get(files, "/", {"Accept-Language: ar-EG, en;q=0.5"});
  EXPECT_EQ(arabic_root.status, 302);
  EXPECT_EQ(arabic_root.header("location"), "/ar/");
  EXPECT_EQ(get(files, "/ar/no/such/page/").body, read_file(site / "ar" / "404.html"));

  // Validators and codings.
  const Answer page = get(files, show_address());
  const std::string etag = page.header("etag");
  ASSERT_TRUE(etag.starts_with('"')) << etag;
  EXPECT_EQ(get(files, show_address(), {"If-None-Match: " + etag}).status, 304);
  EXPECT_EQ(
      get(files, show_address(), {"If-Modified-Since: " + page.header("last-modified")}).status,
      304);
  const Answer gzipped = get(files, show_address(), {"Accept-Encoding: gzip"});
  ASSERT_EQ(gzipped.header("content-encoding"), "gzip");
  EXPECT_EQ(gunzip(gzipped.body), page.body);
  const Answer brotli = get(files, show_address(), {"Accept-Encoding: br"});
  ASSERT_EQ(brotli.header("content-encoding"), "br");
  EXPECT_EQ(unbrotli(brotli.body), page.body);

  // Nothing outside the layout, and nothing beside the site (the render's state).
  for (const std::string path :
       {"/../.site.state/state", "/%2e%2e/.site.state/state", "/en/../../.site.state/state",
        "/.site.state/state", "/en/%2E%2E/%2E%2E/etc/passwd", "/site.css/../../../etc/passwd"}) {
    const Answer answer = get(files, path);
    EXPECT_TRUE(answer.status == 404 || answer.status == 400) << path << " " << answer.status;
    EXPECT_EQ(answer.body.find("root:"), std::string::npos) << path;
  }

  // A file a render changes is answered anew.
  const auto stylesheet = site / "site.css";
  const std::string before = get(files, "/site.css").body;
  std::filesystem::remove(stylesheet);
  testing::write_file(stylesheet, before + "/* changed */\n");
  EXPECT_EQ(get(files, "/site.css").body, before + "/* changed */\n");
}

TEST_F(LiveServe, RevalidatesWithItsValidatorsAndNegotiatesTheCoding) {
  const int port = start_serve();
  ASSERT_NE(port, 0);
  const Answer page = get(port, show_address());
  ASSERT_EQ(page.status, 200);
  const std::string etag = page.header("etag");
  const std::string last_modified = page.header("last-modified");
  ASSERT_TRUE(etag.starts_with('"')) << etag;
  ASSERT_FALSE(last_modified.empty());
  EXPECT_NE(page.header("cache-control").find("max-age="), std::string::npos);
  EXPECT_NE(page.header("vary").find("Accept-Encoding"), std::string::npos);

  const Answer by_etag = get(port, show_address(), {"If-None-Match: " + etag});
  EXPECT_EQ(by_etag.status, 304);
  EXPECT_TRUE(by_etag.body.empty());
  EXPECT_EQ(by_etag.header("etag"), etag);
  EXPECT_EQ(get(port, show_address(), {"If-Modified-Since: " + last_modified}).status, 304);
  EXPECT_EQ(get(port, show_address(), {"If-None-Match: \"something-else\""}).status, 200);

  const Answer gzipped = get(port, show_address(), {"Accept-Encoding: gzip"});
  ASSERT_EQ(gzipped.header("content-encoding"), "gzip");
  EXPECT_EQ(gunzip(gzipped.body), page.body);
  EXPECT_NE(gzipped.header("etag"), etag);
  const Answer brotli = get(port, show_address(), {"Accept-Encoding: gzip;q=0.5, br"});
  ASSERT_EQ(brotli.header("content-encoding"), "br");
  EXPECT_EQ(unbrotli(brotli.body), page.body);
  EXPECT_LT(brotli.body.size(), page.body.size() / 3);
  EXPECT_EQ(
      get(port, show_address(), {"Accept-Encoding: br", "If-None-Match: " + brotli.header("etag")})
          .status,
      304);

  const Answer head = request(port, "HEAD", show_address());
  EXPECT_EQ(head.status, 200);
  EXPECT_TRUE(head.body.empty());
  EXPECT_EQ(head.header("content-length"), std::to_string(page.body.size()));
  EXPECT_EQ(head.header("etag"), etag);

  const Answer chosen = get(port, "/", {"Accept-Language: ar-EG,en;q=0.5"});
  EXPECT_EQ(chosen.status, 302);
  EXPECT_EQ(chosen.header("location"), "/ar/");

  const Answer metrics = get(port, "/metrics");
  EXPECT_EQ(metrics.status, 200);
  EXPECT_NE(metrics.body.find("podcrawl_http_requests_total{route=\"show\",status=\"304\"}"),
            std::string::npos)
      << metrics.body;
}

// A crawl stores a new episode of the tech show; the live pages show it, with no render.
void LiveServe::expect_a_new_episode_on_the_live_pages(int port) {
  ASSERT_NE(port, 0);
  const std::string title = "Episode 84: a brand-new episode";
  const Answer before = get(port, show_address());
  ASSERT_EQ(before.status, 200);
  ASSERT_EQ(before.body.find(title), std::string::npos);
  ASSERT_EQ(get(port, "/en/").body.find(title), std::string::npos);
  // Asked again until it comes from the cache (caching starts once the server hears the
  // store): the change below must reach a cached page.
  const auto cached_by = std::chrono::steady_clock::now() + 10s;
  while (cache_hits(port) == 0 && std::chrono::steady_clock::now() < cached_by) {
    ASSERT_EQ(get(port, show_address()).body, before.body);
  }
  ASSERT_GT(cache_hits(port), 0);
  // A search page is cached too, and answered from memory when asked again.
  const std::string search = "/en/search/?q=brand-new";
  const Answer found_before = get(port, search);
  ASSERT_EQ(found_before.status, 200);
  ASSERT_EQ(found_before.body.find(title), std::string::npos);
  // Asked again until the answer comes from memory: a server that polls may drop the lists in
  // between, as its first look can report changes committed just before it started (a snapshot's
  // horizon waits for transactions of every database of the cluster).
  bool from_memory = false;
  const auto searched_by = std::chrono::steady_clock::now() + 10s;
  while (!from_memory && std::chrono::steady_clock::now() < searched_by) {
    const long hits = cache_hits(port);
    EXPECT_EQ(get(port, search).body, found_before.body);
    from_memory = cache_hits(port) == hits + 1;
  }
  EXPECT_TRUE(from_memory);

  m_tech->set(testing::tech_feed_with_new_episode(title), "\"tech-2\"");
  const auto crawled = run({"--allow-private-networks", "crawl", "--all"});
  ASSERT_EQ(crawled.status, 0) << crawled.out;

  // The change reaches the server on its own connection: ask until the page has changed, for
  // at most ten seconds (with a fixed clock, nothing else would change it).
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  Answer after;
  do {
    after = get(port, show_address());
  } while (after.body.find(title) == std::string::npos &&
           std::chrono::steady_clock::now() < deadline);
  EXPECT_NE(after.body.find(title), std::string::npos);
  EXPECT_NE(after.header("etag"), before.header("etag"));
  EXPECT_NE(get(port, "/en/").body.find(title), std::string::npos);
  EXPECT_EQ(get(port, show_address(), {"If-None-Match: " + before.header("etag")}).status, 200);
  // The change reached the cached search page too: the new episode is found.
  EXPECT_NE(get(port, search).body.find(title), std::string::npos);
}

TEST_F(LiveServe, ACrawlThatStoresAnEpisodeChangesTheLivePagesWithoutARender) {
  const int port = start_serve();
  ASSERT_NE(port, 0);
  expect_a_new_episode_on_the_live_pages(port);
}

// /admin/report answers the loopback client with the very page `podcrawl report` writes.
TEST_F(LiveServe, AnswersTheCrawlReportAsTheReportCommandWritesIt) {
  const int port = start_serve();
  ASSERT_NE(port, 0);
  for (const std::string locale : {"ar", "en"}) {
    const auto out = m_dir.path() / ("report-" + locale + ".html");
    const auto written =
        run({"report", "--out", out.string(), "--locale", locale, "--days", "30", "--now", k_now});
    ASSERT_EQ(written.status, 0) << written.out;
    const Answer answer = get(port, "/admin/report?days=30&locale=" + locale);
    EXPECT_EQ(answer.status, 200);
    EXPECT_EQ(answer.header("content-type"), "text/html; charset=utf-8");
    EXPECT_EQ(answer.header("cache-control"), "no-store");
    EXPECT_EQ(answer.body, read_file(out)) << locale;
  }
  // Without a locale in the query, Accept-Language chooses.
  const Answer arabic = get(port, "/admin/report", {"Accept-Language: ar-EG"});
  EXPECT_EQ(arabic.status, 200);
  EXPECT_NE(arabic.body.find("<html lang=\"ar\" dir=\"rtl\">"), std::string::npos);
  // A request a proxy on this machine forwarded is not the loopback client's.
  EXPECT_EQ(get(port, "/admin/report", {"X-Forwarded-For: 203.0.113.9"}).status, 404);
  EXPECT_EQ(get(port, "/admin/report", {"Forwarded: for=203.0.113.9"}).status, 404);
  EXPECT_EQ(get(port, "/admin/report?days=0").status, 400);
  EXPECT_EQ(get(port, "/admin/report?days=12x").status, 400);
  EXPECT_EQ(get(port, "/admin/report/").status, 404);
  EXPECT_EQ(get(port, "/admin/").status, 404);
}

TEST_F(LiveServe, AServerThatPollsForChangesAsOnAReplicaSeesTheNewEpisodeToo) {
  const int port = start_serve("changes = \"poll\"\n");
  ASSERT_NE(port, 0);
  expect_a_new_episode_on_the_live_pages(port);
}

TEST_F(LiveServe, SearchesTheDirectoryInEveryLocaleWithoutJavaScript) {
  const int port = start_serve();
  ASSERT_NE(port, 0);
  // Every page's header sends its words to the locale's search page.
  EXPECT_NE(get(port, show_address()).body.find("action=\"../../search/\" method=\"get\""),
            std::string::npos);

  // 83 episodes of one show match "modules": the show once, its best episodes under it, on a
  // page never cached by others.
  const Answer results = get(port, "/en/search/?q=modules");
  ASSERT_EQ(results.status, 200);
  EXPECT_EQ(results.header("content-type"), "text/html; charset=utf-8");
  EXPECT_EQ(results.header("cache-control"), "max-age=0");
  EXPECT_NE(results.body.find("<p class=\"meta\">1 result</p>"), std::string::npos);
  EXPECT_NE(results.body.find("href=\"../podcasts/" + m_tech_slug + "/"), std::string::npos);
  EXPECT_NE(results.body.find("<ul class=\"matches\">"), std::string::npos);
  EXPECT_EQ(results.body.find("rel=\"next\""), std::string::npos);
  EXPECT_NE(results.body.find("<meta name=\"robots\" content=\"noindex\">"), std::string::npos);
  EXPECT_EQ(get(port, "/en/search/page/2/?q=modules").status, 404);
  const Answer again =
      get(port, "/en/search/?q=modules", {"If-None-Match: " + results.header("etag")});
  EXPECT_EQ(again.status, 304);

  // An Arabic reader, an Arabic query (percent-encoded UTF-8, '+' for the space).
  const Answer arabic =
      get(port,
          "/ar/search/"
          "?q=%D8%A8%D9%88%D8%AF%D9%83%D8%A7%D8%B3%D8%AA+%D8%A7%D9%84%D8%AD%D9%84%D9%82%D8%A9");
  ASSERT_EQ(arabic.status, 200);
  EXPECT_NE(arabic.body.find("<html lang=\"ar\" dir=\"rtl\">"), std::string::npos);
  EXPECT_NE(arabic.body.find("<bdi lang=\"ar\">بودكاست الحلقة</bdi>"), std::string::npos);
  EXPECT_NE(arabic.body.find("نتائج البحث عن <bdi dir=\"auto\">بودكاست الحلقة</bdi>"),
            std::string::npos);

  // The address without its '/' keeps the words.
  const Answer moved = get(port, "/en/search?q=modules");
  EXPECT_EQ(moved.status, 301);
  EXPECT_EQ(moved.header("location"), "/en/search/?q=modules");

  // Empty, over-long and hostile words get a page, never an error.
  EXPECT_NE(get(port, "/en/search/").body.find("Type a few words"), std::string::npos);
  EXPECT_NE(get(port, "/en/search/?q=+++").body.find("Type a few words"), std::string::npos);
  EXPECT_NE(get(port, "/en/search/?q=" + std::string(400, 'a')).body.find("at most 200"),
            std::string::npos);
  for (const std::string query :
       {"q=%3Cscript%3Ealert(1)%3C%2Fscript%3E", "q=%FF%FE%00%22", "q=%", "q=%G1&q=second",
        "q=a%27)%20OR%201%3D1%20--", "q=!!!%20%7C%20%26"}) {
    const Answer answer = get(port, "/en/search/?" + query);
    EXPECT_EQ(answer.status, 200) << query;
    EXPECT_EQ(answer.body.find("<script>"), std::string::npos) << query;
  }
  EXPECT_EQ(get(port, "/en/search/page/2/?q=").status, 404);
}

TEST_F(LiveServe, RefusesMalformedRequestsOverLongHeadersAndPathsOutsideTheSite) {
  const int port = start_serve();
  ASSERT_NE(port, 0);
  EXPECT_EQ(send_request(port, "NOT A REQUEST\r\n\r\n").status, 400);
  EXPECT_EQ(send_request(port, "GET / HTTP/1.1\r\nHost: a\r\nBroken header line\r\n\r\n").status,
            400);
  EXPECT_EQ(get(port, "/en/", {"X-Padding: " + std::string(20000, 'a')}).status, 431);
  EXPECT_EQ(request(port, "POST", "/en/").status, 405);
  for (const std::string path :
       {"/../../../../etc/passwd", "/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/en/../../../etc/passwd",
        "/en/%2E%2E/%2E%2E/etc/passwd", "/en/podcasts/..%2F..%2F..%2Fetc%2Fpasswd/",
        "/site.css/../../../etc/passwd", "/en/podcasts/%00/", "/en/%252e%252e/etc/passwd"}) {
    const Answer answer = get(port, path);
    EXPECT_TRUE(answer.status == 404 || answer.status == 400) << path << " " << answer.status;
    EXPECT_EQ(answer.body.find("root:"), std::string::npos) << path;
  }
  // Still answering.
  EXPECT_EQ(get(port, "/en/").status, 200);
}

TEST_F(LiveServe, AnswersWhileThreeHundredClientsHoldHalfSentRequests) {
  const int port = start_serve();
  ASSERT_NE(port, 0);
  std::vector<int> slow;
  for (int i = 0; i < 300; ++i) {
    const int fd = connect_to(port);
    ASSERT_GE(fd, 0) << i;
    ASSERT_TRUE(send_all(fd, "GET /en/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "));
    slow.push_back(fd);
  }
  const auto started = std::chrono::steady_clock::now();
  const Answer answer = get(port, show_address());
  EXPECT_EQ(answer.status, 200);
  EXPECT_TRUE(answer.complete());
  // Well inside the ten seconds the client waits, and the thirty the slow clients are given.
  EXPECT_LT(std::chrono::steady_clock::now() - started, 5s);
  for (const int fd : slow) {
    ::close(fd);
  }
}

TEST_F(LiveServe, SigtermFinishesTheRequestsInFlightAndExitsZero) {
  const int port = start_serve();
  ASSERT_NE(port, 0);
  const std::vector<std::string> addresses = {show_address(), show_address() + "page/2/", "/en/",
                                              "/ar/", "/ar/podcasts/" + m_tech_slug + "/"};
  std::atomic<int> answered{0};
  std::atomic<int> truncated{0};
  std::vector<std::jthread> clients;
  for (int c = 0; c < 4; ++c) {
    clients.emplace_back([&, c] {
      for (std::size_t i = c;; ++i) {
        const Answer answer = get(port, addresses[i % addresses.size()]);
        if (answer.received == 0) {
          return; // refused: the server has stopped accepting
        }
        if (!answer.complete() || answer.status != 200) {
          ++truncated;
          return;
        }
        ++answered;
      }
    });
  }
  while (answered < 40 && truncated == 0) {
    std::this_thread::yield();
  }
  m_serve->signal(SIGTERM);
  clients.clear(); // joins: each client ends at its first refused connection
  const auto ended = m_serve->wait_for(30s);
  ASSERT_TRUE(ended.has_value()) << "serve did not exit after SIGTERM";
  EXPECT_EQ(ended->signal, 0);
  EXPECT_EQ(ended->status, 0) << ended->err;
  EXPECT_EQ(truncated, 0);
  EXPECT_GE(answered, 40);
}

} // namespace
} // namespace podcrawl

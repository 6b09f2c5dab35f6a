// Cover art end to end: feeds crawled by the podcrawl binary from a loopback server, their
// images fetched once per URL, re-encoded by the podcrawl-art helper beside it, stored as files
// and as rows, and shown by `show`.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>

#include "podcrawl/core/hash.hpp"
#include "support/images.hpp"
#include "support/loopback_server.hpp"
#include "support/process.hpp"
#include "support/temp_database.hpp"
#include "support/temp_dir.hpp"

namespace podcrawl {
namespace {

std::string feed_with_image(int number, const std::string& image_url) {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         "<rss version=\"2.0\" xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\">"
         "<channel><title>Cover show " +
         std::to_string(number) +
         "</title><link>https://example.com/</link><language>en</language>"
         "<itunes:image href=\"" +
         image_url +
         "\"/><item><title>One</title><guid>one</guid>"
         "<pubDate>Tue, 01 Dec 2026 10:00:00 GMT</pubDate>"
         "<enclosure url=\"https://example.com/1.mp3\" type=\"audio/mpeg\" length=\"1\"/>"
         "</item></channel></rss>\n";
}

std::string read_bytes(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

class ArtworkTest : public testing::DatabaseTest {
protected:
  testing::ProcessResult podcrawl(std::vector<std::string> arguments) {
    arguments.insert(arguments.begin(),
                     {testing::podcrawl_binary(), "--config", m_config.string(), "--database-url",
                      database_url(), "--allow-private-networks"});
    return testing::run_process(arguments);
  }

  void SetUp() override {
    DatabaseTest::SetUp();
    m_config = m_dir.path() / "podcrawl.toml";
    testing::write_file(m_config, "[art]\ndir = \"" + art_dir().string() + "\"\n");
  }

  std::filesystem::path art_dir() const { return m_dir.path() / "art"; }

  nlohmann::json show(const std::string& url) {
    const auto result = podcrawl({"show", url});
    EXPECT_EQ(result.status, 0);
    return nlohmann::json::parse(result.out);
  }

  testing::TempDir m_dir;
  std::filesystem::path m_config;
};

TEST_F(ArtworkTest, EachImageIsDownloadedOnceReencodedAndShownWithTheShow) {
  testing::LoopbackServer server;
  const std::string cover = testing::noise_jpeg(600, 600);
  server.serve_feed("/cover.jpg", cover, "image/jpeg", "\"cover-1\"");
  server.serve_feed("/copy.jpg", cover, "image/jpeg", "\"copy-1\""); // the same bytes
  server.serve_feed("/page.jpg", "<!DOCTYPE html><title>Not an image</title>", "image/jpeg",
                    "\"page\"");
  std::vector<std::string> feeds;
  const std::vector<std::string> images = {"/cover.jpg", "/cover.jpg", "/cover.jpg", "/cover.jpg",
                                           "/cover.jpg", "/copy.jpg",  "/page.jpg",  "/gone.jpg"};
  for (std::size_t i = 0; i < images.size(); ++i) {
    const std::string path = "/feed-" + std::to_string(i) + ".xml";
    server.serve_feed(path, feed_with_image(static_cast<int>(i), server.url(images[i])),
                      "application/rss+xml", "\"feed-" + std::to_string(i) + "\"");
    feeds.push_back(server.url(path));
  }
  std::vector<std::string> add = {"add", "--no-discover"};
  add.insert(add.end(), feeds.begin(), feeds.end());
  ASSERT_EQ(podcrawl(add).status, 0);

  const auto crawl = podcrawl({"crawl"});
  ASSERT_EQ(crawl.status, 0);
  EXPECT_NE(crawl.out.find("crawled 8 feeds: 8 fetched"), std::string::npos) << crawl.out;
  EXPECT_NE(crawl.out.find("cover art: 4 asked, 1 made, 1 the same as another's"),
            std::string::npos)
      << crawl.out;
  // Five shows, one download.
  EXPECT_EQ(server.count("/cover.jpg"), 1);
  EXPECT_EQ(server.count("/copy.jpg"), 1);

  const nlohmann::json first = show(feeds[0]);
  ASSERT_TRUE(first.contains("artwork")) << first.dump(2);
  ASSERT_EQ(first["artwork"].size(), 3U);
  std::set<int> widths;
  for (const nlohmann::json& rendition : first["artwork"]) {
    widths.insert(rendition["width"].get<int>());
    EXPECT_EQ(rendition["height"], rendition["width"]);
    const std::string path = rendition["path"];
    ASSERT_TRUE(path.starts_with("art/")) << path;
    ASSERT_TRUE(path.ends_with(".webp")) << path;
    const std::string file = read_bytes(art_dir() / path.substr(4));
    EXPECT_EQ(file.substr(0, 4), "RIFF") << path;
    EXPECT_EQ(file.substr(8, 4), "WEBP") << path;
  }
  EXPECT_EQ(widths, (std::set<int>{160, 400, 600})); // never wider than the original
  EXPECT_EQ(show(feeds[4])["artwork"], first["artwork"]);
  EXPECT_EQ(show(feeds[5])["artwork"], first["artwork"]); // the same bytes, the same files
  // An HTML page served as a JPEG and a 404 leave their shows stored, without artwork.
  EXPECT_FALSE(show(feeds[6]).contains("artwork"));
  EXPECT_FALSE(show(feeds[7]).contains("artwork"));
  pqxx::connection connection(database_url());
  pqxx::work txn(connection);
  EXPECT_NE(txn.exec1("SELECT error FROM artwork WHERE url LIKE '%/page.jpg'")[0].as<std::string>(),
            "");
  EXPECT_NE(txn.exec1("SELECT error FROM artwork WHERE url LIKE '%/gone.jpg'")[0].as<std::string>(),
            "");
  txn.commit();
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(art_dir())) {
    files += entry.path().extension() == ".webp" ? 1 : 0;
  }
  EXPECT_EQ(files, 3U);
}

TEST_F(ArtworkTest, AnUnchangedImageIsNotDownloadedAgain) {
  testing::LoopbackServer server;
  server.serve_feed("/cover.jpg", testing::noise_jpeg(300, 200), "image/jpeg", "\"cover-1\"");
  server.serve_feed("/feed.xml", feed_with_image(1, server.url("/cover.jpg")),
                    "application/rss+xml", "\"feed-1\"");
  ASSERT_EQ(podcrawl({"add", "--no-discover", server.url("/feed.xml")}).status, 0);
  ASSERT_EQ(podcrawl({"crawl"}).status, 0);
  ASSERT_EQ(server.count("/cover.jpg"), 1);
  const nlohmann::json before = show(server.url("/feed.xml"));
  ASSERT_TRUE(before.contains("artwork"));

  // Not due: a re-crawl of the feed does not ask for its image.
  ASSERT_EQ(podcrawl({"crawl", "--all"}).status, 0);
  EXPECT_EQ(server.count("/cover.jpg"), 1);

  // Due: asked with its validator, answered 304, kept as it was.
  {
    pqxx::connection connection(database_url());
    pqxx::work txn(connection);
    txn.exec0("UPDATE artwork SET next_fetch_at = '-infinity'");
    txn.commit();
  }
  const auto again = podcrawl({"crawl", "--all"});
  ASSERT_EQ(again.status, 0);
  EXPECT_NE(again.out.find("1 not modified, 0 refused"), std::string::npos) << again.out;
  ASSERT_EQ(server.count("/cover.jpg"), 2);
  const auto requests = server.requests();
  const auto last = std::find_if(requests.rbegin(), requests.rend(),
                                 [](const auto& seen) { return seen.path == "/cover.jpg"; });
  ASSERT_NE(last, requests.rend());
  EXPECT_EQ(last->headers.at("if-none-match"), "\"cover-1\"");
  EXPECT_EQ(show(server.url("/feed.xml"))["artwork"], before["artwork"]);
}

// The xmin of the database's snapshot now: a show stamped at or above it changed after now.
// The transaction that last changed the show, as the live cache and incremental renders read it.
std::string show_changed_xid(const std::string& url) {
  pqxx::connection connection(url);
  pqxx::work txn(connection);
  return txn.exec1("SELECT changed_xid::text FROM shows")[0].as<std::string>();
}

TEST_F(ArtworkTest, ANewPictureMarksItsShowChangedAndAnUnchangedOneDoesNot) {
  testing::LoopbackServer server;
  server.serve_feed("/cover.jpg", testing::noise_jpeg(200, 200), "image/jpeg", "\"cover-1\"");
  server.serve_feed("/feed.xml", feed_with_image(1, server.url("/cover.jpg")),
                    "application/rss+xml", "\"feed-1\"");
  ASSERT_EQ(podcrawl({"add", "--no-discover", server.url("/feed.xml")}).status, 0);
  ASSERT_EQ(podcrawl({"crawl", "--no-art"}).status, 0);
  ASSERT_EQ(server.count("/cover.jpg"), 0);
  const std::string before_art = show_changed_xid(database_url());
  ASSERT_EQ(podcrawl({"crawl"}).status, 0); // the feed is not due; its image is
  ASSERT_EQ(server.count("/cover.jpg"), 1);
  const std::string with_art = show_changed_xid(database_url());
  EXPECT_NE(with_art, before_art);

  {
    pqxx::connection connection(database_url());
    pqxx::work txn(connection);
    txn.exec0("UPDATE artwork SET next_fetch_at = '-infinity', etag = ''");
    txn.commit();
  }
  ASSERT_EQ(podcrawl({"crawl"}).status, 0); // downloaded again: the same bytes
  ASSERT_EQ(server.count("/cover.jpg"), 2);
  EXPECT_EQ(show_changed_xid(database_url()), with_art);
}

// An episode's own picture is fetched as cover art and leads its episode page (its file placed
// in the rendered site); an episode without one shows the show's.
TEST_F(ArtworkTest, AnEpisodeWithItsOwnPictureShowsItOnItsPage) {
  testing::LoopbackServer server;
  const std::string show_cover = testing::noise_jpeg(300, 300);
  const std::string episode_cover = testing::noise_jpeg(200, 200);
  server.serve_feed("/show.jpg", show_cover, "image/jpeg", "\"show\"");
  server.serve_feed("/episode.jpg", episode_cover, "image/jpeg", "\"episode\"");
  const std::string feed =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<rss version=\"2.0\" xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\">"
      "<channel><title>Pictures</title><link>https://example.com/</link><language>en</language>"
      "<itunes:image href=\"" +
      server.url("/show.jpg") +
      "\"/><item><title>Own picture</title><guid>own</guid>"
      "<pubDate>Tue, 01 Dec 2026 10:00:00 GMT</pubDate><itunes:image href=\"" +
      server.url("/episode.jpg") +
      "\"/></item><item><title>Show picture</title><guid>plain</guid>"
      "<pubDate>Mon, 30 Nov 2026 10:00:00 GMT</pubDate></item></channel></rss>\n";
  server.serve_feed("/feed.xml", feed, "application/rss+xml", "\"feed\"");
  ASSERT_EQ(podcrawl({"add", "--no-discover", server.url("/feed.xml")}).status, 0);
  const auto crawl = podcrawl({"crawl"});
  ASSERT_EQ(crawl.status, 0);
  EXPECT_NE(crawl.out.find("cover art: 2 asked, 2 made"), std::string::npos) << crawl.out;

  const auto site = m_dir.path() / "site";
  const auto rendered = podcrawl({"render", "--out", site.string(), "--locales", "en"});
  ASSERT_EQ(rendered.status, 0) << rendered.out;
  const std::string slug = show(server.url("/feed.xml"))["slug"];
  const auto page_of = [&](const std::string& episode) {
    return read_bytes(site / "en" / "podcasts" / slug / episode / "index.html");
  };
  const std::string own = "art/" + core::sha1_hex(episode_cover) + "-200.webp";
  const std::string shows = "art/" + core::sha1_hex(show_cover) + "-300.webp";
  EXPECT_NE(page_of("own-picture").find(own), std::string::npos);
  EXPECT_EQ(page_of("own-picture").find(shows), std::string::npos);
  EXPECT_NE(page_of("show-picture").find(shows), std::string::npos);
  EXPECT_EQ(read_bytes(site / own), read_bytes(art_dir() / own.substr(4)));
  EXPECT_TRUE(std::filesystem::exists(site / shows));
}

// A new picture of an episode marks its show changed, as the show's own picture does, so that
// an updating render and the live cache show it.
TEST_F(ArtworkTest, AnEpisodesNewPictureMarksItsShowChanged) {
  testing::LoopbackServer server;
  server.serve_feed("/episode.jpg", testing::noise_jpeg(200, 200), "image/jpeg", "\"e\"");
  const std::string feed =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<rss version=\"2.0\" xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\">"
      "<channel><title>Episode pictures</title><item><title>One</title><guid>one</guid>"
      "<itunes:image href=\"" +
      server.url("/episode.jpg") + "\"/></item></channel></rss>\n";
  server.serve_feed("/feed.xml", feed, "application/rss+xml", "\"feed\"");
  ASSERT_EQ(podcrawl({"add", "--no-discover", server.url("/feed.xml")}).status, 0);
  ASSERT_EQ(podcrawl({"crawl", "--no-art"}).status, 0);
  const std::string before_art = show_changed_xid(database_url());
  ASSERT_EQ(podcrawl({"crawl"}).status, 0);
  ASSERT_EQ(server.count("/episode.jpg"), 1);
  EXPECT_NE(show_changed_xid(database_url()), before_art);
}

// Without its helper program the art pass stops with one line that says how to build it; the
// feeds of the crawl are stored, and every image it claimed is due again with the error.
TEST_F(ArtworkTest, AMissingHelperStopsTheArtPassWithOneLineAndHandsItsImagesBack) {
  testing::LoopbackServer server;
  std::vector<std::string> feeds;
  for (int i = 0; i < 3; ++i) {
    const std::string image = "/cover-" + std::to_string(i) + ".jpg";
    server.serve_feed(image, testing::noise_jpeg(100 + i, 100), "image/jpeg",
                      "\"" + std::to_string(i) + "\"");
    const std::string path = "/feed-" + std::to_string(i) + ".xml";
    server.serve_feed(path, feed_with_image(i, server.url(image)), "application/rss+xml",
                      "\"feed-" + std::to_string(i) + "\"");
    feeds.push_back(server.url(path));
  }
  std::vector<std::string> add = {"add", "--no-discover"};
  add.insert(add.end(), feeds.begin(), feeds.end());
  ASSERT_EQ(podcrawl(add).status, 0);
  const auto missing = m_dir.path() / "nowhere" / "podcrawl-art";
  testing::write_file(m_config, "[art]\ndir = \"" + art_dir().string() + "\"\nhelper = \"" +
                                    missing.string() + "\"\n");

  testing::ChildProcess crawl({testing::podcrawl_binary(), "--config", m_config.string(),
                               "--database-url", database_url(), "--allow-private-networks",
                               "crawl"});
  const auto ended = crawl.wait_for(std::chrono::minutes(2));
  ASSERT_TRUE(ended.has_value());
  EXPECT_EQ(ended->status, 1);
  EXPECT_NE(ended->out.find("crawled 3 feeds: 3 fetched"), std::string::npos) << ended->out;
  std::size_t lines = 0;
  std::string said;
  std::istringstream err(ended->err);
  for (std::string line; std::getline(err, line);) {
    if (line.find("image helper") != std::string::npos) {
      ++lines;
      said = line;
    }
  }
  EXPECT_EQ(lines, 1U) << ended->err;
  EXPECT_NE(said.find(missing.string() + ": No such file or directory"), std::string::npos) << said;
  EXPECT_NE(said.find("cmake --build build --target podcrawl-art"), std::string::npos) << said;

  for (const std::string& feed : feeds) {
    EXPECT_EQ(show(feed)["title"].get<std::string>().substr(0, 10), "Cover show");
  }
  pqxx::connection connection(database_url());
  pqxx::work txn(connection);
  const auto images =
      txn.exec("SELECT error, next_fetch_at <= now() FROM artwork WHERE url LIKE '%/cover-%'");
  EXPECT_EQ(images.size(), 3U);
  for (const auto& image : images) {
    EXPECT_NE(image[0].as<std::string>().find("image helper"), std::string::npos)
        << image[0].as<std::string>();
    EXPECT_TRUE(image[1].as<bool>()) << "an image is still leased";
  }
  txn.commit();
}

} // namespace
} // namespace podcrawl

// The search table of tests/data/search/: shows in 21 languages served as RSS feeds on
// loopback and crawled, then every query run through `podcrawl search` and through the live
// site's search page. Each must find its show among the first ten shows, and each control
// nothing at all.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "directory_fixture.hpp"
#include "podcrawl/core/config.hpp"
#include "podcrawl/html/escape.hpp"
#include "support/http_client.hpp"
#include "support/loopback_server.hpp"

namespace podcrawl {
namespace {

using namespace std::chrono_literals;

const std::filesystem::path k_table_dir = core::source_dir() / "tests" / "data" / "search";
constexpr std::size_t k_first_results = 10;

// The rows of a tab-separated file after its header, each as its fields.
std::vector<std::vector<std::string>> read_table(const std::filesystem::path& file,
                                                 std::size_t fields) {
  std::ifstream in(file, std::ios::binary);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    if (line.empty()) {
      continue;
    }
    std::vector<std::string> row;
    std::size_t from = 0;
    for (std::size_t tab = line.find('\t'); tab != std::string::npos;
         from = tab + 1, tab = line.find('\t', from)) {
      row.push_back(line.substr(from, tab - from));
    }
    row.push_back(line.substr(from));
    EXPECT_EQ(row.size(), fields) << file.filename().string() << ": " << line;
    row.resize(fields);
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string xml_text(const std::string& text) {
  return html::escaped(text, html::k_escape_xml);
}

// A show of shows.tsv (id, language, title, author, description, two episode titles) as RSS.
std::string feed_of(const std::vector<std::string>& show) {
  std::string items;
  for (int i = 0; i < 2; ++i) {
    const std::int64_t published = testing::k_render_time - 86400 * (i + 1);
    items += "<item><title>" + xml_text(show[5 + i]) + "</title><guid>" + show[0] + "-" +
             std::to_string(i) + "</guid><pubDate>" + testing::rfc822(published) +
             "</pubDate><enclosure url=\"https://media.example/" + show[0] + "-" +
             std::to_string(i) + ".mp3\" type=\"audio/mpeg\" length=\"1000\"/></item>";
  }
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\" "
         "xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\"><channel><title>" +
         xml_text(show[2]) + "</title><link>https://shows.example/" + show[0] +
         "</link><language>" + show[1] + "</language><itunes:author>" + xml_text(show[3]) +
         "</itunes:author><description>" + xml_text(show[4]) + "</description>" + items +
         "</channel></rss>";
}

// The show slugs a search page lists, in order: its links to show pages ("../podcasts/S/").
std::vector<std::string> listed_shows(const std::string& html) {
  static const std::string k_link = "<a href=\"../podcasts/";
  std::vector<std::string> slugs;
  for (auto at = html.find(k_link); at != std::string::npos; at = html.find(k_link, at + 1)) {
    const auto start = at + k_link.size();
    const auto end = html.find('"', start);
    const std::string path = html.substr(start, end - start);
    if (path.find('/') + 1 == path.size()) { // a show, not one of its episodes
      slugs.push_back(path.substr(0, path.size() - 1));
    }
  }
  return slugs;
}

bool among_first(const std::vector<std::string>& slugs, const std::string& slug) {
  for (std::size_t i = 0; i < slugs.size() && i < k_first_results; ++i) {
    if (slugs[i] == slug) {
      return true;
    }
  }
  return false;
}

class SearchTable : public testing::DirectoryTest {};

TEST_F(SearchTable, EveryQueryFindsItsShowThroughTheCliAndTheSite) {
  const auto shows = read_table(k_table_dir / "shows.tsv", 7);
  const auto queries = read_table(k_table_dir / "queries.tsv", 4);
  ASSERT_GE(shows.size(), 40U);
  ASSERT_GE(queries.size(), 150U);

  testing::LoopbackServer server;
  std::vector<std::string> urls;
  std::map<std::string, std::string> id_by_url;
  for (const auto& show : shows) {
    server.serve_feed("/" + show[0] + ".xml", feed_of(show), "application/rss+xml",
                      "\"" + show[0] + "\"");
    urls.push_back(server.url("/" + show[0] + ".xml"));
    id_by_url[urls.back()] = show[0];
  }
  add_opml(urls);
  const auto crawled = run({"--allow-private-networks", "crawl", "--no-art"});
  ASSERT_EQ(crawled.status, 0) << crawled.out << crawled.err;
  std::map<std::string, std::string> slug_by_id;
  for (const auto& [url, slug] : slugs_by_url()) {
    slug_by_id[id_by_url.at(url)] = slug;
  }
  ASSERT_EQ(slug_by_id.size(), shows.size());

  testing::ChildProcess serve(command({"serve", "--port", "0", "--locales", "en"}));
  const auto started = serve.wait_for_output("/\n", 60s);
  ASSERT_TRUE(started.has_value()) << "serve did not start";
  const int port = std::stoi(started->substr(started->rfind(':') + 1));

  std::map<std::string, int> asked;
  std::map<std::string, int> missed;
  for (const auto& row : queries) {
    const std::string& query = row[0];
    const bool control = row[1] == "-";
    SCOPED_TRACE(row[2] + " " + query + " (" + row[3] + ")");
    ++asked[row[2]];
    const std::string slug = control ? "" : slug_by_id.at(row[1]);

    const auto cli = run({"search", "--json", "--limit", std::to_string(k_first_results), query});
    ASSERT_EQ(cli.status, 0) << cli.err;
    std::vector<std::string> cli_slugs;
    for (const auto& result : nlohmann::json::parse(cli.out)) {
      cli_slugs.push_back(result.at("show_slug").get<std::string>());
    }
    const auto page = testing::get(port, "/en/search/?q=" + testing::percent_encoded(query));
    ASSERT_EQ(page.status, 200);
    auto site_slugs = listed_shows(page.body);

    if (control) {
      EXPECT_TRUE(cli_slugs.empty()) << cli.out;
      EXPECT_TRUE(site_slugs.empty());
      EXPECT_NE(page.body.find("Nothing in the directory matches"), std::string::npos);
    } else {
      EXPECT_TRUE(among_first(cli_slugs, slug)) << cli.out;
      EXPECT_TRUE(among_first(site_slugs, slug));
      // One search: the site lists what the command prints, in the same order.
      site_slugs.resize(std::min(site_slugs.size(), cli_slugs.size()));
      EXPECT_EQ(site_slugs, cli_slugs);
    }
    if (control ? !cli_slugs.empty() : !among_first(cli_slugs, slug)) {
      ++missed[row[2]];
    }
  }
  for (const auto& [kind, count] : asked) {
    RecordProperty("recall_" + kind,
                   std::to_string(count - missed[kind]) + "/" + std::to_string(count));
  }
}

} // namespace
} // namespace podcrawl

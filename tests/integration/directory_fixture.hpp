#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "support/loopback_server.hpp"

#include "support/process.hpp"
#include "support/temp_database.hpp"
#include "support/temp_dir.hpp"

namespace podcrawl::testing {

constexpr std::int64_t k_render_time = 1796083200; // 2026-12-01T00:00:00Z
constexpr int k_tech_episodes = 83;                // Arabic's "many" plural category

// The time as an RSS pubDate in UTC ("Tue, 01 Dec 2026 00:00:00 +0000").
std::string rfc822(std::int64_t t);

// An English technical show whose k_tech_episodes episodes spread over the five years before
// k_render_time, newest first.
std::string tech_feed();
// tech_feed() with one more episode, titled `title`, an hour before k_render_time.
std::string tech_feed_with_new_episode(const std::string& title);
// An Arabic show with one episode.
std::string arabic_feed();

// A feed whose body the test replaces while the loopback server serves it.
class ChangingFeed : public std::enable_shared_from_this<ChangingFeed> {
public:
  // Answer GET path on the server from this feed (it must outlive the server's use of it).
  void serve(LoopbackServer& server, const std::string& path);
  // The body and ETag from now on; a request with that ETag in If-None-Match gets 304.
  void set(std::string body, std::string etag);

private:
  std::mutex m_mutex;
  std::string m_body;
  std::string m_etag;
};

// An RSS feed of one show: `episodes` items, the newest published an hour before
// k_render_time, a day apart, each with an enclosure.
std::string generated_feed(const std::string& title, const std::string& category, int episodes,
                           const std::string& language = "en");

// A test with its own database that drives the podcrawl binary: add, crawl, list, render, serve.
class DirectoryTest : public DatabaseTest {
protected:
  // Run podcrawl with --database-url and these arguments, and wait for it.
  ProcessResult run(std::vector<std::string> arguments);
  // The command line of podcrawl with --database-url and these arguments.
  std::vector<std::string> command(std::vector<std::string> arguments) const;
  // Write an OPML file listing the URLs and add it to the crawl list.
  void add_opml(const std::vector<std::string>& urls);
  // Each crawled feed's show slug, by feed URL.
  std::map<std::string, std::string> slugs_by_url();

  TempDir m_dir;
};

} // namespace podcrawl::testing

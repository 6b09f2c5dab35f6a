#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

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
// An Arabic show with one episode.
std::string arabic_feed();

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

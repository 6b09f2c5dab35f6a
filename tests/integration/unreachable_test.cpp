// Hosts that cannot be reached, through the podcrawl binary: a name that does not resolve and a
// loopback port that refuses connections cost a crawl a few tries each, not one try per feed or
// image, and everything of theirs is due again soon without counting as a failure of its own.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <pqxx/pqxx>

#include <regex>
#include <string>
#include <vector>

#include "directory_fixture.hpp"
#include "support/loopback_server.hpp"

namespace podcrawl {
namespace {

constexpr int k_pictured_feeds = 10; // each with its own picture and 50 pictured episodes
constexpr int k_pictured_episodes = 50;
constexpr int k_feeds_per_dead_host = 50;
// The first tries against a host that cannot be reached run together (its pace starts at
// [crawl] per_host, 4): a few fail before the rest are deferred.
constexpr int k_most_tries_per_host = 8;
// How long the rest of a host's work is deferred (5 minutes), plus the time the test takes.
constexpr int k_due_again_within_seconds = 300 + 120;

const std::string k_dead_name = "podcast-host.podcrawl-test.invalid"; // RFC 2606: never resolves

std::string pictured_feed(int number) {
  const std::string art = "http://" + k_dead_name + "/art/";
  std::string items;
  for (int episode = 0; episode < k_pictured_episodes; ++episode) {
    const std::string id = std::to_string(number) + "-" + std::to_string(episode);
    items += "<item><title>Episode " + id + "</title><guid>" + id + "</guid><pubDate>" +
             testing::rfc822(testing::k_render_time - 86400 * (episode + 1)) +
             "</pubDate><itunes:image href=\"" + art + id + ".jpg\"/></item>";
  }
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         "<rss version=\"2.0\" xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\">"
         "<channel><title>Pictured show " +
         std::to_string(number) + "</title><language>en</language><itunes:image href=\"" + art +
         "show-" + std::to_string(number) + ".jpg\"/>" + items + "</channel></rss>\n";
}

// A port on 127.0.0.1 that refuses connections for as long as this lives: bound, so that no one
// else takes it, and never listening.
class RefusingPort {
public:
  RefusingPort() : m_fd(socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (m_fd >= 0 && bind(m_fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
        getsockname(m_fd, reinterpret_cast<sockaddr*>(&address), &length) == 0) {
      m_port = ntohs(address.sin_port);
    }
  }
  ~RefusingPort() {
    if (m_fd >= 0) {
      close(m_fd);
    }
  }
  RefusingPort(const RefusingPort&) = delete;
  RefusingPort& operator=(const RefusingPort&) = delete;
  int port() const { return m_port; }

private:
  int m_fd;
  int m_port = 0;
};

// A figure of the crawl's summary lines: the number before `what` on the line starting with
// `line`.
long figure(const std::string& out, const std::string& line, const std::string& what) {
  const std::regex pattern(line + "[^\n]*?([0-9]+) " + what);
  std::smatch match;
  return std::regex_search(out, match, pattern) ? std::stol(match[1].str()) : -1;
}

class UnreachableHosts : public testing::DirectoryTest {};

TEST_F(UnreachableHosts, CostACrawlAFewTriesEachAndAreDueAgainSoon) {
  testing::LoopbackServer server;
  std::vector<std::string> urls;
  for (int number = 0; number < k_pictured_feeds; ++number) {
    const std::string path = "/pictured-" + std::to_string(number) + ".xml";
    server.serve_feed(path, pictured_feed(number), "application/rss+xml",
                      "\"" + std::to_string(number) + "\"");
    urls.push_back(server.url(path));
  }
  const RefusingPort closed;
  ASSERT_NE(closed.port(), 0);
  const std::string refusing = "http://127.0.0.1:" + std::to_string(closed.port());
  for (int number = 0; number < k_feeds_per_dead_host; ++number) {
    urls.push_back("http://" + k_dead_name + "/feeds/" + std::to_string(number) + ".xml");
    urls.push_back(refusing + "/feeds/" + std::to_string(number) + ".xml");
  }
  add_opml(urls);
  const auto config = m_dir.path() / "podcrawl.toml";
  testing::write_file(config, "[art]\ndir = \"" + (m_dir.path() / "art").string() + "\"\n");

  const auto crawl = run({"--config", config.string(), "--allow-private-networks", "crawl"});
  ASSERT_EQ(crawl.status, 0) << crawl.out;
  const long dead_feeds = 2 * k_feeds_per_dead_host;
  EXPECT_EQ(figure(crawl.out, "crawled", "fetched"), k_pictured_feeds) << crawl.out;
  const long failed = figure(crawl.out, "crawled", "failed");
  EXPECT_GE(failed, 2 * 3) << crawl.out; // each host tried until it counts as unreachable
  EXPECT_LE(failed, 2 * k_most_tries_per_host) << crawl.out;
  EXPECT_EQ(figure(crawl.out, "crawled", "deferred"), dead_feeds - failed) << crawl.out;
  const long images = k_pictured_feeds * (k_pictured_episodes + 1);
  EXPECT_EQ(figure(crawl.out, "cover art:", "asked"), images) << crawl.out;
  const long failed_images = figure(crawl.out, "cover art:", "failed");
  EXPECT_LE(failed_images, k_most_tries_per_host) << crawl.out;
  EXPECT_EQ(figure(crawl.out, "cover art:", "deferred"), images - failed_images) << crawl.out;

  // What was deferred is due again within minutes and carries no failure of its own; what
  // was tried and failed backs off as any failure does. Nothing is left leased.
  pqxx::connection connection(database_url());
  pqxx::work txn(connection);
  const std::string dead = "url NOT LIKE '" + server.url("/") + "%'";
  const std::string due_soon =
      "next_fetch_at <= now() + interval '" + std::to_string(k_due_again_within_seconds) + " s'";
  EXPECT_EQ(txn.exec1("SELECT count(*) FROM feeds WHERE " + dead + " AND lease_until IS NULL")[0]
                .as<long>(),
            dead_feeds);
  EXPECT_EQ(txn.exec1("SELECT count(*) FROM feeds WHERE " + dead + " AND " + due_soon +
                      " AND failure_score = 0 AND last_error = ''")[0]
                .as<long>(),
            dead_feeds - failed);
  EXPECT_EQ(txn.exec1("SELECT count(*) FROM feeds WHERE " + dead +
                      " AND failure_score > 0 AND "
                      "last_error <> ''")[0]
                .as<long>(),
            failed);
  EXPECT_EQ(txn.exec1("SELECT count(*) FROM artwork WHERE " + due_soon +
                      " AND error LIKE '%could not be reached%'")[0]
                .as<long>(),
            images - failed_images);
  EXPECT_EQ(txn.exec1("SELECT count(*) FROM artwork WHERE next_fetch_at > now() + interval "
                      "'1 hour' AND error <> ''")[0]
                .as<long>(),
            failed_images);
  txn.commit();
}

} // namespace
} // namespace podcrawl

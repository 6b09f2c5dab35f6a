// Each host's pace, through the podcrawl binary against loopback hosts and a throwaway
// PostgreSQL database: what one crawl process learns of a host, the next one starts from.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "support/loopback_server.hpp"
#include "support/process.hpp"
#include "support/temp_database.hpp"
#include "support/temp_dir.hpp"

namespace podcrawl {
namespace {

using namespace std::chrono_literals;

// A host that answers every feed after `latency` and counts the requests it has in hand, for
// each request the number in hand when it arrived.
class CountingHost {
public:
  explicit CountingHost(std::chrono::milliseconds latency)
      : m_server("127.0.0.1", 64), m_latency_ms(latency.count()) {
    m_server.on_get(R"(/feed/(\d+)\.xml)", [this](const testing::Request& request,
                                                  testing::Response& response) {
      {
        std::lock_guard lock(m_mutex);
        m_in_hand.push_back(++m_active);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(m_latency_ms.load()));
      const std::string n = request.matches[1];
      response.set_content("<rss version=\"2.0\"><channel><title>Show " + n +
                               "</title><item><title>Episode</title><guid>e-" + n +
                               "</guid><enclosure url=\"https://media.example/" + n +
                               ".mp3\" type=\"audio/mpeg\" length=\"1\"/></item></channel></rss>",
                           "application/rss+xml");
      std::lock_guard lock(m_mutex);
      --m_active;
    });
  }

  std::string url(int n) const { return m_server.url("/feed/" + std::to_string(n) + ".xml"); }
  void set_latency(std::chrono::milliseconds latency) { m_latency_ms = latency.count(); }

  // Most requests in hand at once, over all requests from the `first` on, `count` of them.
  int most_in_hand(std::size_t first, std::size_t count) const {
    std::lock_guard lock(m_mutex);
    int most = 0;
    for (std::size_t i = first; i < std::min(m_in_hand.size(), first + count); ++i) {
      most = std::max(most, m_in_hand[i]);
    }
    return most;
  }
  std::size_t requests() const {
    std::lock_guard lock(m_mutex);
    return m_in_hand.size();
  }

private:
  testing::LoopbackServer m_server;
  std::atomic<std::int64_t> m_latency_ms;
  mutable std::mutex m_mutex;
  int m_active = 0;
  std::vector<int> m_in_hand;
};

class HostPace : public testing::DatabaseTest {
protected:
  testing::ProcessResult run(std::vector<std::string> arguments) {
    arguments.insert(arguments.begin(), {testing::podcrawl_binary(), "--database-url",
                                         database_url(), "--allow-private-networks"});
    return testing::run_process(arguments);
  }
  std::string config(int per_host, int per_host_max) {
    const auto file = m_dir.path() / ("pace-" + std::to_string(per_host) + ".toml");
    testing::write_file(file, "[crawl]\nper_host = " + std::to_string(per_host) +
                                  "\nper_host_max = " + std::to_string(per_host_max) + "\n");
    return file.string();
  }
  nlohmann::json last_crawl_hosts() {
    const auto stats = run({"stats", "--json"});
    EXPECT_EQ(stats.status, 0) << stats.err;
    return nlohmann::json::parse(stats.out).at("last_crawl").at("hosts");
  }

  testing::TempDir m_dir;
};

TEST_F(HostPace, ACrawlLearnsAHostsPaceAndTheNextCrawlProcessStartsThere) {
  CountingHost host(20ms);
  constexpr int k_feeds = 120;
  std::vector<std::string> add = {"add", "--no-discover"};
  for (int i = 0; i < k_feeds; ++i) {
    add.push_back(host.url(i));
  }
  ASSERT_EQ(run(add).status, 0);

  // Starting at 2, the host's clean answers take its pace to the ceiling of 6, never past it.
  const auto first = run({"--config", config(2, 6), "crawl"});
  ASSERT_EQ(first.status, 0) << first.err;
  EXPECT_NE(first.out.find(std::to_string(k_feeds) + " fetched"), std::string::npos) << first.out;
  // The host sees a little less than the crawler has in flight (a request on its way in or out).
  EXPECT_LE(host.most_in_hand(0, host.requests()), 6);
  EXPECT_LE(host.most_in_hand(0, 3), 2); // the first round trip is at per_host
  const auto hosts = last_crawl_hosts();
  ASSERT_EQ(hosts.size(), 1u) << hosts;
  EXPECT_EQ(hosts[0]["requests"], k_feeds);
  EXPECT_EQ(hosts[0]["concurrency_reached"], 6);
  EXPECT_EQ(hosts[0]["throttled"], 0);
  EXPECT_GE(hosts[0]["concurrency"].get<double>(), 6.0);

  // Another process, told to start a host at 1: this host it starts at the pace learned. The
  // host answers slowly now, so that requests sent together are in its hand together however
  // slowly a loaded (or sanitized) crawler gets them out.
  host.set_latency(150ms);
  const std::size_t before = host.requests();
  const auto second = run({"--config", config(1, 6), "crawl", "--all"});
  ASSERT_EQ(second.status, 0) << second.err;
  EXPECT_EQ(host.requests(), before + k_feeds);
  // From 1, doubling, the first six requests would have had at most 4 in hand.
  EXPECT_GE(host.most_in_hand(before, 6), 5);
  EXPECT_LE(host.most_in_hand(before, k_feeds), 6);
}

} // namespace
} // namespace podcrawl

// WebSub (W3C Recommendation, 2018) through the binary, on loopback: a hub written for these
// tests after the Recommendation's hub side (it takes subscription requests, verifies the
// subscriber's intent with a challenge, and delivers signed notifications), the crawler
// subscribing the feeds that declare it, and `podcrawl serve` answering the callbacks. A signed
// delivery has a running watcher fetch the feed, and the new episode is on the live show page
// with no other crawl; a wrong signature changes nothing; a short lease is renewed before it
// ends; a removed feed is unsubscribed.
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <gtest/gtest.h>
#include <pqxx/pqxx>

#include <chrono>
#include <condition_variable>
#include <ctime>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "directory_fixture.hpp"
#include "support/http_client.hpp"
#include "support/loopback_server.hpp"
#include "support/process.hpp"

namespace podcrawl {
namespace {

using namespace std::chrono_literals;

constexpr auto k_wait = 30s;

std::string form_decoded(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '+') {
      out += ' ';
    } else if (text[i] == '%' && i + 2 < text.size()) {
      out += static_cast<char>(std::stoi(text.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

std::map<std::string, std::string> form_fields(const std::string& body) {
  std::map<std::string, std::string> fields;
  std::size_t start = 0;
  while (start < body.size()) {
    const std::size_t end = std::min(body.find('&', start), body.size());
    const std::string field = body.substr(start, end - start);
    const std::size_t equals = field.find('=');
    if (equals != std::string::npos) {
      fields[form_decoded(field.substr(0, equals))] = form_decoded(field.substr(equals + 1));
    }
    start = end + 1;
  }
  return fields;
}

// The HMAC of body under secret as X-Hub-Signature carries it ("sha256=<hex>"), computed here
// with libcrypto directly rather than with the code under test.
std::string signature(const std::string& method, const std::string& body,
                      const std::string& secret) {
  const EVP_MD* digest = method == "sha1"     ? EVP_sha1()
                         : method == "sha384" ? EVP_sha384()
                         : method == "sha512" ? EVP_sha512()
                                              : EVP_sha256();
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(digest, secret.data(), static_cast<int>(secret.size()),
       reinterpret_cast<const unsigned char*>(body.data()), body.size(), mac, &length);
  static constexpr char k_hex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned int i = 0; i < length; ++i) {
    hex += k_hex[mac[i] >> 4];
    hex += k_hex[mac[i] & 0xf];
  }
  return method + "=" + hex;
}

// A WebSub hub for the tests, on a loopback server at /hub. It takes subscription and
// unsubscription requests (a form POST: hub.mode, hub.topic, hub.callback, hub.secret,
// hub.lease_seconds), verifies each at once with a GET of the callback (hub.mode, hub.topic, a
// random hub.challenge, and for a subscription the lease it grants), which the subscriber must
// echo, and only then answers 202, so that a subscriber that sent its request before recording it
// would fail the verification. It delivers signed notifications on the test's demand.
class TestHub {
public:
  struct Request {
    std::string mode;
    std::string topic;
    std::string callback;
    std::string secret;
    std::string lease_asked;
    std::int64_t received_at = 0;
    bool verified = false; // the callback echoed the challenge
    std::int64_t verified_at = 0;
  };

  explicit TestHub(std::int64_t granted_lease_seconds, std::string address = "127.0.0.1")
      : m_lease(granted_lease_seconds), m_server(std::move(address)) {
    m_server.on_post("/hub", [this](const testing::Request& request, testing::Response& response) {
      auto fields = form_fields(request.body);
      Request taken{fields["hub.mode"],   fields["hub.topic"],         fields["hub.callback"],
                    fields["hub.secret"], fields["hub.lease_seconds"], std::time(nullptr)};
      if ((taken.mode != "subscribe" && taken.mode != "unsubscribe") || taken.topic.empty() ||
          taken.callback.empty()) {
        response.status = 400;
        return;
      }
      verify(taken);
      {
        std::lock_guard lock(m_mutex);
        m_requests.push_back(taken);
      }
      m_changed.notify_all();
      response.status = 202;
    });
  }

  std::string url() const { return m_server.url("/hub"); }

  std::vector<Request> requests() {
    std::lock_guard lock(m_mutex);
    return m_requests;
  }

  // Wait until the requests received satisfy `done`, at most k_wait.
  bool wait_until(const std::function<bool(const std::vector<Request>&)>& done) {
    std::unique_lock lock(m_mutex);
    return m_changed.wait_for(lock, k_wait, [&] { return done(m_requests); });
  }

  // The latest verified subscription of `topic`; nullopt when there is none.
  std::optional<Request> subscription(const std::string& topic) {
    std::lock_guard lock(m_mutex);
    for (auto at = m_requests.rbegin(); at != m_requests.rend(); ++at) {
      if (at->topic == topic && at->mode == "subscribe" && at->verified) {
        return *at;
      }
    }
    return std::nullopt;
  }

  // POST a notification to the subscription's callback, with this X-Hub-Signature ("" for
  // none).
  static testing::Answer deliver(const Request& subscription, const std::string& body,
                                 const std::string& signature_header) {
    const auto [port, path] = split_callback(subscription.callback);
    std::string head = "POST " + path +
                       " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/rss+xml\r\n"
                       "Connection: close\r\nContent-Length: " +
                       std::to_string(body.size()) + "\r\n";
    if (!signature_header.empty()) {
      head += "X-Hub-Signature: " + signature_header + "\r\n";
    }
    return testing::send_request(port, head + "\r\n" + body);
  }

  // A verification GET as the hub sends it, for tests of what the subscriber refuses.
  static testing::Answer verification(const std::string& callback, const std::string& mode,
                                      const std::string& topic, const std::string& challenge) {
    const auto [port, path] = split_callback(callback);
    return testing::get(port, path + "?hub.mode=" + mode +
                                  "&hub.topic=" + testing::percent_encoded(topic) +
                                  "&hub.challenge=" + challenge + "&hub.lease_seconds=600");
  }

  // "http://127.0.0.1:<port><path>" as its port and path.
  static std::pair<int, std::string> split_callback(const std::string& callback) {
    const std::string prefix = "http://127.0.0.1:";
    EXPECT_EQ(callback.rfind(prefix, 0), 0U) << callback;
    const std::size_t slash = callback.find('/', prefix.size());
    return {std::stoi(callback.substr(prefix.size(), slash - prefix.size())),
            callback.substr(slash)};
  }

private:
  void verify(Request& request) {
    std::string challenge;
    {
      std::lock_guard lock(m_mutex);
      challenge = std::to_string(m_random()) + "-" + std::to_string(m_random());
    }
    const auto [port, path] = split_callback(request.callback);
    std::string target = path + "?hub.mode=" + request.mode +
                         "&hub.topic=" + testing::percent_encoded(request.topic) +
                         "&hub.challenge=" + challenge;
    if (request.mode == "subscribe") {
      target += "&hub.lease_seconds=" + std::to_string(m_lease);
    }
    const auto answer = testing::get(port, target);
    request.verified = answer.status / 100 == 2 && answer.body == challenge;
    request.verified_at = std::time(nullptr);
  }

  const std::int64_t m_lease;
  std::mutex m_mutex;
  std::condition_variable m_changed;
  std::vector<Request> m_requests;
  std::mt19937_64 m_random{std::random_device{}()};
  testing::LoopbackServer m_server; // last: stopped before what its handlers use
};

// A feed that declares the hub, in its document or in its Link headers, and that the test can
// give a new episode.
class PushedFeed {
public:
  enum class Declared { document, link_headers };

  PushedFeed(testing::LoopbackServer& server, const std::string& path, std::string hub,
             Declared declared)
      : m_self(server.url(path)), m_hub(std::move(hub)), m_declared(declared) {
    server.on_get(path, [this](const testing::Request& request, testing::Response& response) {
      std::lock_guard lock(m_mutex);
      ++m_requests;
      const std::string etag = "\"" + std::to_string(m_version) + "\"";
      response.set_header("ETag", etag);
      if (m_declared == Declared::link_headers) {
        response.set_header("Link", "<" + m_hub + ">; rel=\"hub\", <" + m_self + ">; rel=self");
      }
      if (request.header("If-None-Match") == etag) {
        response.status = 304;
        return;
      }
      response.set_content(body(), "application/rss+xml");
    });
  }

  const std::string& self() const { return m_self; }

  // From now on the feed carries one more episode titled `title`, newer than the others.
  void add_episode(const std::string& title) {
    std::lock_guard lock(m_mutex);
    m_new_title = title;
    ++m_version;
  }
  // From now on the feed declares another hub.
  void move_to(std::string hub) {
    std::lock_guard lock(m_mutex);
    m_hub = std::move(hub);
    ++m_version;
  }
  int requests() {
    std::lock_guard lock(m_mutex);
    return m_requests;
  }

private:
  std::string body() const {
    std::string feed = testing::generated_feed("Pushed Show", "Technology", 3);
    std::string links;
    if (m_declared == Declared::document) {
      links = "<atom:link xmlns:atom=\"http://www.w3.org/2005/Atom\" rel=\"hub\" href=\"" + m_hub +
              "\"/><atom:link xmlns:atom=\"http://www.w3.org/2005/Atom\" rel=\"self\" href=\"" +
              m_self + "\"/>";
    }
    if (!m_new_title.empty()) {
      links += "<item><title>" + m_new_title + "</title><guid>pushed-new</guid><pubDate>" +
               testing::rfc822(testing::k_render_time - 60) +
               "</pubDate><enclosure url=\"https://media.example/new.mp3\" type=\"audio/mpeg\" "
               "length=\"1000\"/></item>";
    }
    feed.insert(feed.find("<item>"), links);
    return feed;
  }

  const std::string m_self;
  std::string m_hub;
  const Declared m_declared;
  std::mutex m_mutex;
  int m_version = 1;
  int m_requests = 0;
  std::string m_new_title;
};

class WebSub : public testing::DirectoryTest {
protected:
  // Start `podcrawl serve` on an ephemeral port and write the crawler's configuration, whose
  // [websub] callback_base is that server's address.
  void start_serve() {
    const auto serve_config = m_dir.path() / "serve.toml";
    testing::write_file(serve_config, "[serve]\naccess_log = false\n");
    m_serve = std::make_unique<testing::ChildProcess>(
        command({"--config", serve_config.string(), "serve", "--port", "0", "--locales", "en"}));
    const auto out = m_serve->wait_for_output("/\n", 60s);
    ASSERT_TRUE(out.has_value()) << "serve did not start";
    m_port = std::stoi(out->substr(out->rfind(':') + 1));
    m_config = m_dir.path() / "crawl.toml";
    testing::write_file(m_config, "[websub]\ncallback_base = \"http://127.0.0.1:" +
                                      std::to_string(m_port) + "/\"\n");
  }

  // Add the feed, start serve and crawl once: the hub's verified subscription of the feed.
  std::optional<TestHub::Request> subscribe_by_crawl(TestHub& hub, const PushedFeed& feed) {
    add_opml({feed.self()});
    start_serve();
    const auto crawled = crawl();
    EXPECT_EQ(crawled.status, 0) << crawled.out;
    return hub.subscription(feed.self());
  }

  testing::ProcessResult crawl() {
    return run({"--config", m_config.string(), "--allow-private-networks", "crawl", "--no-art"});
  }

  std::unique_ptr<testing::ChildProcess> start_watcher() {
    return std::make_unique<testing::ChildProcess>(
        command({"--config", m_config.string(), "--allow-private-networks", "crawl", "--watch",
                 "--no-art"}));
  }

  // One value of the database, as text ("" for NULL).
  std::string query(const std::string& sql) {
    pqxx::connection connection(database_url());
    pqxx::work txn(connection);
    const auto row = txn.exec1(sql);
    return row[0].is_null() ? std::string() : row[0].as<std::string>();
  }

  // Wait until `page` of the live directory holds `text`, at most k_wait; its body then.
  std::optional<std::string> wait_for_page(const std::string& page, const std::string& text) {
    const auto deadline = std::chrono::steady_clock::now() + k_wait;
    while (std::chrono::steady_clock::now() < deadline) {
      const auto answer = testing::get(m_port, page);
      if (answer.body.find(text) != std::string::npos) {
        return answer.body;
      }
      std::this_thread::sleep_for(100ms); // the page is asked again, not waited on blindly
    }
    return std::nullopt;
  }

  testing::LoopbackServer m_feeds;
  std::unique_ptr<testing::ChildProcess> m_serve;
  int m_port = 0;
  std::filesystem::path m_config;
};

TEST_F(WebSub, SubscribesEveryFeedThatDeclaresAHubAndAnswersOnlyPendingVerifications) {
  TestHub hub(600);
  PushedFeed in_document(m_feeds, "/document.xml", hub.url(), PushedFeed::Declared::document);
  PushedFeed in_headers(m_feeds, "/headers.xml", hub.url(), PushedFeed::Declared::link_headers);
  m_feeds.serve_feed("/plain.xml", testing::generated_feed("Plain", "News", 2),
                     "application/rss+xml", "\"plain\"");
  add_opml({in_document.self(), in_headers.self(), m_feeds.url("/plain.xml")});
  start_serve();
  const auto crawled = crawl();
  ASSERT_EQ(crawled.status, 0) << crawled.out;
  EXPECT_NE(crawled.out.find("websub: 2 subscribed, 0 unsubscribed, 0 failed"), std::string::npos)
      << crawled.out;

  const auto requests = hub.requests();
  ASSERT_EQ(requests.size(), 2U); // the feed without a hub is not subscribed anywhere
  for (const auto& feed : {&in_document, &in_headers}) {
    const auto subscribed = hub.subscription(feed->self());
    ASSERT_TRUE(subscribed.has_value()) << feed->self();
    EXPECT_EQ(
        subscribed->callback.rfind("http://127.0.0.1:" + std::to_string(m_port) + "/websub/", 0),
        0U)
        << subscribed->callback;
    EXPECT_EQ(subscribed->secret.size(), 64U);
    EXPECT_EQ(subscribed->lease_asked, "1209600");
  }
  // Each subscription has a callback of its own.
  EXPECT_NE(requests[0].callback, requests[1].callback);
  EXPECT_NE(requests[0].secret, requests[1].secret);
  EXPECT_EQ(query("SELECT count(*) FROM websub_subscriptions WHERE state = 'active'"), "2");

  // Verified once, the request is no longer pending: the same verification, one for another
  // topic or mode, and one for a token nobody was given are refused.
  const auto& callback = requests[0].callback;
  EXPECT_EQ(TestHub::verification(callback, "subscribe", requests[0].topic, "again").status, 404);
  EXPECT_EQ(TestHub::verification(callback, "unsubscribe", requests[0].topic, "x").status, 404);
  const std::string unknown = callback.substr(0, callback.rfind('/') + 1) + std::string(64, 'a');
  EXPECT_EQ(TestHub::verification(unknown, "subscribe", requests[0].topic, "x").status, 404);
  EXPECT_EQ(TestHub::verification(callback.substr(0, callback.rfind('/') + 1) + "short",
                                  "subscribe", requests[0].topic, "x")
                .status,
            404);

  // A second crawl finds both subscriptions active and far from their end: nothing is sent.
  const auto again = crawl();
  ASSERT_EQ(again.status, 0) << again.out;
  EXPECT_EQ(hub.requests().size(), 2U);
}

TEST_F(WebSub, ASignedDeliveryPutsTheNewEpisodeOnTheLivePageWithoutACron) {
  TestHub hub(600);
  PushedFeed feed(m_feeds, "/pushed.xml", hub.url(), PushedFeed::Declared::document);
  add_opml({feed.self()});
  start_serve();
  auto watcher = start_watcher();
  ASSERT_TRUE(hub.wait_until([](const auto& requests) {
    return !requests.empty() && requests.back().verified;
  })) << "the watcher did not subscribe";
  const auto subscription = hub.subscription(feed.self());
  ASSERT_TRUE(subscription.has_value());
  const std::string slug = slugs_by_url().at(feed.self());
  const std::string page = "/en/podcasts/" + slug + "/";
  ASSERT_TRUE(wait_for_page(page, "Pushed Show 3").has_value());
  const int fetched = feed.requests();

  // The feed changes; the watcher's next scheduled fetch is an hour away at least. The hub
  // delivers only the new item (as hubs may); the watcher fetches the whole feed at once.
  feed.add_episode("Breaking News From The Hub");
  const std::string delivered =
      "<rss><channel><item><title>Breaking News From The Hub</title>"
      "</item></channel></rss>";
  const auto answer = TestHub::deliver(*subscription, delivered,
                                       signature("sha256", delivered, subscription->secret));
  EXPECT_EQ(answer.status, 202) << answer.body;
  EXPECT_TRUE(wait_for_page(page, "Breaking News From The Hub").has_value())
      << "the pushed episode did not reach the live page";
  EXPECT_GT(feed.requests(), fetched);

  // The episode is counted for the hub as seen first by push.
  const auto metrics = testing::get(m_port, "/metrics");
  EXPECT_NE(metrics.body.find("podcrawl_websub_new_episodes_total{hub=\"" + hub.url() +
                              "\",first=\"push\"} 1"),
            std::string::npos)
      << metrics.body;
  const auto report_file = m_dir.path() / "report.html";
  ASSERT_EQ(run({"report", "--out", report_file.string()}).status, 0);
  const std::string report = testing::read_file(report_file);
  EXPECT_NE(report.find("<data class=\"push\" value=\"1\">"), std::string::npos);
  EXPECT_NE(report.find(hub.url()), std::string::npos);
}

TEST_F(WebSub, AWrongSignatureChangesNothing) {
  TestHub hub(600);
  PushedFeed feed(m_feeds, "/pushed.xml", hub.url(), PushedFeed::Declared::document);
  const auto subscription = subscribe_by_crawl(hub, feed);
  ASSERT_TRUE(subscription.has_value());
  const std::string body = "<rss/>";
  const std::string due = "SELECT next_fetch_at > now() FROM feeds";
  ASSERT_EQ(query(due), "t");

  // Answered 202 all the same (W3C WebSub 8.1: ignored, and nothing told to a forger).
  const std::string forged[] = {signature("sha256", body, "not the secret"),
                                signature("sha1", body + " ", subscription->secret),
                                "md5=0123456789abcdef0123456789abcdef", "", "sha256"};
  for (const auto& header : forged) {
    EXPECT_EQ(TestHub::deliver(*subscription, body, header).status, 202) << header;
  }
  EXPECT_EQ(query(due), "t") << "a forged delivery made the feed due";
  EXPECT_EQ(query("SELECT count(*) FROM feeds WHERE pushed_at IS NOT NULL"), "0");

  // A token no subscription holds: 410, so that a hub may end it.
  TestHub::Request unknown = *subscription;
  unknown.callback =
      unknown.callback.substr(0, unknown.callback.rfind('/') + 1) + std::string(64, 'b');
  EXPECT_EQ(TestHub::deliver(unknown, body, signature("sha256", body, unknown.secret)).status, 410);

  // Each method the Recommendation names, signed with the secret, marks the feed urgent; five
  // deliveries at once do (k_websub_mark_burst), the sixth is answered alike and changes nothing.
  const char* methods[] = {"sha1", "sha384", "sha512", "sha256", "sha256", "sha256"};
  for (std::size_t i = 0; i < std::size(methods); ++i) {
    const std::string signed_with = signature(methods[i], body, subscription->secret);
    EXPECT_EQ(TestHub::deliver(*subscription, body, signed_with).status, 202);
    EXPECT_EQ(query(due), i < 5 ? "f" : "t") << i << " " << methods[i];
    // Scheduled again an hour away, for the next delivery.
    pqxx::connection connection(database_url());
    pqxx::work txn(connection);
    txn.exec(
        "UPDATE feeds SET next_fetch_at = now() + interval '1 hour', urgent_at = NULL,"
        " pushed_at = NULL");
    txn.commit();
  }
}

TEST_F(WebSub, RenewsASubscriptionBeforeItsLeaseEnds) {
  constexpr std::int64_t k_lease = 6;
  TestHub hub(k_lease);
  PushedFeed feed(m_feeds, "/pushed.xml", hub.url(), PushedFeed::Declared::document);
  add_opml({feed.self()});
  start_serve();
  auto watcher = start_watcher();
  ASSERT_TRUE(hub.wait_until([](const auto& requests) {
    return requests.size() >= 2 && requests[0].verified && requests[1].verified;
  })) << "the subscription was not renewed";
  const auto requests = hub.requests();
  EXPECT_EQ(requests[1].mode, "subscribe");
  EXPECT_EQ(requests[1].callback, requests[0].callback);
  EXPECT_EQ(requests[1].secret, requests[0].secret);
  EXPECT_LT(requests[1].received_at, requests[0].verified_at + k_lease)
      << "renewed only after the lease had ended";
}

TEST_F(WebSub, UnsubscribesARemovedFeed) {
  TestHub hub(600);
  PushedFeed feed(m_feeds, "/pushed.xml", hub.url(), PushedFeed::Declared::document);
  const auto subscription = subscribe_by_crawl(hub, feed);
  ASSERT_TRUE(subscription.has_value());

  ASSERT_EQ(run({"remove", feed.self()}).status, 0);
  const auto crawled = crawl();
  ASSERT_EQ(crawled.status, 0) << crawled.out;
  const auto requests = hub.requests();
  ASSERT_EQ(requests.size(), 2U);
  EXPECT_EQ(requests[1].mode, "unsubscribe");
  EXPECT_EQ(requests[1].topic, feed.self());
  EXPECT_EQ(requests[1].callback, subscription->callback);
  EXPECT_TRUE(requests[1].verified);
  EXPECT_EQ(query("SELECT count(*) FROM websub_subscriptions"), "0");
  // A delivery for it now tells the hub the subscription is gone.
  EXPECT_EQ(
      TestHub::deliver(*subscription, "<rss/>", signature("sha256", "<rss/>", subscription->secret))
          .status,
      410);
}

TEST_F(WebSub, FollowsAFeedToAnotherHub) {
  TestHub first(600);
  TestHub second(600);
  PushedFeed feed(m_feeds, "/pushed.xml", first.url(), PushedFeed::Declared::document);
  const auto old_subscription = subscribe_by_crawl(first, feed);
  ASSERT_TRUE(old_subscription.has_value());

  feed.move_to(second.url());
  const auto crawled = run(
      {"--config", m_config.string(), "--allow-private-networks", "crawl", "--all", "--no-art"});
  ASSERT_EQ(crawled.status, 0) << crawled.out;
  EXPECT_TRUE(second.subscription(feed.self()).has_value()) << crawled.out;
  const auto ended = first.requests();
  ASSERT_EQ(ended.size(), 2U);
  EXPECT_EQ(ended[1].mode, "unsubscribe");
  EXPECT_EQ(ended[1].callback, old_subscription->callback);
  EXPECT_TRUE(ended[1].verified);
  EXPECT_EQ(query("SELECT count(*) FROM websub_subscriptions"), "1");
  EXPECT_NE(second.subscription(feed.self())->callback, old_subscription->callback);
}

TEST_F(WebSub, AsksNoHubAtAnAddressThePolicyRefuses) {
  TestHub hub(600, "127.0.0.2");
  PushedFeed feed(m_feeds, "/pushed.xml", hub.url(), PushedFeed::Declared::document);
  add_opml({feed.self()});
  start_serve();
  // The feed's own server is allowed by name; the hub's private address is not.
  testing::write_file(m_config, testing::read_file(m_config) +
                                    "[fetch]\nallowed_private_addresses = [\"127.0.0.1\"]\n");
  const auto crawled = run({"--config", m_config.string(), "crawl", "--no-art"});
  ASSERT_EQ(crawled.status, 0) << crawled.out;
  EXPECT_NE(crawled.out.find("1 fetched"), std::string::npos) << crawled.out;
  EXPECT_NE(crawled.out.find("websub: 0 subscribed, 0 unsubscribed, 1 failed"), std::string::npos)
      << crawled.out;
  EXPECT_TRUE(hub.requests().empty());
  EXPECT_EQ(query("SELECT state FROM websub_subscriptions"), "subscribing");
}

} // namespace
} // namespace podcrawl

// The directory's APIs served by `podcrawl serve` against a real PostgreSQL and a crawl of
// loopback feeds: Podcast Index's signed requests and their refusals, each key's budget, the
// 400 bodies, the answers as the store holds them (a crawl's new episode at once), and the
// keyless iTunes and gpodder.net searches with the pages' HTTP.
#include <chrono>
#include <csignal>
#include <ctime>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "api_fixture.hpp"
#include "podcrawl/core/hash.hpp"
#include "podcrawl/core/time.hpp"
#include "support/http_client.hpp"

namespace podcrawl {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;
using testing::Answer;
using testing::ApiKey;
using testing::ApiServe;
using testing::get;

TEST_F(ApiServe, AnswersRequestsSignedAsPodcastIndexClientsSignThem) {
  const int port = start_serve();
  ASSERT_NE(port, 0);
  const Answer found = api(port, "/api/1.0/search/byterm?q=tech+talk&pretty");
  ASSERT_EQ(found.status, 200) << found.body;
  EXPECT_EQ(found.header("content-type"), "application/json; charset=utf-8");
  const auto answer = json::parse(found.body);
  EXPECT_EQ(answer["status"], "true");
  EXPECT_EQ(answer["query"], "tech talk");
  ASSERT_GE(answer["count"].get<int>(), 1);
  EXPECT_EQ(answer["feeds"][0]["url"], m_feeds.url("/tech.xml"));

  // Not explicit, so kept by `clean`; no show has a value block or an iTunes id.
  const auto clean = json::parse(api(port, "/api/1.0/search/byterm?q=tech+talk&clean").body);
  EXPECT_EQ(clean["feeds"], answer["feeds"]);
  EXPECT_EQ(json::parse(api(port, "/api/1.0/search/byterm?q=tech+talk&val=any").body)["count"], 0);

  // A client that sends the date with a fraction signs that very text.
  const std::string float_date = std::to_string(std::time(nullptr)) + ".123";
  EXPECT_EQ(get(port, "/api/1.0/stats/current", signed_with(m_key, float_date)).status, 200);
}

// As Podcast Index's: byterm matches a feed's own fields, bytitle its title; episodes are not
// looked in (the site's search finds the show by its episodes' "modules").
TEST_F(ApiServe, SearchesMatchFeedsByTheirOwnFieldsAsPodcastIndexDoes) {
  const int port = start_serve();
  ASSERT_NE(port, 0);
  const auto feeds = [&](const std::string& target) {
    std::vector<std::string> urls;
    const auto answer = json::parse(api(port, target).body);
    for (const auto& feed : answer["feeds"]) {
      urls.push_back(feed["url"].get<std::string>());
    }
    return urls;
  };
  const std::vector<std::string> tech = {m_feeds.url("/tech.xml")};
  EXPECT_EQ(feeds("/api/1.0/search/byterm?q=ada"), tech);     // its author
  EXPECT_EQ(feeds("/api/1.0/search/byterm?q=systems"), tech); // its description
  EXPECT_EQ(feeds("/api/1.0/search/byterm?q=modules"), std::vector<std::string>{});
  EXPECT_EQ(feeds("/api/1.0/search/bytitle?q=loopback"), tech);
  EXPECT_EQ(feeds("/api/1.0/search/bytitle?q=ada"), std::vector<std::string>{});
  EXPECT_NE(get(port, "/en/search/?q=modules").body.find("Loopback Tech Talk"), std::string::npos);
}

constexpr const char* k_submitted_feed = R"(<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Submitted Show</title><link>https://submitted.example/</link>
<language>en</language><description>Sent in through the API.</description>
<item><title>First light</title><guid>submitted-1</guid>
<pubDate>Mon, 02 Nov 2026 10:00:00 +0000</pubDate>
<enclosure url="https://media.example/submitted/1.mp3" type="audio/mpeg" length="10"/></item>
</channel></rss>)";

// add/byfeedurl: a key with write permission adds a feed, found from its web page too, and its
// show is stored at once; a key that may only read, a page with no feed and a 404 add nothing.
TEST_F(ApiServe, AKeyWithWritePermissionAddsAFeedWhoseShowIsLiveAtOnce) {
  m_feeds.serve_feed("/submitted.xml", k_submitted_feed, "application/rss+xml", "\"s-1\"");
  m_feeds.serve_feed("/home.html",
                     "<!doctype html><html><head><link rel=\"alternate\" "
                     "type=\"application/rss+xml\" href=\"/submitted.xml\"></head></html>",
                     "text/html", "\"h-1\"");
  m_feeds.serve_feed("/plain.html", "<!doctype html><html><head><title>No feed</title></html>",
                     "text/html", "\"p-1\"");
  const ApiKey writer = create_key("publisher", true);
  const int port = start_serve("", {"--allow-private-networks"});
  ASSERT_NE(port, 0);
  const auto add = [&](const ApiKey& key, const std::string& url) {
    return get(port, "/api/1.0/add/byfeedurl?url=" + url,
               signed_with(key, std::to_string(std::time(nullptr))));
  };
  const auto listed = [&] { return json::parse(run({"list", "--json"}).out).size(); };
  const auto before = listed();

  const Answer read_only = add(m_key, m_feeds.url("/submitted.xml"));
  EXPECT_EQ(read_only.status, 401);
  EXPECT_TRUE(json::parse(read_only.body).is_string()) << read_only.body;
  for (const char* path : {"/plain.html", "/missing.xml"}) {
    const Answer refused = add(writer, m_feeds.url(path));
    EXPECT_EQ(refused.status, 400) << path;
    EXPECT_EQ(json::parse(refused.body)["status"], "false") << refused.body;
  }
  EXPECT_EQ(listed(), before);

  const Answer added = add(writer, m_feeds.url("/home.html"));
  ASSERT_EQ(added.status, 200) << added.body;
  const auto answer = json::parse(added.body);
  EXPECT_EQ(answer["status"], "true");
  EXPECT_EQ(answer["existed"], "false");
  const auto id = answer["feedId"].get<std::int64_t>();
  const auto feed =
      json::parse(api(port, "/api/1.0/podcasts/byfeedid?id=" + std::to_string(id)).body);
  EXPECT_EQ(feed["feed"]["title"], "Submitted Show");
  EXPECT_EQ(feed["feed"]["url"], m_feeds.url("/submitted.xml"));
  const auto slug = slugs_by_url()[m_feeds.url("/submitted.xml")];
  ASSERT_FALSE(slug.empty());
  const Answer page = get(port, "/en/podcasts/" + slug + "/");
  EXPECT_EQ(page.status, 200);
  EXPECT_NE(page.body.find("First light"), std::string::npos);
  EXPECT_EQ(listed(), before + 1);

  const auto again = json::parse(add(writer, m_feeds.url("/submitted.xml")).body);
  EXPECT_EQ(again["existed"], "true");
  EXPECT_EQ(again["feedId"], id);
}

// Without --allow-private-networks the server's address policy is a crawl's: a feed on a
// private address is refused, and nothing is listed.
TEST_F(ApiServe, AddingAFeedOnAPrivateAddressIsRefused) {
  m_feeds.serve_feed("/submitted.xml", k_submitted_feed, "application/rss+xml", "\"s-1\"");
  const ApiKey writer = create_key("publisher", true);
  const int port = start_serve("open = true");
  ASSERT_NE(port, 0);
  // An open read API still needs a key to add.
  EXPECT_EQ(get(port, "/api/1.0/add/byfeedurl?url=" + m_feeds.url("/submitted.xml")).status, 401);
  const Answer refused = get(port, "/api/1.0/add/byfeedurl?url=" + m_feeds.url("/submitted.xml"),
                             signed_with(writer, std::to_string(std::time(nullptr))));
  EXPECT_EQ(refused.status, 400) << refused.body;
  EXPECT_EQ(slugs_by_url().count(m_feeds.url("/submitted.xml")), 0U);
}

TEST_F(ApiServe, RefusesMissingStaleAndWronglySignedCredentialsWithABareJsonString) {
  const int port = start_serve();
  ASSERT_NE(port, 0);
  const auto refused = [&](const std::vector<std::string>& headers) {
    const Answer answer = get(port, "/api/1.0/stats/current", headers);
    EXPECT_EQ(answer.status, 401) << answer.body;
    EXPECT_TRUE(json::parse(answer.body).is_string()) << answer.body;
    EXPECT_EQ(answer.header("access-control-allow-origin"), "");
  };
  refused({});
  const std::int64_t now = std::time(nullptr);
  refused(signed_with(m_key, std::to_string(now - 300))); // outside the 3 minute window
  refused(signed_with(m_key, std::to_string(now + 300)));
  auto wrong = signed_with(m_key, std::to_string(now));
  wrong.back() = "Authorization: " + core::sha1_hex(m_key.key + "not-the-secret" + "x");
  refused(wrong);
  refused(signed_with({"UNKNOWNKEYUNKNOWNKEY", m_key.secret}, std::to_string(now)));
  EXPECT_EQ(api(port, "/api/1.0/stats/current").status, 200);
}

TEST_F(ApiServe, ARevokedKeyIsRefusedByARunningServer) {
  const int port = start_serve();
  ASSERT_NE(port, 0);
  const testing::ApiKey other = create_key("revoked soon");
  const auto with_other = [&] {
    return get(port, "/api/1.0/categories/list",
               signed_with(other, std::to_string(std::time(nullptr))));
  };
  // A key made after the server started is heard of.
  auto deadline = std::chrono::steady_clock::now() + 10s;
  Answer answer;
  do {
    answer = with_other();
  } while (answer.status != 200 && std::chrono::steady_clock::now() < deadline);
  ASSERT_EQ(answer.status, 200) << answer.body;

  const auto revoked = run({"api-key", "revoke", other.key});
  ASSERT_EQ(revoked.status, 0) << revoked.out;
  deadline = std::chrono::steady_clock::now() + 10s;
  do {
    answer = with_other();
  } while (answer.status != 401 && std::chrono::steady_clock::now() < deadline);
  EXPECT_EQ(answer.status, 401);
  EXPECT_EQ(api(port, "/api/1.0/categories/list").status, 200); // the others' keys still hold
}

TEST_F(ApiServe, AKeyOverItsBudgetIsToldWhenToComeBack) {
  const int port = start_serve("requests_per_second = 0.01\nburst = 3\n");
  ASSERT_NE(port, 0);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(api(port, "/api/1.0/stats/current").status, 200) << i;
  }
  const Answer over = api(port, "/api/1.0/stats/current");
  EXPECT_EQ(over.status, 429);
  ASSERT_FALSE(over.header("retry-after").empty());
  EXPECT_GE(std::stoi(over.header("retry-after")), 1);
  EXPECT_EQ(json::parse(over.body)["status"], "false");
  // Another key has a budget of its own.
  const testing::ApiKey other = create_key("second");
  auto deadline = std::chrono::steady_clock::now() + 10s;
  Answer answer;
  do {
    answer =
        get(port, "/api/1.0/stats/current", signed_with(other, std::to_string(std::time(nullptr))));
  } while (answer.status == 401 && std::chrono::steady_clock::now() < deadline);
  EXPECT_EQ(answer.status, 200);
}

TEST_F(ApiServe, AMalformedParameterGetsPodcastIndexs400Body) {
  const int port = start_serve();
  ASSERT_NE(port, 0);
  const json expected = {{"status", "false"}, {"description", "Invalid parameters"}};
  for (const char* target :
       {"/api/1.0/search/byterm", "/api/1.0/search/byterm?q=", "/api/1.0/search/byterm?q=a&max=x",
        "/api/1.0/podcasts/byfeedid?id=abc", "/api/1.0/podcasts/byfeedurl",
        "/api/1.0/episodes/byfeedid?id=1,,2", "/api/1.0/episodes/byid?id=-1",
        "/api/1.0/recent/episodes?before=x", "/api/1.0/recent/feeds?since=yesterday"}) {
    const Answer answer = api(port, target);
    EXPECT_EQ(answer.status, 400) << target;
    EXPECT_EQ(json::parse(answer.body), expected) << target;
  }
  for (const char* target : {"/search", "/search?term=a&limit=0", "/lookup?id=x", "/search.json",
                             "/search.json?q=a&scale_logo=999"}) {
    const Answer answer = get(port, target);
    EXPECT_EQ(answer.status, 400) << target;
    EXPECT_EQ(json::parse(answer.body), expected) << target;
  }
}

TEST_F(ApiServe, AnswersAreTheStoresAndACrawlsNewEpisodeIsThereAtOnce) {
  const int port = start_serve();
  ASSERT_NE(port, 0);
  const auto by_url =
      json::parse(api(port, "/api/1.0/podcasts/byfeedurl?url=" + m_feeds.url("/tech.xml")).body);
  ASSERT_TRUE(by_url["feed"].is_object()) << by_url.dump();
  const std::string id = std::to_string(by_url["feed"]["id"].get<std::int64_t>());
  EXPECT_EQ(by_url["feed"]["episodeCount"], testing::k_tech_episodes);
  const auto by_id = json::parse(api(port, "/api/1.0/podcasts/byfeedid?id=" + id).body);
  EXPECT_EQ(by_id["feed"], by_url["feed"]);
  EXPECT_EQ(by_id["query"], json({{"id", id}}));
  const auto by_guid = json::parse(
      api(port, "/api/1.0/podcasts/byguid?guid=" + by_id["feed"]["podcastGuid"].get<std::string>())
          .body);
  EXPECT_EQ(by_guid["feed"]["id"], by_id["feed"]["id"]);
  const auto missing = json::parse(api(port, "/api/1.0/podcasts/byfeedid?id=999999").body);
  EXPECT_EQ(missing["status"], "true");
  EXPECT_EQ(missing["feed"], json::array());

  const auto episodes =
      json::parse(api(port, "/api/1.0/episodes/byfeedid?id=" + id + "&max=1000").body);
  EXPECT_EQ(episodes["count"], testing::k_tech_episodes);
  const auto first = episodes["items"][0];
  const auto by_enclosure =
      json::parse(api(port, "/api/1.0/episodes/byfeedid?id=" + id +
                                "&enclosure=" + first["enclosureUrl"].get<std::string>())
                      .body);
  ASSERT_EQ(by_enclosure["count"], 1);
  EXPECT_EQ(by_enclosure["items"][0]["id"], first["id"]);
  const auto one = json::parse(
      api(port, "/api/1.0/episodes/byid?id=" + std::to_string(first["id"].get<std::int64_t>()))
          .body);
  EXPECT_EQ(one["episode"]["guid"], first["guid"]);
  EXPECT_EQ(one["episode"]["feedTitle"], by_id["feed"]["title"]);
  // A search holds the feed as the store does (and serve keeps it in memory for the next).
  const auto searched = json::parse(api(port, "/api/1.0/search/byterm?q=tech+talk").body);
  ASSERT_EQ(searched["count"], 1) << searched.dump();
  EXPECT_EQ(searched["feeds"][0]["episodeCount"], testing::k_tech_episodes);

  const std::string title = "A brand-new episode for the API";
  m_tech->set(testing::tech_feed_with_new_episode(title), "\"tech-2\"");
  const auto crawled = run({"--allow-private-networks", "crawl", "--all"});
  ASSERT_EQ(crawled.status, 0) << crawled.out;
  // The server hears of the change on a connection of its own: ask for at most ten seconds.
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  json after;
  do {
    after = json::parse(api(port, "/api/1.0/episodes/byfeedid?id=" + id + "&max=1").body);
  } while (after["items"][0]["title"] != title && std::chrono::steady_clock::now() < deadline);
  EXPECT_EQ(after["items"][0]["title"], title);
  // Another search (not an answer cached before) finds the feed with its new episode.
  const auto searched_after =
      json::parse(api(port, "/api/1.0/search/byterm?q=tech+talk&max=5").body);
  ASSERT_EQ(searched_after["count"], 1) << searched_after.dump();
  EXPECT_EQ(searched_after["feeds"][0]["episodeCount"], testing::k_tech_episodes + 1);
  EXPECT_EQ(searched_after["feeds"][0]["newestItemPubdate"], after["items"][0]["datePublished"]);
  const auto recent = json::parse(api(port, "/api/1.0/recent/episodes?max=1").body);
  EXPECT_EQ(recent["items"][0]["title"], title);
  EXPECT_EQ(recent["max"], "1");
}

// When the crawl list says a feed is next fetched, from `list --json`; "" when it does not list it.
std::string next_fetch_of(const json& list, const std::string& url) {
  for (const auto& feed : list) {
    if (feed["url"] == url) {
      return feed["next_fetch_at"].is_string() ? feed["next_fetch_at"].get<std::string>() : "null";
    }
  }
  return "";
}

// A ping wakes a watching crawler: the new episode is on the live show page with no crawl run.
TEST_F(ApiServe, APublishersPingHasAWatchingCrawlerFetchItsFeedAtOnce) {
  const int port = start_serve();
  ASSERT_NE(port, 0);
  testing::ChildProcess watcher(
      command({"--allow-private-networks", "crawl", "--watch", "--no-art"}));
  ASSERT_TRUE(watcher.wait_for_log("fetching feeds as they fall due", 60s)) << "no watcher";
  const std::string title = "Pinged into the directory";
  m_tech->set(testing::tech_feed_with_new_episode(title), "\"tech-2\"");
  const Answer pinged = get(port, "/api/1.0/hub/pubnotify?url=" + m_feeds.url("/tech.xml"));
  ASSERT_EQ(pinged.status, 200) << pinged.body;
  // Heard as announced, or found due by the watcher's first look if the ping came before it.
  const auto fetched = watcher.wait_for_log("1 fetched, 0 not modified, 0 failed, 1 new", 30s);
  ASSERT_TRUE(fetched) << "the ping did not wake the watcher";
  const auto slug = slugs_by_url()[m_feeds.url("/tech.xml")];
  EXPECT_NE(get(port, "/en/podcasts/" + slug + "/").body.find(title), std::string::npos);
  watcher.signal(SIGTERM);
  const auto ended = watcher.wait_for(30s);
  ASSERT_TRUE(ended);
  EXPECT_EQ(ended->status, 0);
}

TEST_F(ApiServe, APublishersPingMakesItsFeedDueAtOnceAtMostOnceAMinute) {
  const int port = start_serve();
  ASSERT_NE(port, 0);
  const auto listed = [&] {
    const auto out = run({"list", "--json"});
    EXPECT_EQ(out.status, 0) << out.out;
    return json::parse(out.out);
  };
  const std::string tech = m_feeds.url("/tech.xml");
  const std::string before = next_fetch_of(listed(), tech);
  ASSERT_GT(before, core::format_iso8601(std::time(nullptr))); // crawled: due again later

  const Answer pinged = get(port, "/api/1.0/hub/pubnotify?url=" + tech); // no key needed
  ASSERT_EQ(pinged.status, 200) << pinged.body;
  EXPECT_EQ(json::parse(pinged.body)["status"], "true");
  EXPECT_EQ(pinged.header("access-control-allow-origin"), "*");
  const std::string after = next_fetch_of(listed(), tech);
  EXPECT_LT(after, before);
  const auto due = run({"--allow-private-networks", "crawl"});
  ASSERT_EQ(due.status, 0) << due.out;
  EXPECT_GT(next_fetch_of(listed(), tech), after); // the crawl fetched it

  // Again within the minute: refused, and nothing changes; a POST of the form is read alike.
  const Answer again = get(port, "/api/1.0/hub/pubnotify?url=" + tech);
  EXPECT_EQ(again.status, 429);
  EXPECT_FALSE(again.header("retry-after").empty());
  const std::string form = "url=" + tech;
  const Answer posted = testing::send_request(
      port,
      "POST /api/1.0/hub/pubnotify HTTP/1.1\r\nHost: t\r\nConnection: close\r\n"
      "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: " +
          std::to_string(form.size()) + "\r\n\r\n" + form);
  EXPECT_EQ(posted.status, 429) << posted.body;
  // Nothing else takes a POST.
  EXPECT_EQ(testing::request(port, "POST", "/api/1.0/stats/current").status, 405);

  // By the APIs' feed id, for another feed.
  const auto arabic = json::parse(
      api(port, "/api/1.0/podcasts/byfeedurl?url=" + m_feeds.url("/ar.xml")).body)["feed"];
  const std::string arabic_before = next_fetch_of(listed(), m_feeds.url("/ar.xml"));
  const Answer by_id =
      get(port, "/api/1.0/hub/pubnotify?id=" + std::to_string(arabic["id"].get<std::int64_t>()));
  EXPECT_EQ(json::parse(by_id.body)["status"], "true") << by_id.body;
  EXPECT_LT(next_fetch_of(listed(), m_feeds.url("/ar.xml")), arabic_before);

  // An unknown feed is not added.
  const std::string unknown = m_feeds.url("/unknown.xml");
  const Answer stranger = get(port, "/api/1.0/hub/pubnotify?url=" + unknown);
  EXPECT_EQ(stranger.status, 200);
  EXPECT_EQ(json::parse(stranger.body)["status"], "false");
  EXPECT_EQ(next_fetch_of(listed(), unknown), "");
  EXPECT_EQ(get(port, "/api/1.0/hub/pubnotify").status, 400);
}

TEST_F(ApiServe, TheOpenReadApiAndTheKeylessSearchesSpeakHttpAsThePagesDo) {
  const int port = start_serve("open = true\n");
  ASSERT_NE(port, 0);
  // Open: no key needed, and web apps may call it.
  const Answer stats = get(port, "/api/1.0/stats/current");
  ASSERT_EQ(stats.status, 200) << stats.body;
  EXPECT_EQ(stats.header("access-control-allow-origin"), "*");
  EXPECT_EQ(json::parse(stats.body)["stats"]["feedCountTotal"], 2);

  const Answer itunes = get(port, "/search?term=tech+talk&media=podcast&entity=podcast");
  ASSERT_EQ(itunes.status, 200) << itunes.body;
  EXPECT_EQ(itunes.header("access-control-allow-origin"), "*");
  const auto results = json::parse(itunes.body);
  ASSERT_GE(results["resultCount"].get<int>(), 1);
  const auto& show = results["results"][0];
  EXPECT_EQ(show["feedUrl"], m_feeds.url("/tech.xml"));
  const std::string id = std::to_string(show["collectionId"].get<std::int64_t>());
  const auto lookup = json::parse(get(port, "/lookup?id=" + id).body);
  EXPECT_EQ(lookup["resultCount"], 1);
  EXPECT_EQ(lookup["results"][0]["collectionName"], show["collectionName"]);

  const Answer gpodder = get(port, "/search.json?q=tech+talk&scale_logo=64");
  ASSERT_EQ(gpodder.status, 200);
  EXPECT_EQ(json::parse(gpodder.body)[0]["url"], m_feeds.url("/tech.xml"));
  EXPECT_EQ(get(port, "/search.txt?q=tech+talk").body, m_feeds.url("/tech.xml") + "\n");
  EXPECT_NE(get(port, "/search.opml?q=tech+talk").body.find("<opml"), std::string::npos);

  // Validators and codings, as the pages have them.
  const std::string etag = itunes.header("etag");
  ASSERT_FALSE(etag.empty());
  EXPECT_EQ(
      get(port, "/search?term=tech+talk&media=podcast&entity=podcast", {"If-None-Match: " + etag})
          .status,
      304);
  EXPECT_EQ(
      get(port, "/search?term=tech+talk", {"Accept-Encoding: gzip"}).header("content-encoding"),
      "gzip");

  const Answer description = get(port, "/api/1.0/openapi.json");
  ASSERT_EQ(description.status, 200);
  EXPECT_EQ(json::parse(description.body)["openapi"], "3.1.0");

  // Requests are counted by endpoint in /metrics.
  EXPECT_NE(
      get(port, "/metrics").body.find("podcrawl_api_requests_total{endpoint=\"itunes/search\""),
      std::string::npos);
}

} // namespace
} // namespace podcrawl

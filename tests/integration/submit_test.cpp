// The live directory's form that adds a podcast (/<locale>/add/), through `podcrawl serve` on
// loopback in Arabic and English: a feed and a web page that advertises one are added and their
// show pages are live at once; what cannot be added is refused with the reason and stores
// nothing; a POST from another site or with a stale form, and one over the rate limits, are
// refused; with [submit] review the submission waits for `podcrawl review`.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "api_fixture.hpp"

namespace podcrawl {
namespace {

using nlohmann::json;
using testing::Answer;
using testing::ApiServe;
using testing::get;

constexpr const char* k_first_feed = R"(<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Listener Pick</title><link>https://pick.example/</link>
<language>en</language><description>Sent in with the form.</description>
<item><title>Opening night</title><guid>pick-1</guid>
<pubDate>Mon, 02 Nov 2026 10:00:00 +0000</pubDate>
<enclosure url="https://media.example/pick/1.mp3" type="audio/mpeg" length="10"/></item>
</channel></rss>)";

constexpr const char* k_second_feed = R"(<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>حكايات المساء</title><link>https://hikayat.example/</link>
<language>ar</language><description>برنامج أرسله مستمع.</description>
<item><title>الحكاية الأولى</title><guid>hikayat-1</guid>
<pubDate>Mon, 02 Nov 2026 18:00:00 +0300</pubDate>
<enclosure url="https://media.example/hikayat/1.mp3" type="audio/mpeg" length="10"/></item>
</channel></rss>)";

// What the catalogs say of each outcome (config/locales/en.toml and ar.toml).
constexpr const char* k_added_en = "The podcast was added to the directory.";
constexpr const char* k_added_ar = "أُضيف البودكاست إلى الدليل.";
constexpr const char* k_exists_en = "This podcast is already in the directory.";
constexpr const char* k_queued_en = "Thank you. The podcast will be listed once";
constexpr const char* k_no_feed_en = "This web page does not link to a podcast feed.";
constexpr const char* k_unreachable_en = "Nothing could be fetched from this address";
constexpr const char* k_private_ar = "يقع هذا العنوان على شبكة خاصة لا يصل إليها الدليل.";
constexpr const char* k_cross_site_en = "This form was sent from another site or has expired";
constexpr const char* k_too_many_en = "Too many podcasts were sent from here";

class SubmitForm : public ApiServe {
protected:
  void SetUp() override {
    ApiServe::SetUp();
    if (IsSkipped()) {
      return;
    }
    m_feeds.serve_feed("/pick.xml", k_first_feed, "application/rss+xml", "\"p-1\"");
    m_feeds.serve_feed("/hikayat.xml", k_second_feed, "application/rss+xml", "\"h-1\"");
    m_feeds.serve_feed("/hikayat.html",
                       "<!doctype html><html><head><link rel=\"alternate\" "
                       "type=\"application/rss+xml\" href=\"/hikayat.xml\"></head></html>",
                       "text/html", "\"hp-1\"");
    m_feeds.serve_feed("/plain.html", "<!doctype html><html><head><title>No feed</title></html>",
                       "text/html", "\"pl-1\"");
  }

  // The form's token, from a GET of the locale's form.
  std::string token(int port, const std::string& locale) {
    const Answer form = get(port, "/" + locale + "/add/");
    EXPECT_EQ(form.status, 200);
    EXPECT_EQ(form.header("cache-control"), "no-store");
    const std::string marker = "name=\"token\" value=\"";
    const auto at = form.body.find(marker);
    if (at == std::string::npos) {
      ADD_FAILURE() << "no token in the form";
      return {};
    }
    const auto start = at + marker.size();
    return form.body.substr(start, form.body.find('"', start) - start);
  }

  // POST the form of `locale` with `url` and its token, as a browser on this site sends it
  // (Sec-Fetch-Site: same-origin) unless other headers are given.
  Answer send(int port, const std::string& locale, const std::string& url,
              std::vector<std::string> headers = {"Sec-Fetch-Site: same-origin"},
              std::string form_token = {}) {
    if (form_token.empty()) {
      form_token = token(port, locale);
    }
    const std::string body =
        "token=" + testing::percent_encoded(form_token) + "&url=" + testing::percent_encoded(url);
    std::string raw = "POST /" + locale +
                      "/add/ HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) +
                      "\r\nConnection: close\r\nContent-Type: application/x-www-form-urlencoded"
                      "\r\nContent-Length: " +
                      std::to_string(body.size()) + "\r\n";
    for (const auto& header : headers) {
      raw += header + "\r\n";
    }
    return testing::send_request(port, raw + "\r\n" + body);
  }

  std::size_t listed() { return json::parse(run({"list", "--json"}).out).size(); }
};

TEST_F(SubmitForm, AddsAFeedAndAWebPagesFeedWhoseShowPagesAreLiveAtOnce) {
  const int port = start_serve("", {"--allow-private-networks"});
  ASSERT_NE(port, 0);
  const auto before = listed();
  // Every page links the form.
  EXPECT_NE(get(port, "/ar/").body.find("<a href=\"add/\">إضافة بودكاست</a>"), std::string::npos);
  const Answer form = get(port, "/en/add/");
  EXPECT_NE(form.body.find(">Feed or website address</label>"), std::string::npos) << form.body;

  const Answer added = send(port, "en", m_feeds.url("/pick.xml"));
  ASSERT_EQ(added.status, 200) << added.body;
  EXPECT_NE(added.body.find(k_added_en), std::string::npos) << added.body;
  const auto slug = slugs_by_url()[m_feeds.url("/pick.xml")];
  ASSERT_FALSE(slug.empty());
  EXPECT_NE(added.body.find("href=\"../podcasts/" + slug + "/\""), std::string::npos);
  const Answer page = get(port, "/en/podcasts/" + slug + "/");
  EXPECT_EQ(page.status, 200);
  EXPECT_NE(page.body.find("Opening night"), std::string::npos);

  // A web page in Arabic: the feed it advertises is added.
  const Answer found = send(port, "ar", m_feeds.url("/hikayat.html"));
  ASSERT_EQ(found.status, 200) << found.body;
  EXPECT_NE(found.body.find(k_added_ar), std::string::npos) << found.body;
  EXPECT_NE(found.body.find("حكايات المساء"), std::string::npos);
  const auto arabic = slugs_by_url()[m_feeds.url("/hikayat.xml")];
  ASSERT_FALSE(arabic.empty());
  EXPECT_NE(get(port, "/ar/podcasts/" + arabic + "/").body.find("الحكاية الأولى"),
            std::string::npos);
  EXPECT_EQ(listed(), before + 2);

  const Answer again = send(port, "en", m_feeds.url("/pick.xml"));
  EXPECT_EQ(again.status, 200);
  EXPECT_NE(again.body.find(k_exists_en), std::string::npos) << again.body;
  EXPECT_EQ(listed(), before + 2);
}

TEST_F(SubmitForm, RefusesWhatItCannotAddAndStoresNothing) {
  const int port = start_serve("", {"--allow-private-networks"});
  ASSERT_NE(port, 0);
  const auto before = listed();
  const Answer plain = send(port, "en", m_feeds.url("/plain.html"));
  EXPECT_EQ(plain.status, 400);
  EXPECT_NE(plain.body.find(k_no_feed_en), std::string::npos) << plain.body;
  // What was sent comes back in the field, to be corrected.
  EXPECT_NE(plain.body.find("value=\"" + m_feeds.url("/plain.html") + "\""), std::string::npos);
  const Answer missing = send(port, "en", m_feeds.url("/missing.xml"));
  EXPECT_EQ(missing.status, 400);
  EXPECT_NE(missing.body.find(k_unreachable_en), std::string::npos) << missing.body;

  // Another site's page, a stale or forged token: nothing is fetched.
  for (const auto& headers : std::vector<std::vector<std::string>>{
           {"Sec-Fetch-Site: cross-site"}, {"Origin: https://elsewhere.example"}}) {
    const Answer refused = send(port, "en", m_feeds.url("/pick.xml"), headers);
    EXPECT_EQ(refused.status, 403) << headers.front();
    EXPECT_NE(refused.body.find(k_cross_site_en), std::string::npos);
  }
  const Answer forged = send(port, "en", m_feeds.url("/pick.xml"), {"Sec-Fetch-Site: same-origin"},
                             "1796000000.0000");
  EXPECT_EQ(forged.status, 403);
  EXPECT_EQ(listed(), before);
  EXPECT_EQ(slugs_by_url().count(m_feeds.url("/pick.xml")), 0U);
}

// A feed the operator removed stays removed, whoever sends it again.
TEST_F(SubmitForm, AFeedTheOperatorRemovedIsNotBroughtBack) {
  const std::string tech = m_feeds.url("/tech.xml");
  ASSERT_EQ(run({"remove", tech}).status, 0);
  const int port = start_serve("", {"--allow-private-networks"});
  ASSERT_NE(port, 0);
  const Answer sent = send(port, "en", tech);
  EXPECT_EQ(sent.status, 200);
  EXPECT_NE(sent.body.find(k_exists_en), std::string::npos) << sent.body;
  EXPECT_EQ(sent.body.find("href=\"../podcasts/"), std::string::npos); // its page is gone
  for (const auto& feed : json::parse(run({"list", "--json", "--status", "removed"}).out)) {
    EXPECT_EQ(feed["url"], tech);
  }
  EXPECT_EQ(json::parse(run({"list", "--json", "--status", "removed"}).out).size(), 1U);
}

TEST_F(SubmitForm, RefusesAPrivateAddressInArabicAndKeepsToItsRateLimits) {
  // Without --allow-private-networks, as a directory on the internet runs.
  const int port = start_serve("[submit]\nper_address_per_hour = 2\n");
  ASSERT_NE(port, 0);
  const Answer refused = send(port, "ar", m_feeds.url("/pick.xml"));
  EXPECT_EQ(refused.status, 400);
  EXPECT_NE(refused.body.find(k_private_ar), std::string::npos) << refused.body;
  EXPECT_NE(refused.body.find("dir=\"rtl\""), std::string::npos);
  EXPECT_EQ(send(port, "en", m_feeds.url("/pick.xml")).status, 400);
  const Answer over = send(port, "en", m_feeds.url("/pick.xml"));
  EXPECT_EQ(over.status, 429);
  EXPECT_NE(over.body.find(k_too_many_en), std::string::npos) << over.body;
}

TEST_F(SubmitForm, UnderReviewASubmissionWaitsUntilTheOperatorDecides) {
  const int port = start_serve("[submit]\nreview = true\n", {"--allow-private-networks"});
  ASSERT_NE(port, 0);
  const auto before = listed();
  for (const char* path : {"/pick.xml", "/hikayat.html"}) {
    const Answer queued = send(port, "en", m_feeds.url(path));
    EXPECT_EQ(queued.status, 202) << queued.body;
    EXPECT_NE(queued.body.find(k_queued_en), std::string::npos) << queued.body;
  }
  EXPECT_EQ(listed(), before);
  const auto waiting = json::parse(run({"review", "list", "--json"}).out);
  ASSERT_EQ(waiting.size(), 2U);
  EXPECT_EQ(waiting[0]["url"], m_feeds.url("/pick.xml"));
  EXPECT_EQ(waiting[1]["url"], m_feeds.url("/hikayat.xml"));
  EXPECT_EQ(waiting[1]["given"], m_feeds.url("/hikayat.html"));

  const auto accepted = run({"--allow-private-networks", "review", "accept",
                             std::to_string(waiting[0]["id"].get<std::int64_t>())});
  EXPECT_EQ(accepted.status, 0) << accepted.out;
  const auto slug = slugs_by_url()[m_feeds.url("/pick.xml")];
  ASSERT_FALSE(slug.empty());
  EXPECT_EQ(get(port, "/en/podcasts/" + slug + "/").status, 200);

  const auto rejected =
      run({"review", "reject", std::to_string(waiting[1]["id"].get<std::int64_t>())});
  EXPECT_EQ(rejected.status, 0) << rejected.out;
  EXPECT_EQ(json::parse(run({"review", "list", "--json"}).out).size(), 0U);
  EXPECT_EQ(slugs_by_url().count(m_feeds.url("/hikayat.xml")), 0U);
  EXPECT_EQ(listed(), before + 1);
  EXPECT_NE(run({"review", "reject", "12345"}).status, 0);
}

} // namespace
} // namespace podcrawl

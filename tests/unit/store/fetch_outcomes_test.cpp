#include <gtest/gtest.h>

#include <pqxx/pqxx>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "podcrawl/l10n/localizer.hpp"
#include "podcrawl/store/crawl_history.hpp"
#include "podcrawl/store/crawl_list.hpp"
#include "podcrawl/store/directory_pages.hpp"
#include "podcrawl/store/fetch_outcomes.hpp"
#include "store_fixture.hpp"

namespace podcrawl::store {
namespace {

constexpr std::int64_t k_now = 1'750'000'000;
constexpr std::int64_t k_next = k_now + 3600;

const FetchMeta k_meta{200, "\"v1\"", "Wed, 11 Jun 2025 10:00:00 GMT", "0123456789abcdef"};

feed::Show three_episode_show(const std::string& title) {
  feed::Show s = show(title);
  s.episodes = {episode("g3", "Third", k_now - 100), episode("g2", "Second", k_now - 200),
                episode("g1", "First", k_now - 300)};
  return s;
}

// Episode slugs of the stored show by guid.
std::map<std::string, std::string> slugs_by_guid(const model::StoredShow& stored) {
  std::map<std::string, std::string> slugs;
  for (std::size_t i = 0; i < stored.episodes.size(); ++i) {
    slugs[stored.episodes[i].episode.guid] = slugs_of(stored).at(i);
  }
  return slugs;
}

// A string literal with its embedded NUL bytes.
template <std::size_t N>
std::string bytes(const char (&text)[N]) {
  return std::string(text, N - 1);
}

using SaveTest = StoreTest;

TEST_F(SaveTest, NamespaceFieldsRoundTripAndReadAsTables) {
  const auto id = listed_feed("https://a.example/feed");
  feed::Show s = three_episode_show("Namespaced");
  s.itunes = {"Owner", "owner@a.example", "serial", false, true, {"tech"}};
  s.podcast.locked = true;
  s.podcast.locked_owner = "owner@a.example";
  s.podcast.funding = {{"https://a.example/give", "Give"}, {"https://b.example/tip", ""}};
  s.podcast.persons = {{"Ada", "", "", "", ""}};
  s.podcast.update_frequency = feed::UpdateFrequency{"Weekly", "FREQ=WEEKLY", false, k_now};
  feed::Episode& first = s.episodes[0];
  first.itunes.episode_type = "trailer";
  first.podcast.persons = {{"Grace", "guest", "guests", "", "https://g.example/"}};
  first.podcast.soundbites = {{12.5, 30, "Bite"}};
  first.podcast.chapters_type = "application/json+chapters";
  first.chapters_url = "https://a.example/c.json";
  first.transcripts = {{"https://a.example/t.vtt", "text/vtt"}, {"https://a.example/t.srt", ""}};
  outcomes().record_success(id, k_meta, s, k_now, k_next);

  const auto stored = pages().load_show("https://a.example/feed");
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(stored->show.itunes, s.itunes);
  EXPECT_EQ(stored->show.podcast, s.podcast);
  ASSERT_EQ(stored->episodes.size(), 3u);
  EXPECT_EQ(stored->episodes[0].episode.itunes, first.itunes);
  EXPECT_EQ(stored->episodes[0].episode.podcast, first.podcast);
  EXPECT_EQ(stored->episodes[1].episode.podcast, feed::PodcastEpisode{});

  pqxx::connection connection(url());
  pqxx::read_transaction txn(connection);
  const auto rows = [&txn](const char* query) {
    std::vector<std::string> out;
    for (const auto& row : txn.exec(query)) {
      std::string line;
      for (const auto& field : row) {
        line += (line.empty() ? "" : "|") + std::string(field.is_null() ? "NULL" : field.c_str());
      }
      out.push_back(line);
    }
    return out;
  };
  EXPECT_EQ(rows("SELECT locked FROM shows"), std::vector<std::string>{"t"});
  EXPECT_EQ(rows("SELECT episode_id IS NULL, position, name, role, \"group\", href FROM persons"
                 " ORDER BY episode_id NULLS FIRST, position"),
            (std::vector<std::string>{"t|0|Ada|host|cast|NULL",
                                      "f|0|Grace|guest|guests|https://g.example/"}));
  EXPECT_EQ(
      rows("SELECT position, url, text FROM funding ORDER BY position"),
      (std::vector<std::string>{"0|https://a.example/give|Give", "1|https://b.example/tip|NULL"}));
  EXPECT_EQ(rows("SELECT position, url, type FROM transcripts ORDER BY position"),
            (std::vector<std::string>{"0|https://a.example/t.vtt|text/vtt",
                                      "1|https://a.example/t.srt|NULL"}));
  EXPECT_EQ(rows("SELECT url, type FROM chapters"),
            std::vector<std::string>{"https://a.example/c.json|application/json+chapters"});
}

TEST_F(SaveTest, FirstSaveStoresEverythingAndASecondFindsNothingNew) {
  const auto id = listed_feed("https://a.example/feed");
  const auto first =
      outcomes().record_success(id, k_meta, three_episode_show("Daily Tech"), k_now, k_next);
  EXPECT_EQ(first.new_episodes, 3);
  EXPECT_EQ(first.show_slug, l10n::slugify("Daily Tech"));

  const auto feed = crawl_list().find_feed("https://a.example/feed").value();
  EXPECT_EQ(feed.status, FeedStatus::active);
  EXPECT_EQ(feed.show_slug, first.show_slug);
  EXPECT_EQ(feed.etag, "\"v1\"");
  EXPECT_EQ(feed.last_modified, "Wed, 11 Jun 2025 10:00:00 GMT");
  EXPECT_EQ(feed.last_status, 200);
  EXPECT_EQ(feed.last_fetch_at, k_now);
  EXPECT_EQ(feed.next_fetch_at, k_next);

  const auto second = outcomes().record_success(id, k_meta, three_episode_show("Daily Tech"),
                                                k_now + 10, k_next + 10);
  EXPECT_EQ(second.new_episodes, 0);
  EXPECT_EQ(second.show_slug, first.show_slug);
  const auto stats = history().stats();
  EXPECT_EQ(stats.shows, 1);
  EXPECT_EQ(stats.episodes, 3);
  EXPECT_EQ(stats.removed_episodes, 0);
}

TEST_F(SaveTest, ANewEpisodeIsCountedOnce) {
  const auto id = listed_feed("https://a.example/feed");
  outcomes().record_success(id, k_meta, three_episode_show("Daily Tech"), k_now, k_next);
  feed::Show grown = three_episode_show("Daily Tech");
  grown.episodes.insert(grown.episodes.begin(), episode("g4", "Fourth", k_now));
  EXPECT_EQ(outcomes().record_success(id, k_meta, grown, k_now + 10, k_next).new_episodes, 1);
  EXPECT_EQ(outcomes().record_success(id, k_meta, grown, k_now + 20, k_next).new_episodes, 0);
  EXPECT_EQ(history().stats().episodes, 4);
}

TEST_F(SaveTest, AnEpisodeThatVanishesIsKeptAsRemovedAndReturnsWhenListedAgain) {
  const auto id = listed_feed("https://a.example/feed");
  const feed::Show full = three_episode_show("Daily Tech");
  outcomes().record_success(id, k_meta, full, k_now, k_next);

  feed::Show shorter = full;
  shorter.episodes.erase(shorter.episodes.begin() + 1); // g2 vanishes
  EXPECT_EQ(outcomes().record_success(id, k_meta, shorter, k_now + 10, k_next).new_episodes, 0);
  auto stats = history().stats();
  EXPECT_EQ(stats.episodes, 2);
  EXPECT_EQ(stats.removed_episodes, 1);
  const auto stored = pages().load_show("https://a.example/feed").value();
  ASSERT_EQ(stored.episodes.size(), 2u);
  for (const auto& e : episodes_of(stored)) {
    EXPECT_NE(e.guid, "g2");
  }

  const auto before = slugs_by_guid(pages().load_show("https://a.example/feed").value());
  EXPECT_EQ(outcomes().record_success(id, k_meta, full, k_now + 20, k_next).new_episodes, 0);
  stats = history().stats();
  EXPECT_EQ(stats.episodes, 3);
  EXPECT_EQ(stats.removed_episodes, 0);
  const auto after = slugs_by_guid(pages().load_show("https://a.example/feed").value());
  EXPECT_EQ(after.at("g1"), before.at("g1"));
  EXPECT_EQ(after.at("g3"), before.at("g3"));
}

TEST_F(SaveTest, ShowSlugsAreUniqueAndNeverChange) {
  const auto a = listed_feed("https://a.example/feed");
  const auto b = listed_feed("https://b.example/feed");
  const auto c = listed_feed("https://c.example/feed");
  const auto slug_a =
      outcomes().record_success(a, k_meta, show("Daily News"), k_now, k_next).show_slug;
  const auto slug_b =
      outcomes().record_success(b, k_meta, show("Daily News"), k_now, k_next).show_slug;
  const auto slug_c =
      outcomes().record_success(c, k_meta, show("Daily News"), k_now, k_next).show_slug;
  EXPECT_EQ(slug_a, l10n::slugify("Daily News"));
  EXPECT_EQ(slug_b, slug_a + "-2");
  EXPECT_EQ(slug_c, slug_a + "-3");

  // Past the first rounds of candidates (the base alone, then 64 at a time), in order.
  for (int n = 4; n <= 70; ++n) {
    const auto feed = listed_feed("https://many.example/" + std::to_string(n));
    ASSERT_EQ(outcomes().record_success(feed, k_meta, show("Daily News"), k_now, k_next).show_slug,
              slug_a + "-" + std::to_string(n));
  }

  // A renamed show keeps the address it was first given.
  EXPECT_EQ(outcomes()
                .record_success(a, k_meta, show("Completely Different"), k_now + 10, k_next)
                .show_slug,
            slug_a);
  EXPECT_EQ(pages().load_show(slug_a)->show.title, "Completely Different");
}

TEST_F(SaveTest, AShowWhoseTitleHasNoLettersStillGetsASlug) {
  const auto a = listed_feed("https://a.example/feed");
  const auto b = listed_feed("https://b.example/feed");
  const auto first = outcomes().record_success(a, k_meta, show("!!!"), k_now, k_next).show_slug;
  const auto second = outcomes().record_success(b, k_meta, show(""), k_now, k_next).show_slug;
  EXPECT_FALSE(first.empty());
  EXPECT_FALSE(second.empty());
  EXPECT_NE(first, second);
}

TEST_F(SaveTest, EpisodeSlugsAreUniqueWithinAShowAndNeverChange) {
  const auto id = listed_feed("https://a.example/feed");
  feed::Show s = show("Weekly");
  s.episodes = {episode("w3", "Weekly Update", k_now - 10),
                episode("w2", "Weekly Update", k_now - 20),
                episode("w1", "Weekly Update", k_now - 30), episode("w0", "", k_now - 40)};
  outcomes().record_success(id, k_meta, s, k_now, k_next);
  const auto first = slugs_by_guid(pages().load_show("https://a.example/feed").value());
  ASSERT_EQ(first.size(), 4u);
  std::set<std::string> distinct;
  for (const auto& [guid, slug] : first) {
    EXPECT_FALSE(slug.empty()) << guid;
    distinct.insert(slug);
  }
  EXPECT_EQ(distinct.size(), 4u);
  // The first in document order gets the plain slug.
  EXPECT_EQ(first.at("w3"), l10n::slugify("Weekly Update"));

  // Retitled and reordered: every episode keeps its slug.
  s.episodes[0].title = "Something Else";
  std::swap(s.episodes[1], s.episodes[2]);
  outcomes().record_success(id, k_meta, s, k_now + 10, k_next);
  EXPECT_EQ(slugs_by_guid(pages().load_show("https://a.example/feed").value()), first);
}

TEST_F(SaveTest, TwoShowsMayUseTheSameEpisodeSlugs) {
  const auto a = listed_feed("https://a.example/feed");
  const auto b = listed_feed("https://b.example/feed");
  outcomes().record_success(a, k_meta, three_episode_show("Alpha"), k_now, k_next);
  outcomes().record_success(b, k_meta, three_episode_show("Beta"), k_now, k_next);
  EXPECT_EQ(slugs_of(pages().load_show("https://a.example/feed").value()),
            slugs_of(pages().load_show("https://b.example/feed").value()));
}

TEST_F(SaveTest, EveryFieldRoundTrips) {
  const auto id = listed_feed("https://a.example/feed");
  feed::Show s = show("Round Trip", "ar-EG");
  s.image = "https://a.example/cover.jpg";
  s.explicit_content = false;
  s.categories = {"Technology", "News", "Technology", "Science"};
  s.podcast_guid = "917393e3-1b1e-5cef-ace4-edaa54e1f810";
  s.new_feed_url = "https://b.example/feed";
  feed::Episode full = episode("full", "Everything", 1'749'528'000);
  full.enclosure_length = 123456;
  full.duration_seconds = 1968;
  full.link = "https://a.example/ep/full";
  full.description = "<p>Described &amp; <a href=\"https://a.example/\">linked</a></p>";
  full.season = 2;
  full.episode = 7;
  full.explicit_content = true;
  full.image = "https://a.example/ep.jpg";
  full.transcripts = {{"https://a.example/t.vtt", "text/vtt"}, {"https://a.example/t.srt", ""}};
  full.chapters_url = "https://a.example/chapters.json";
  feed::Episode sparse;
  sparse.title = "Sparse";
  sparse.link = "https://a.example/ep/sparse";
  s.episodes = {full, sparse};
  outcomes().record_success(id, k_meta, s, k_now, k_next);

  const auto stored = pages().load_show("https://a.example/feed").value();
  EXPECT_TRUE(stored.active);
  EXPECT_EQ(stored.feed_url, "https://a.example/feed");
  EXPECT_EQ(stored.added_at, k_now);
  EXPECT_EQ(stored.show.title, s.title);
  EXPECT_EQ(stored.show.link, s.link);
  EXPECT_EQ(stored.show.description, s.description);
  EXPECT_EQ(stored.show.language, "ar-EG");
  EXPECT_EQ(stored.show.image, s.image);
  EXPECT_EQ(stored.show.author, s.author);
  EXPECT_EQ(stored.show.explicit_content, false);
  EXPECT_EQ(stored.show.categories, (std::vector<std::string>{"Technology", "News", "Science"}));
  EXPECT_EQ(stored.show.podcast_guid, s.podcast_guid);
  EXPECT_EQ(stored.show.new_feed_url, s.new_feed_url);
  EXPECT_EQ(stored.show.feed_url, "https://a.example/feed");
  ASSERT_EQ(stored.episodes.size(), 2u);

  const feed::Episode& got = stored.episodes[0].episode;
  EXPECT_EQ(got.guid, full.guid);
  EXPECT_EQ(got.title, full.title);
  EXPECT_EQ(got.published, full.published);
  EXPECT_EQ(got.enclosure_url, full.enclosure_url);
  EXPECT_EQ(got.enclosure_type, full.enclosure_type);
  EXPECT_EQ(got.enclosure_length, full.enclosure_length);
  EXPECT_EQ(got.duration_seconds, full.duration_seconds);
  EXPECT_EQ(got.link, full.link);
  EXPECT_EQ(got.description, full.description);
  EXPECT_EQ(got.season, full.season);
  EXPECT_EQ(got.episode, full.episode);
  EXPECT_EQ(got.explicit_content, full.explicit_content);
  EXPECT_EQ(got.image, full.image);
  ASSERT_EQ(got.transcripts.size(), 2u);
  EXPECT_EQ(got.transcripts[1].url, "https://a.example/t.srt");
  EXPECT_EQ(got.transcripts[0].type, "text/vtt");
  EXPECT_EQ(got.chapters_url, full.chapters_url);

  const feed::Episode& bare = stored.episodes[1].episode;
  EXPECT_EQ(bare.title, "Sparse");
  EXPECT_FALSE(bare.published.has_value());
  EXPECT_FALSE(bare.enclosure_length.has_value());
  EXPECT_FALSE(bare.duration_seconds.has_value());
  EXPECT_FALSE(bare.season.has_value());
  EXPECT_FALSE(bare.episode.has_value());
  EXPECT_FALSE(bare.explicit_content.has_value());
  EXPECT_TRUE(bare.transcripts.empty());
}

// Text that would change a statement built by pasting it in: quotes, comments, dollar quoting,
// escapes, casts and statement separators. Every text field stores it and gives it back exactly.
TEST_F(SaveTest, SqlInjectionStringsInEveryTextFieldRoundTripExactly) {
  const std::vector<std::string> injections = {
      "'; DROP TABLE episodes; --",
      "Robert'); DELETE FROM shows WHERE ('1'='1",
      "1' OR '1'='1' /* comment */ --",
      "\" OR \"\"=\"",
      "$$; TRUNCATE feeds; $$ $tag$ $1 $2::text",
      R"(E'\x27' \' \\ '' '''')",
      R"('::jsonb || '{"locked": true}' -- )",
      "%' UNION SELECT usename, passwd FROM pg_shadow --",
      "'); COPY shows TO PROGRAM 'touch /tmp/pwned'; --",
      R"({"$gt": ""} ]] }} ; \N \. |)",
  };
  int n = 0;
  for (const auto& text : injections) {
    const std::string url = "https://inject.example/" + std::to_string(++n);
    const auto id = listed_feed(url);
    const auto t = [&](const char* field) { return text + " " + field; };
    feed::Show s;
    s.title = t("title");
    s.link = t("link");
    s.description = t("description");
    s.language = t("language");
    s.effective_language = t("language");
    s.detected_language = t("detected language");
    s.image = t("image");
    s.author = t("author");
    s.categories = {t("category"), text};
    s.podcast_guid = t("guid");
    s.new_feed_url = t("new-feed-url");
    s.itunes.owner_name = t("owner");
    s.itunes.owner_email = t("email");
    s.itunes.type = t("type");
    s.itunes.keywords = {t("keyword"), text};
    s.podcast.locked_owner = t("locked-owner");
    s.podcast.funding = {{t("funding-url"), t("funding")}};
    s.podcast.persons = {{t("name"), t("role"), t("group"), t("person-image"), t("href")}};
    s.podcast.location = feed::Location{t("place"), t("geo"), t("osm")};
    s.podcast.license = feed::License{t("license"), t("license-url")};
    s.podcast.medium = t("medium");
    feed::Episode e;
    e.guid = t("episode-guid");
    e.title = t("episode-title");
    e.enclosure_url = t("enclosure");
    e.enclosure_type = t("enclosure-type");
    e.link = t("episode-link");
    e.description = t("episode-description");
    e.image = t("episode-image");
    e.transcripts = {{t("transcript"), t("transcript-type")}};
    e.chapters_url = t("chapters");
    e.itunes.episode_type = t("episode-type");
    e.itunes.keywords = {t("episode-keyword")};
    e.podcast.chapters_type = t("chapters-type");
    e.podcast.persons = {{t("guest"), t("guest-role"), "", "", ""}};
    s.episodes = {e};
    const FetchMeta meta{200, t("etag"), t("last-modified"), t("hash")};
    outcomes().record_success(id, meta, s, k_now, k_next);

    const auto stored = pages().load_show(url).value();
    EXPECT_EQ(stored.show.title, s.title);
    EXPECT_EQ(stored.show.link, s.link);
    EXPECT_EQ(stored.show.description, s.description);
    EXPECT_EQ(stored.show.language, s.language);
    EXPECT_EQ(stored.show.image, s.image);
    EXPECT_EQ(stored.show.author, s.author);
    EXPECT_EQ(stored.show.categories, s.categories);
    EXPECT_EQ(stored.show.podcast_guid, s.podcast_guid);
    EXPECT_EQ(stored.show.new_feed_url, s.new_feed_url);
    EXPECT_EQ(stored.show.itunes, s.itunes);
    EXPECT_EQ(stored.show.podcast, s.podcast);
    ASSERT_EQ(stored.episodes.size(), 1u) << text;
    const feed::Episode& got = stored.episodes[0].episode;
    EXPECT_EQ(got.guid, e.guid);
    EXPECT_EQ(got.title, e.title);
    EXPECT_EQ(got.enclosure_url, e.enclosure_url);
    EXPECT_EQ(got.enclosure_type, e.enclosure_type);
    EXPECT_EQ(got.link, e.link);
    EXPECT_EQ(got.description, e.description);
    EXPECT_EQ(got.image, e.image);
    ASSERT_EQ(got.transcripts.size(), 1u);
    EXPECT_EQ(got.transcripts[0].url, e.transcripts[0].url);
    EXPECT_EQ(got.transcripts[0].type, e.transcripts[0].type);
    EXPECT_EQ(got.chapters_url, e.chapters_url);
    EXPECT_EQ(got.itunes, e.itunes);
    EXPECT_EQ(got.podcast, e.podcast);
    const auto feed = crawl_list().find_feed(url).value();
    EXPECT_EQ(feed.etag, meta.etag);
    EXPECT_EQ(feed.last_modified, meta.last_modified);

    // Stored again unchanged: recognized as the same episode, nothing added.
    EXPECT_EQ(outcomes().record_success(id, meta, s, k_now + 60, k_next).new_episodes, 0) << text;

    // And as a failure's error text.
    outcomes().record_failure(id, {.http_status = 500, .error = t("error"), .weight = 1},
                              k_now + 120, k_next);
    EXPECT_EQ(crawl_list().find_feed(url)->last_error, t("error"));
  }
  // Nothing else was touched: a show and an episode per feed.
  const auto stats = history().stats();
  EXPECT_EQ(stats.shows, static_cast<std::int64_t>(injections.size()));
  EXPECT_EQ(stats.episodes, static_cast<std::int64_t>(injections.size()));
}

TEST_F(SaveTest, ChangedEpisodeFieldsReplaceTheStoredOnes) {
  const auto id = listed_feed("https://a.example/feed");
  feed::Show s = three_episode_show("Daily Tech");
  outcomes().record_success(id, k_meta, s, k_now, k_next);
  s.episodes[1].title = "Second, corrected";
  s.episodes[1].duration_seconds = 99;
  s.categories = {"Comedy"};
  EXPECT_EQ(outcomes().record_success(id, k_meta, s, k_now + 10, k_next).new_episodes, 0);
  const auto stored = pages().load_show("https://a.example/feed").value();
  EXPECT_EQ(stored.episodes.at(1).episode.title, "Second, corrected");
  EXPECT_EQ(stored.episodes.at(1).episode.duration_seconds, 99);
  EXPECT_EQ(stored.show.categories, std::vector<std::string>{"Comedy"});
}

TEST_F(SaveTest, RemovedAndGoneFeedsLeaveTheirShowInactive) {
  const auto a = listed_feed("https://a.example/feed");
  const auto b = listed_feed("https://b.example/feed");
  outcomes().record_success(a, k_meta, show("Alpha"), k_now, k_next);
  outcomes().record_success(b, k_meta, show("Beta"), k_now, k_next);
  crawl_list().remove_feed("https://a.example/feed");
  outcomes().record_failure(b, {.http_status = 410, .error = "HTTP 410", .gone = true}, k_now + 10,
                            k_next);
  EXPECT_FALSE(pages().load_show("https://a.example/feed")->active);
  EXPECT_FALSE(pages().load_show("https://b.example/feed")->active);

  // Re-added and fetched again, the show is back under its old slug.
  const auto slug = pages().load_show("https://a.example/feed")->slug;
  crawl_list().add_feed("https://a.example/feed", k_now + 20);
  EXPECT_EQ(outcomes().record_success(a, k_meta, show("Alpha"), k_now + 30, k_next).show_slug,
            slug);
  EXPECT_TRUE(pages().load_show("https://a.example/feed")->active);
}

TEST_F(SaveTest, AFeedRemovedDuringItsFetchStaysRemoved) {
  const auto id = listed_feed("https://a.example/feed");
  ASSERT_EQ(crawl_list().claim_due_feeds(1, false, k_now, 600).size(), 1u);
  crawl_list().remove_feed("https://a.example/feed");
  outcomes().record_success(id, k_meta, show("Alpha"), k_now, k_next);
  EXPECT_EQ(crawl_list().find_feed("https://a.example/feed")->status, FeedStatus::removed);
  EXPECT_FALSE(pages().load_show("https://a.example/feed")->active);
}

TEST_F(SaveTest, HostileEpisodeTextIsStoredAndRecognizedAgain) {
  const auto id = listed_feed("https://a.example/feed");
  feed::Show s = show(bytes("Bad\0Bytes \xff\xfe"));
  feed::Episode long_guid = episode(std::string(5000, 'g'), "Long guid", k_now);
  feed::Episode long_guid_twin = episode(std::string(5000, 'g') + "h", "Long guid twin", k_now);
  feed::Episode bad_text = episode("bad", bytes("Title\0with nul \xc3"), k_now);
  feed::Episode far_future = episode("future", "Far future", 99'999'999'999'999);
  s.episodes = {long_guid, long_guid_twin, bad_text, far_future};
  EXPECT_EQ(outcomes().record_success(id, k_meta, s, k_now, k_next).new_episodes, 4);
  EXPECT_EQ(outcomes().record_success(id, k_meta, s, k_now + 10, k_next).new_episodes, 0);
  const auto stored = pages().load_show("https://a.example/feed").value();
  ASSERT_EQ(stored.episodes.size(), 4u);
  for (const auto& e : episodes_of(stored)) {
    EXPECT_EQ(e.title.find('\0'), std::string::npos);
  }
  EXPECT_EQ(history().stats().removed_episodes, 0);
}

TEST_F(SaveTest, TextThatJsonEscapesRoundTripsExactly) {
  const std::vector<std::string> texts = {
      "quote \" and backslash \\ and \\u0041",
      "tab\tnew line\ncarriage return\r",
      bytes("controls \x01\x1f\x7f"),
      "\xe2\x80\xa8 line separator, \xf0\x9f\x8e\x99 microphone, العربية",
  };
  const auto id = listed_feed("https://a.example/feed");
  feed::Show s = show("Escapes");
  for (std::size_t i = 0; i < texts.size(); ++i) {
    feed::Episode e = episode("escape-" + std::to_string(i), texts[i], k_now - static_cast<int>(i));
    e.description = "<p>" + texts[i] + "</p>";
    e.link = "https://a.example/" + texts[i];
    s.episodes.push_back(e);
  }
  ASSERT_EQ(outcomes().record_success(id, k_meta, s, k_now, k_next).new_episodes, 4);
  const auto stored = pages().load_show("https://a.example/feed").value();
  ASSERT_EQ(stored.episodes.size(), texts.size());
  for (std::size_t i = 0; i < texts.size(); ++i) {
    EXPECT_EQ(stored.episodes[i].episode.title, texts[i]) << i;
    EXPECT_EQ(stored.episodes[i].episode.description, "<p>" + texts[i] + "</p>") << i;
    EXPECT_EQ(stored.episodes[i].episode.link, "https://a.example/" + texts[i]) << i;
  }
  EXPECT_EQ(outcomes().record_success(id, k_meta, s, k_now + 10, k_next).new_episodes, 0);
  EXPECT_EQ(history().stats().removed_episodes, 0);
}

TEST_F(SaveTest, DuplicateKeysInOneDocumentAreStoredOnce) {
  const auto id = listed_feed("https://a.example/feed");
  feed::Show s = show("Dupes");
  s.episodes = {episode("same", "One", k_now), episode("same", "Two", k_now - 10)};
  EXPECT_EQ(outcomes().record_success(id, k_meta, s, k_now, k_next).new_episodes, 1);
  EXPECT_EQ(pages().load_show("https://a.example/feed")->episodes.at(0).episode.title, "One");
}

} // namespace
} // namespace podcrawl::store

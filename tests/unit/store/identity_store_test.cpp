#include <gtest/gtest.h>

#include <pqxx/pqxx>

#include <set>
#include <string>
#include <vector>

#include "podcrawl/core/hash.hpp"
#include "podcrawl/store/crawl_history.hpp"
#include "podcrawl/store/crawl_list.hpp"
#include "podcrawl/store/directory_pages.hpp"
#include "podcrawl/store/fetch_outcomes.hpp"
#include "podcrawl/store/identity.hpp"
#include "store_fixture.hpp"

namespace podcrawl::store {
namespace {

constexpr std::int64_t k_now = 1'750'000'000;
constexpr std::int64_t k_next = k_now + 3600;
constexpr std::int64_t k_day = 86'400;
const std::string k_feed = "https://a.example/feed";

FetchMeta meta(const std::string& body) {
  FetchMeta m;
  m.etag = "\"e\"";
  m.content_hash = core::content_hash(body);
  return m;
}

feed::Episode no_guid(const std::string& title, const std::string& enclosure,
                      std::int64_t published) {
  feed::Episode e = episode("", title, published);
  e.enclosure_url = enclosure;
  return e;
}

// Ten weekly episodes as the old host published them.
feed::Show old_host_show() {
  feed::Show s = show("Migrating Show");
  s.itunes.type = "episodic";
  s.podcast.locked = false;
  s.podcast.funding = {{"https://oldhost.example/support", "Support"}};
  for (int n = 10; n >= 1; --n) {
    feed::Episode e = episode("old-host-guid-" + std::to_string(n), "Episode " + std::to_string(n),
                              k_now - (10 - n) * 7 * k_day);
    e.enclosure_url =
        "https://media.oldhost.example/shows/1234/episode-" + std::to_string(n) + ".mp3";
    e.duration_seconds = 1800 + n;
    e.itunes.episode_type = "full";
    e.podcast.persons = {{"Guest " + std::to_string(n), "guest", "", "", ""}};
    s.episodes.push_back(e);
  }
  return s;
}

class IdentityStoreTest : public StoreTest {
protected:
  // Every row of the show tables with its version (xmin) and place (ctid): equal before and
  // after an operation exactly when the operation wrote none of those rows.
  std::multiset<std::string> row_versions() {
    pqxx::connection connection(url());
    pqxx::read_transaction txn(connection);
    std::multiset<std::string> versions;
    for (const char* table : {"shows", "episodes", "show_categories", "categories"}) {
      for (const auto& row : txn.exec(std::string("SELECT xmin::text, ctid::text FROM ") + table)) {
        versions.insert(std::string(table) + " " + row[0].c_str() + " " + row[1].c_str());
      }
    }
    return versions;
  }

  std::int64_t count(const std::string& query) {
    pqxx::connection connection(url());
    pqxx::read_transaction txn(connection);
    return txn.exec1(query)[0].as<std::int64_t>();
  }
};

TEST_F(IdentityStoreTest, StoringTheSameParseAgainWritesNoShowEpisodeOrCategoryRow) {
  const auto id = listed_feed(k_feed);
  feed::Show s = old_host_show();
  s.categories = {"Technology", "News", "Science"};
  outcomes().record_success(id, meta("v1"), s, k_now, k_next);
  const auto before = row_versions();
  ASSERT_GT(before.size(), 10u);

  EXPECT_EQ(outcomes().record_success(id, meta("v1"), s, k_now + 3600, k_next + 3600).new_episodes,
            0);
  EXPECT_EQ(row_versions(), before);

  // The comparison can fail: a changed title writes exactly the rows it changes.
  s.episodes[3].title = "Episode 7, corrected";
  outcomes().record_success(id, meta("v2"), s, k_now + 7200, k_next + 7200);
  EXPECT_NE(row_versions(), before);
}

TEST_F(IdentityStoreTest, AnUnchangedBodyMovesOnlyTheScheduleAndIsRecordedAsUnchanged) {
  const auto id = listed_feed(k_feed);
  outcomes().record_success(id, meta("body"), old_host_show(), k_now, k_next);
  EXPECT_EQ(crawl_list().find_feed(k_feed)->content_hash, core::content_hash("body"));
  const auto before = row_versions();

  FetchMeta again = meta("body");
  again.etag = "\"e2\"";
  outcomes().record_unchanged(id, again, k_now + 100, k_next + 100);
  EXPECT_EQ(row_versions(), before);
  const auto feed = crawl_list().find_feed(k_feed).value();
  EXPECT_EQ(feed.etag, "\"e2\"");
  EXPECT_EQ(feed.last_fetch_at, k_now + 100);
  EXPECT_EQ(feed.next_fetch_at, k_next + 100);
  EXPECT_EQ(feed.content_hash, core::content_hash("body"));
  EXPECT_EQ(count("SELECT count(*) FROM fetches WHERE outcome = 'unchanged'"), 1);
  const auto claimed = crawl_list().claim_due_feeds(1, true, k_now + 200, 60);
  ASSERT_EQ(claimed.size(), 1u);
  EXPECT_EQ(claimed[0].content_hash, core::content_hash("body"));
}

TEST_F(IdentityStoreTest, ReAddingARemovedFeedForgetsItsContentHash) {
  const auto id = listed_feed(k_feed);
  outcomes().record_success(id, meta("body"), old_host_show(), k_now, k_next);
  crawl_list().remove_feed(k_feed);
  crawl_list().add_feed(k_feed, k_now + 10);
  EXPECT_EQ(crawl_list().find_feed(k_feed)->content_hash, "");
}

TEST_F(IdentityStoreTest, DuplicateItemsInOneDocumentAreStoredOnce) {
  const auto id = listed_feed(k_feed);
  feed::Show s = show("Dupes");
  s.episodes = {
      episode("same-guid", "First copy", k_now),
      episode("same-guid", "Second copy", k_now),
      no_guid("No guid", "https://cdn.example/n.mp3?updated=1", k_now - k_day),
      no_guid("No guid again", "https://pdst.fm/e/cdn.example/n.mp3?updated=2", k_now - k_day),
  };
  EXPECT_EQ(outcomes().record_success(id, meta("d"), s, k_now, k_next).new_episodes, 2);
  const auto stored = pages().load_show(k_feed).value();
  ASSERT_EQ(stored.episodes.size(), 2u);
  EXPECT_EQ(stored.episodes[0].episode.title, "First copy");
  EXPECT_EQ(stored.episodes[1].episode.title, "No guid");
}

TEST_F(IdentityStoreTest, EpisodesWithoutGuidsKeepTheirRowsAcrossEnclosureChurn) {
  const auto id = listed_feed(k_feed);
  feed::Show s = show("No Guids");
  s.episodes = {no_guid("Two", "https://cdn.example/ep2.mp3?updated=100", k_now),
                no_guid("One", "https://cdn.example/ep1.mp3?updated=100", k_now - 7 * k_day)};
  EXPECT_EQ(outcomes().record_success(id, meta("1"), s, k_now, k_next).new_episodes, 2);
  const auto slugs = slugs_of(pages().load_show(k_feed).value());

  struct Churn {
    const char* what;
    std::string two;
    std::string one;
  };
  const Churn churns[] = {
      {"?updated= changes", "https://cdn.example/ep2.mp3?updated=200",
       "https://cdn.example/ep1.mp3?updated=201&utm_source=rss"},
      {"tracking prefixes added", "https://dts.podtrac.com/redirect.mp3/cdn.example/ep2.mp3",
       "https://chrt.fm/track/A1/pdst.fm/e/http://cdn.example/ep1.mp3"},
      {"prefixes changed", "https://op3.dev/e/cdn.example/ep2.mp3",
       "https://media.blubrry.com/noguids/cdn.example/ep1.mp3?updated=5"},
  };
  int fetch = 2;
  for (const auto& churn : churns) {
    s.episodes[0].enclosure_url = churn.two;
    s.episodes[1].enclosure_url = churn.one;
    EXPECT_EQ(outcomes()
                  .record_success(id, meta(std::to_string(fetch)), s, k_now + fetch, k_next)
                  .new_episodes,
              0)
        << churn.what;
    const auto stored = pages().load_show(k_feed).value();
    EXPECT_EQ(slugs_of(stored), slugs) << churn.what;
    EXPECT_EQ(stored.episodes.at(0).episode.enclosure_url, churn.two) << churn.what;
    ++fetch;
  }
  const auto stats = history().stats();
  EXPECT_EQ(stats.episodes, 2);
  EXPECT_EQ(stats.removed_episodes, 0);
}

TEST_F(IdentityStoreTest, ARetitledEpisodeIsUpdatedNotAdded) {
  const auto id = listed_feed(k_feed);
  feed::Show s = old_host_show();
  outcomes().record_success(id, meta("1"), s, k_now, k_next);
  const auto slug = slugs_of(pages().load_show(k_feed).value()).at(0);

  s.episodes[0].title = "Episode 10: the real title";
  EXPECT_EQ(outcomes().record_success(id, meta("2"), s, k_now + 10, k_next).new_episodes, 0);
  const auto stored = pages().load_show(k_feed).value();
  EXPECT_EQ(stored.episodes.size(), 10u);
  EXPECT_EQ(stored.episodes.at(0).episode.title, "Episode 10: the real title");
  EXPECT_EQ(slugs_of(stored).at(0), slug);
  EXPECT_EQ(history().stats().removed_episodes, 0);
}

TEST_F(IdentityStoreTest, AHostMigrationThatRewritesEveryGuidAndHostDoesNotDoubleTheShow) {
  const auto id = listed_feed(k_feed);
  outcomes().record_success(id, meta("old"), old_host_show(), k_now, k_next);
  const auto slugs = slugs_of(pages().load_show(k_feed).value());

  struct Migration {
    const char* what;
    bool keep_durations;
    bool keep_file_names;
  };
  // Titles and dates survive every move; durations or file names may not.
  const Migration migrations[] = {
      {"durations and file names kept", true, true},
      {"durations lost", false, true},
      {"file names changed", true, false},
  };
  int fetch = 0;
  for (const auto& migration : migrations) {
    feed::Show moved = old_host_show();
    for (auto& e : moved.episodes) {
      const std::string n = e.title.substr(e.title.find(' ') + 1);
      e.guid = "https://newhost.example/episodes/" + std::to_string(fetch) + "-" + n;
      e.enclosure_url = "https://dts.podtrac.com/redirect.mp3/cdn" + std::to_string(fetch) +
                        ".newhost.example/podcasts/abc/" +
                        (migration.keep_file_names ? "episode-" + n + ".mp3"
                                                   : "x" + std::to_string(fetch) + n + ".mp3");
      e.published = *e.published + 3 * 3600; // another time, the same UTC day
      if (!migration.keep_durations) {
        e.duration_seconds.reset();
      }
    }
    ++fetch;
    EXPECT_EQ(
        outcomes()
            .record_success(id, meta("new" + std::to_string(fetch)), moved, k_now + fetch, k_next)
            .new_episodes,
        0)
        << migration.what;
    const auto stats = history().stats();
    EXPECT_EQ(stats.episodes, 10) << migration.what;
    EXPECT_EQ(stats.removed_episodes, 0) << migration.what;
    const auto stored = pages().load_show(k_feed).value();
    EXPECT_EQ(slugs_of(stored), slugs) << migration.what;
    EXPECT_EQ(stored.episodes.at(0).episode.guid, moved.episodes.at(0).guid) << migration.what;
  }
}

TEST_F(IdentityStoreTest, TwoEpisodesWithTheSameTitleOnOneDayStayTwo) {
  const auto id = listed_feed(k_feed);
  feed::Show s = show("Daily");
  s.episodes = {episode("morning", "News", k_now), episode("evening", "News", k_now + 3600)};
  s.episodes[0].duration_seconds = 600;
  s.episodes[1].duration_seconds = 600;
  EXPECT_EQ(outcomes().record_success(id, meta("1"), s, k_now, k_next).new_episodes, 2);
  EXPECT_EQ(outcomes().record_success(id, meta("2"), s, k_now + 10, k_next).new_episodes, 0);
  EXPECT_EQ(history().stats().episodes, 2);
}

TEST_F(IdentityStoreTest, TheSameShowAtASecondUrlIsOneShow) {
  const std::string second = "https://mirror.example/feed.xml";
  const auto a = listed_feed(k_feed);
  const auto b = listed_feed(second);
  feed::Show s = old_host_show();
  s.podcast_guid = "c9c7bad3-4712-514e-9ebd-d1e208fa1b76";
  const auto first = outcomes().record_success(a, meta("a"), s, k_now, k_next);
  s.episodes[0].guid = "rewritten-at-the-mirror";
  const auto again = outcomes().record_success(b, meta("b"), s, k_now + 10, k_next);
  EXPECT_EQ(again.show_slug, first.show_slug);
  EXPECT_EQ(again.new_episodes, 0);
  const auto stats = history().stats();
  EXPECT_EQ(stats.shows, 1);
  EXPECT_EQ(stats.episodes, 10);
  EXPECT_EQ(crawl_list().find_feed(second)->show_slug, first.show_slug);
  EXPECT_EQ(pages().load_show(second)->slug, first.show_slug);
  EXPECT_EQ(pages().load_show(k_feed)->slug, first.show_slug);

  // The feed that described it last is taken off the list: the other one carries the show.
  crawl_list().remove_feed(second);
  const auto stored = pages().load_show(first.show_slug).value();
  EXPECT_TRUE(stored.active);
  EXPECT_EQ(stored.feed_url, k_feed);
  crawl_list().remove_feed(k_feed);
  EXPECT_FALSE(pages().load_show(first.show_slug)->active);
}

TEST_F(IdentityStoreTest, AFeedWithoutAGuidIsKnownByTheUuidOfItsUrl) {
  const std::string moved = "https://new.example/feed";
  const auto a = listed_feed(k_feed);
  const auto b = listed_feed(moved);
  feed::Show s = old_host_show();
  const auto first = outcomes().record_success(a, meta("a"), s, k_now, k_next);
  // The show at its new home publishes the guid derived from its first URL.
  s.podcast_guid = show_identity("", k_feed);
  EXPECT_EQ(outcomes().record_success(b, meta("b"), s, k_now + 10, k_next).show_slug,
            first.show_slug);
  EXPECT_EQ(history().stats().shows, 1);
  // The derived guid is identity only: the stored show still says what its feed published.
  EXPECT_EQ(pages().load_show(k_feed)->show.podcast_guid, s.podcast_guid);
}

TEST_F(IdentityStoreTest, DifferentPodcastsWithTheSameTitleStayApart) {
  const auto a = listed_feed(k_feed);
  const auto b = listed_feed("https://b.example/feed");
  const auto first = outcomes().record_success(a, meta("a"), old_host_show(), k_now, k_next);
  const auto second = outcomes().record_success(b, meta("b"), old_host_show(), k_now, k_next);
  EXPECT_NE(first.show_slug, second.show_slug);
  EXPECT_EQ(history().stats().shows, 2);
}

} // namespace
} // namespace podcrawl::store

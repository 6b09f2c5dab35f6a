#include "podcrawl/store/identity.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace podcrawl::store {
namespace {

struct UrlCase {
  const char* url;
  const char* identity;
};

TEST(IdentityUrl, StripsTrackingPrefixesSchemesAndVolatileParameters) {
  const UrlCase cases[] = {
      {"https://cdn.example.org/a/ep1.mp3", "cdn.example.org/a/ep1.mp3"},
      {"HTTP://CDN.Example.ORG:443/A/Ep1.mp3#t=10", "cdn.example.org/A/Ep1.mp3"},
      {"https://dts.podtrac.com/redirect.mp3/cdn.example.org/a/ep1.mp3",
       "cdn.example.org/a/ep1.mp3"},
      {"https://dts.podtrac.com/redirect.m4a/https://cdn.example.org/ep1.m4a",
       "cdn.example.org/ep1.m4a"},
      {"https://www.podtrac.com/pts/redirect.mp3/cdn.example.org/ep1.mp3",
       "cdn.example.org/ep1.mp3"},
      {"https://chrt.fm/track/ABC123/cdn.example.org/ep1.mp3", "cdn.example.org/ep1.mp3"},
      {"https://pdst.fm/e/chrt.fm/track/X9/dts.podtrac.com/redirect.mp3/cdn.example.org/ep1.mp3",
       "cdn.example.org/ep1.mp3"},
      {"https://pscrb.fm/rss/p/cdn.example.org/ep1.mp3", "cdn.example.org/ep1.mp3"},
      {"https://verifi.podscribe.com/rss/p/cdn.example.org/ep1.mp3", "cdn.example.org/ep1.mp3"},
      {"https://media.blubrry.com/myshow/cdn.example.org/ep1.mp3", "cdn.example.org/ep1.mp3"},
      {"https://clrtpod.com/m/abc/cdn.example.org/ep1.mp3", "cdn.example.org/ep1.mp3"},
      {"https://pfx.vpixl.com/XyZ/cdn.example.org/ep1.mp3", "cdn.example.org/ep1.mp3"},
      {"https://op3.dev/e/cdn.example.org/ep1.mp3", "cdn.example.org/ep1.mp3"},
      {"https://op3.dev/e,pg=9b024349-ccf0-5f69-a609-6b82873eab3c/cdn.example.org/ep1.mp3",
       "cdn.example.org/ep1.mp3"},
      {"https://arttrk.com/p/ABCDE/cdn.example.org/ep1.mp3", "cdn.example.org/ep1.mp3"},
      {"https://mgln.ai/e/12/cdn.example.org/ep1.mp3", "cdn.example.org/ep1.mp3"},
      {"https://cdn.example.org/ep1.mp3?updated=1700000000", "cdn.example.org/ep1.mp3"},
      {"https://cdn.example.org/ep1.mp3?source=feed&utm_medium=rss", "cdn.example.org/ep1.mp3"},
      {"https://cdn.example.org/ep1.mp3?updated=1&id=7&UTM_SOURCE=x",
       "cdn.example.org/ep1.mp3?id=7"},
      {"  https://cdn.example.org/ep1.mp3  ", "cdn.example.org/ep1.mp3"},
      {"", ""},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(identity_url(c.url), c.identity) << c.url;
  }
}

TEST(IdentityUrl, KeepsWhatOnlyLooksLikeATrackingPrefix) {
  const UrlCase cases[] = {
      // A file hosted by blubrry itself: no URL follows the show segment.
      {"https://media.blubrry.com/myshow/ep1.mp3", "media.blubrry.com/myshow/ep1.mp3"},
      {"https://dts.podtrac.com/other/cdn.example.org/ep1.mp3",
       "dts.podtrac.com/other/cdn.example.org/ep1.mp3"},
      {"https://cdn.example.org/pdst.fm/e/ep1.mp3", "cdn.example.org/pdst.fm/e/ep1.mp3"},
      {"https://chrt.fm/track/ABC123", "chrt.fm/track/ABC123"},
      {"https://cdn.example.org/ep1.mp3?updatedAt=5&version=2",
       "cdn.example.org/ep1.mp3?updatedAt=5&version=2"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(identity_url(c.url), c.identity) << c.url;
  }
}

TEST(IdentityFileName, IsTheLastPathSegment) {
  EXPECT_EQ(identity_file_name("cdn.example.org/a/ep1.mp3?id=7"), "ep1.mp3");
  EXPECT_EQ(identity_file_name("cdn.example.org"), "");
  EXPECT_EQ(identity_file_name("cdn.example.org/"), "");
}

TEST(ShowIdentity, IsThePublishedGuidElseTheUuidV5OfTheFeedUrl) {
  EXPECT_EQ(show_identity(" 917393E3-1B1E-5CEF-ACE4-EDAA54E1F810 ", "https://a.example/feed"),
            "917393e3-1b1e-5cef-ace4-edaa54e1f810");
  // The Podcasting 2.0 namespace's example: scheme and trailing slashes are not part of the name.
  for (const char* url :
       {"https://mp3s.nashownotes.com/pc20rss.xml", "http://mp3s.nashownotes.com/pc20rss.xml/",
        "mp3s.nashownotes.com/pc20rss.xml"}) {
    EXPECT_EQ(show_identity("", url), "917393e3-1b1e-5cef-ace4-edaa54e1f810") << url;
  }
}

EpisodeIdentity item(std::string guid, std::string enclosure, std::string title,
                     std::optional<std::int64_t> published,
                     std::optional<std::int64_t> duration = std::nullopt, std::string link = "") {
  return {std::move(guid), std::move(enclosure), std::move(link), std::move(title), published,
          duration};
}

constexpr std::int64_t k_day = 1'750'032'000; // 2025-06-16T00:00:00Z

TEST(MatchEpisodes, LaterDuplicatesInADocumentAreLeftOut) {
  const std::vector<EpisodeIdentity> incoming = {
      item("g1", "https://cdn.example/1.mp3", "One", k_day),
      item("g1", "https://cdn.example/1b.mp3", "One again", k_day),
      item("", "https://cdn.example/2.mp3?updated=1", "Two", k_day),
      item("", "https://chrt.fm/track/X/cdn.example/2.mp3?updated=2", "Two again", k_day),
      item("g3", "https://cdn.example/3.mp3", "Three", k_day),
  };
  const auto matches = match_episodes({}, incoming, "");
  EXPECT_EQ(matches.kept, (std::vector<std::size_t>{0, 2, 4}));
  EXPECT_EQ(matches.stored, (std::vector<std::optional<std::size_t>>(3)));
}

TEST(MatchEpisodes, TitleDayAndDurationMatchWithinTheTolerance) {
  const std::vector<EpisodeIdentity> stored = {
      item("old-1", "https://old.example/a.mp3", "Episode 1", k_day + 100, 600),
      item("old-2", "https://old.example/b.mp3", "Episode 2", k_day + 100, 600),
  };
  const std::vector<EpisodeIdentity> incoming = {
      item("new-1", "https://new.example/x.mp3", "episode  1", k_day + 7000, 604),
      item("new-2", "https://new.example/y.mp3", "Episode 2", k_day + 7000, 606),
  };
  const auto matches = match_episodes(stored, incoming, "");
  EXPECT_EQ(matches.stored[0], std::optional<std::size_t>(0));
  EXPECT_EQ(matches.stored[1], std::nullopt);
}

TEST(MatchEpisodes, AKeySharedBySeveralEpisodesIdentifiesNone) {
  // Every item links to the show's page or to one shared page: links identify nothing here.
  const std::vector<EpisodeIdentity> stored = {
      item("", "", "Old", k_day - 86400 * 3, std::nullopt, "https://show.example/"),
      item("", "", "Older", k_day - 86400 * 4, std::nullopt, "https://show.example/shared"),
      item("", "", "Oldest", k_day - 86400 * 5, std::nullopt, "https://show.example/shared"),
  };
  const std::vector<EpisodeIdentity> incoming = {
      item("", "", "New", k_day, std::nullopt, "https://show.example"),
      item("", "", "Newer", k_day, std::nullopt, "https://show.example/shared"),
  };
  const auto matches = match_episodes(stored, incoming, "https://show.example/");
  EXPECT_EQ(matches.stored, (std::vector<std::optional<std::size_t>>(2)));
}

TEST(MatchEpisodes, AGuidClaimedInTheDocumentIsNotTakenByAWeakerRule) {
  // Two different episodes with the same title on the same day: each keeps its own row.
  const std::vector<EpisodeIdentity> stored = {
      item("a", "https://cdn.example/a.mp3", "Daily", k_day, 300),
  };
  const std::vector<EpisodeIdentity> incoming = {
      item("b", "https://cdn.example/b.mp3", "Daily", k_day, 300),
      item("a", "https://cdn.example/a.mp3", "Daily", k_day, 300),
  };
  const auto matches = match_episodes(stored, incoming, "");
  EXPECT_EQ(matches.stored[0], std::nullopt);
  EXPECT_EQ(matches.stored[1], std::optional<std::size_t>(0));
}

} // namespace
} // namespace podcrawl::store

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "podcrawl/feed/parser.hpp"

namespace podcrawl::feed {
namespace {

Show parse_show(std::string_view channel, std::string_view item = "") {
  std::string document = R"xml(<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
     xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Show</title>)xml";
  document += channel;
  document += "<item><guid>one</guid>";
  document += item;
  document += "</item></channel></rss>";
  ParseResult result = parse_feed(document, ParseOptions{"https://feeds.example.com/show.xml", ""});
  EXPECT_EQ(result.outcome, ParseOutcome::ok) << result.error;
  EXPECT_EQ(result.show.episodes.size(), 1u);
  return result.show;
}

TEST(ParseNamespaces, ReadsEveryItunesShowElement) {
  Show show = parse_show(R"xml(
    <itunes:owner><itunes:name> Jane  Host </itunes:name><itunes:email>jane@example.com</itunes:email></itunes:owner>
    <itunes:type>Serial</itunes:type>
    <itunes:block>Yes</itunes:block>
    <itunes:complete>no</itunes:complete>
    <itunes:keywords>tech, news ,, tech,science</itunes:keywords>)xml");
  ItunesShow expected{"Jane Host", "jane@example.com",         "serial", true,
                      false,       {"tech", "news", "science"}};
  EXPECT_EQ(show.itunes, expected);
  EXPECT_EQ(show.author, "Jane Host"); // the owner still names the author when nothing else does
}

TEST(ParseNamespaces, ReadsEveryItunesEpisodeElement) {
  Show show = parse_show("", R"xml(<itunes:episodeType>Bonus</itunes:episodeType>
    <itunes:block>no</itunes:block><itunes:keywords>one,two</itunes:keywords>)xml");
  ItunesEpisode expected{"bonus", false, {"one", "two"}};
  EXPECT_EQ(show.episodes[0].itunes, expected);
}

TEST(ParseNamespaces, ReadsEveryPodcastingShowElement) {
  Show show = parse_show(R"xml(
    <podcast:locked owner="owner@example.com">yes</podcast:locked>
    <podcast:funding url="/support">Support   us</podcast:funding>
    <podcast:funding url="javascript:alert(1)">Bad</podcast:funding>
    <podcast:person role="Host" group="Cast" img="https://example.com/ada.jpg"
      href="https://example.com/ada">Ada Lovelace</podcast:person>
    <podcast:person>Charles Babbage</podcast:person>
    <podcast:location geo="geo:51.5,-0.12" osm="R65606">London</podcast:location>
    <podcast:license url="https://example.com/license">my-license</podcast:license>
    <podcast:medium>music</podcast:medium>
    <podcast:images srcset="https://example.com/a.jpg 1500w,
      /b.jpg 600w, https://example.com/c.jpg"/>
    <podcast:updateFrequency complete="false" dtstart="2023-04-01T12:00:00Z"
      rrule="FREQ=WEEKLY">Weekly</podcast:updateFrequency>
    <podcast:trailer pubdate="Thu, 01 Apr 2021 08:00:00 EST" url="https://example.com/t.mp3"
      length="12345" type="audio/mpeg" season="2">Season 2 Trailer</podcast:trailer>)xml");
  PodcastShow expected;
  expected.locked = true;
  expected.locked_owner = "owner@example.com";
  expected.funding = {{"https://feeds.example.com/support", "Support us"}};
  expected.persons = {
      {"Ada Lovelace", "host", "cast", "https://example.com/ada.jpg", "https://example.com/ada"},
      {"Charles Babbage", "", "", "", ""}};
  expected.location = Location{"London", "geo:51.5,-0.12", "R65606"};
  expected.license = License{"my-license", "https://example.com/license"};
  expected.medium = "music";
  expected.images = {{"https://example.com/a.jpg", 1500},
                     {"https://feeds.example.com/b.jpg", 600},
                     {"https://example.com/c.jpg", std::nullopt}};
  expected.update_frequency = UpdateFrequency{"Weekly", "FREQ=WEEKLY", false, 1680350400};
  expected.trailers = {
      {"https://example.com/t.mp3", "Season 2 Trailer", "audio/mpeg", 1617282000, 12345, 2}};
  EXPECT_EQ(show.podcast, expected);
  // With no other image named, the show's image is the widest of the srcset.
  EXPECT_EQ(show.image, "https://example.com/a.jpg");
}

TEST(ParseNamespaces, TakesTheWidestPodcastImageOnlyWhenNoOtherImageIsNamed) {
  const char* images =
      R"xml(<podcast:images srcset="https://example.com/s.jpg 600w, https://example.com/l.jpg 3000w"/>)xml";
  Show show = parse_show(std::string(images) + "<itunes:image href=\"https://example.com/i.jpg\"/>",
                         images);
  EXPECT_EQ(show.image, "https://example.com/i.jpg");
  EXPECT_EQ(show.episodes[0].image, "https://example.com/l.jpg");
  show = parse_show(
      "<podcast:images srcset=\"https://example.com/a.jpg, https://example.com/b.jpg\"/>");
  EXPECT_EQ(show.image, "https://example.com/a.jpg"); // no widths: the first
}

TEST(ParseNamespaces, ReadsEveryPodcastingEpisodeElement) {
  Show show = parse_show("", R"xml(
    <podcast:chapters url="https://example.com/c.json" type="application/JSON+chapters"/>
    <podcast:person role="guest">Grace Hopper</podcast:person>
    <podcast:soundbite startTime="73.5" duration="60">The best part</podcast:soundbite>
    <podcast:soundbite startTime="-1" duration="60">Negative start</podcast:soundbite>
    <podcast:soundbite startTime="10" duration="x">Bad duration</podcast:soundbite>
    <podcast:location>Austin, TX</podcast:location>
    <podcast:license>CC-BY-4.0</podcast:license>
    <podcast:alternateEnclosure type="audio/opus" length="1000" bitrate="64000" lang="en"
      title="Opus" codecs="opus" default="true">
      <podcast:source uri="https://example.com/e.opus"/>
      <podcast:source uri="ipfs://QmHash"/>
      <podcast:source uri="/mirror/e.opus"/>
    </podcast:alternateEnclosure>
    <podcast:alternateEnclosure type="video/mp4"><podcast:source uri="ftp://x/e.mp4"/>
    </podcast:alternateEnclosure>
    <podcast:images srcset="https://example.com/e.jpg 3000w"/>)xml");
  const Episode& episode = show.episodes[0];
  EXPECT_EQ(episode.chapters_url, "https://example.com/c.json");
  PodcastEpisode expected;
  expected.chapters_type = "application/json+chapters";
  expected.persons = {{"Grace Hopper", "guest", "", "", ""}};
  expected.soundbites = {{73.5, 60, "The best part"}};
  expected.location = Location{"Austin, TX", "", ""};
  expected.license = License{"CC-BY-4.0", ""};
  expected.alternate_enclosures = {
      {"audio/opus",
       1000,
       64000,
       std::nullopt,
       "en",
       "Opus",
       "",
       "opus",
       true,
       {"https://example.com/e.opus", "https://feeds.example.com/mirror/e.opus"}}};
  expected.images = {{"https://example.com/e.jpg", 3000}};
  EXPECT_EQ(episode.podcast, expected);
}

// Values outside each element's vocabulary are dropped, never guessed.
TEST(ParseNamespaces, IgnoresValuesOutsideTheVocabulary) {
  Show show = parse_show(R"xml(
    <itunes:type>weekly</itunes:type><itunes:block>maybe</itunes:block>
    <podcast:locked>perhaps</podcast:locked><podcast:medium>pod cast!</podcast:medium>
    <podcast:person href="https://example.com/nobody"> </podcast:person>
    <podcast:location geo="51.5,-0.12">Somewhere</podcast:location>
    <podcast:trailer>No URL</podcast:trailer>)xml",
                         "<itunes:episodeType>special</itunes:episodeType>");
  EXPECT_EQ(show.itunes, ItunesShow{});
  PodcastShow expected;
  expected.location = Location{"Somewhere", "", ""};
  EXPECT_EQ(show.podcast, expected);
  EXPECT_EQ(show.episodes[0].itunes, ItunesEpisode{});
}

TEST(ParseNamespaces, KeepsTheFirstOfASingleElementAndABoundedNumberOfRepeatedOnes) {
  std::string channel = "<itunes:type>serial</itunes:type><itunes:type>episodic</itunes:type>";
  for (int i = 0; i < 100; ++i) {
    channel += "<podcast:person>Person " + std::to_string(i) + "</podcast:person>";
  }
  Show show = parse_show(channel);
  EXPECT_EQ(show.itunes.type, "serial");
  ASSERT_EQ(show.podcast.persons.size(), 32u);
  EXPECT_EQ(show.podcast.persons.back().name, "Person 31");
}

} // namespace
} // namespace podcrawl::feed

#include "podcrawl/feed/json.hpp"

#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace podcrawl::feed {
namespace {

std::set<std::string> keys_of(const nlohmann::json& object) {
  std::set<std::string> keys;
  for (const auto& item : object.items()) {
    keys.insert(item.key());
  }
  return keys;
}

const std::set<std::string> k_show_keys = {
    "title",    "link",     "description", "language",     "image",
    "author",   "explicit", "categories",  "podcast_guid", "new_feed_url",
    "feed_url", "episodes", "itunes",      "podcast",      "detected_language"};
const std::set<std::string> k_episode_keys = {"guid",
                                              "title",
                                              "published",
                                              "enclosure_url",
                                              "enclosure_type",
                                              "enclosure_length",
                                              "duration_seconds",
                                              "link",
                                              "description",
                                              "season",
                                              "episode",
                                              "explicit",
                                              "image",
                                              "transcripts",
                                              "chapters_url",
                                              "itunes",
                                              "podcast"};

TEST(ToJson, EmitsExactlyTheSpecKeysWithNullForAbsentValues) {
  Show show;
  show.episodes.push_back(Episode{});
  nlohmann::json json = to_json(show);
  EXPECT_EQ(keys_of(json), k_show_keys);
  EXPECT_TRUE(json["title"].is_null());
  EXPECT_TRUE(json["explicit"].is_null());
  EXPECT_TRUE(json["language"].is_null());
  EXPECT_EQ(json["categories"], nlohmann::json::array());
  EXPECT_TRUE(json["itunes"].is_null());
  EXPECT_TRUE(json["podcast"].is_null());
  ASSERT_EQ(json["episodes"].size(), 1u);
  const nlohmann::json& episode = json["episodes"][0];
  EXPECT_EQ(keys_of(episode), k_episode_keys);
  EXPECT_TRUE(episode["published"].is_null());
  EXPECT_TRUE(episode["enclosure_length"].is_null());
  EXPECT_TRUE(episode["season"].is_null());
  EXPECT_EQ(episode["transcripts"], nlohmann::json::array());
  EXPECT_TRUE(episode["itunes"].is_null());
  EXPECT_TRUE(episode["podcast"].is_null());
}

TEST(ToJson, EmitsPresentValuesWithTheirJsonTypes) {
  Show show;
  show.title = "T";
  show.language = "en";
  show.detected_language = "ar";
  show.explicit_content = false;
  show.categories = {"Technology", "News"};
  show.feed_url = "https://example.com/feed";
  Episode episode;
  episode.guid = "g";
  episode.published = 1749528000;
  episode.enclosure_length = 123;
  episode.duration_seconds = 1968;
  episode.season = 1;
  episode.episode = 7;
  episode.explicit_content = true;
  episode.transcripts = {{"https://example.com/t.vtt", "text/vtt"}};
  show.episodes = {episode};
  nlohmann::json json = to_json(show);
  EXPECT_EQ(json["title"], "T");
  EXPECT_EQ(json["language"], "en");
  EXPECT_EQ(json["detected_language"], "ar");
  EXPECT_EQ(json["explicit"], false);
  EXPECT_EQ(json["categories"], nlohmann::json({"Technology", "News"}));
  EXPECT_EQ(json["feed_url"], "https://example.com/feed");
  const nlohmann::json& out = json["episodes"][0];
  EXPECT_EQ(out["guid"], "g");
  EXPECT_EQ(out["published"], 1749528000);
  EXPECT_EQ(out["enclosure_length"], 123);
  EXPECT_EQ(out["duration_seconds"], 1968);
  EXPECT_EQ(out["season"], 1);
  EXPECT_EQ(out["episode"], 7);
  EXPECT_EQ(out["explicit"], true);
  ASSERT_EQ(out["transcripts"].size(), 1u);
  EXPECT_EQ(out["transcripts"][0]["url"], "https://example.com/t.vtt");
  EXPECT_EQ(out["transcripts"][0]["type"], "text/vtt");
}

TEST(ToJson, KeepsEpisodesInOrder) {
  Show show;
  for (const char* title : {"c", "a", "b"}) {
    Episode episode;
    episode.title = title;
    show.episodes.push_back(episode);
  }
  nlohmann::json json = to_json(show);
  ASSERT_EQ(json["episodes"].size(), 3u);
  EXPECT_EQ(json["episodes"][0]["title"], "c");
  EXPECT_EQ(json["episodes"][1]["title"], "a");
  EXPECT_EQ(json["episodes"][2]["title"], "b");
}

Show full_show(const std::string& text) {
  Show show;
  show.title = text;
  show.link = "https://example.com/";
  show.description = "<p>" + text + "</p>";
  show.language = "en-US";
  show.detected_language = "fa";
  show.image = "https://example.com/i.png";
  show.author = text;
  show.explicit_content = true;
  show.categories = {text, "News", ""};
  show.podcast_guid = "917393e3-1b1e-5cef-ace4-edaa54e1f810";
  show.new_feed_url = "https://example.com/new";
  show.feed_url = "https://example.com/feed";
  show.itunes = {text, "owner@example.com", "serial", true, false, {text, "news"}};
  show.podcast.locked = true;
  show.podcast.locked_owner = text;
  show.podcast.funding = {{"https://example.com/support", text}};
  show.podcast.persons = {{text, "host", "cast", "https://example.com/p.jpg", ""},
                          {"Second", "", "", "", "https://example.com/p"}};
  show.podcast.location = Location{text, "geo:30.2672,-97.7431", "R113314"};
  show.podcast.license = License{text, "https://example.com/license"};
  show.podcast.medium = "podcast";
  show.podcast.images = {{"https://example.com/a.jpg", 1500}, {"https://example.com/b.jpg", {}}};
  show.podcast.update_frequency = UpdateFrequency{text, "FREQ=WEEKLY", false, 1700000000};
  show.podcast.trailers = {{"https://example.com/t.mp3", text, "audio/mpeg", 1700000000, 12, 2}};
  Episode episode;
  episode.itunes = {"bonus", false, {text}};
  episode.podcast.chapters_type = "application/json+chapters";
  episode.podcast.persons = {{text, "guest", "", "", ""}};
  episode.podcast.soundbites = {{73.5, 60, text}, {0, 0.25, ""}};
  episode.podcast.location = Location{text, "", ""};
  episode.podcast.license = License{"CC-BY-4.0", ""};
  episode.podcast.alternate_enclosures = {
      {"audio/opus",
       1000,
       64000.5,
       {},
       "en",
       text,
       "",
       "opus",
       true,
       {"https://example.com/e.opus", "https://mirror.example.com/e.opus"}},
      {"video/mp4", {}, {}, 1080, "", "", "", "", false, {"https://example.com/e.mp4"}}};
  episode.podcast.images = {{"https://example.com/e.jpg", 3000}};
  episode.guid = text;
  episode.title = text;
  episode.published = -86400;
  episode.enclosure_url = "https://example.com/e.mp3";
  episode.enclosure_type = "audio/mpeg";
  episode.enclosure_length = 9223372036854775807;
  episode.duration_seconds = 0;
  episode.link = "https://example.com/e";
  episode.description = text;
  episode.season = -1;
  episode.episode = 2147483647;
  episode.explicit_content = false;
  episode.image = "https://example.com/e.png";
  episode.transcripts = {{"https://example.com/t.vtt", ""}, {"", text}};
  episode.chapters_url = "https://example.com/c.json";
  show.episodes = {episode, Episode{}, episode};
  return show;
}

// Strings that exercise every escaping rule of dump(): quotes, backslashes, each control
// character class, DEL, multi-byte UTF-8 of every length, and a right-to-left script.
const std::vector<std::string> k_texts = {
    "",
    "plain",
    "quote \" and backslash \\ and slash /",
    "tab\there, line\nbreak, return\r, backspace\b, form feed\f",
    std::string("nul \0 bell \a escape \x1b unit separator \x1f del \x7f", 44),
    "caf\u00e9 \u2014 \u65e5\u672c\u8a9e \U0001f399 \u0627\u0644\u0639\u0631\u0628\u064a\u0629",
    "<a href=\"https://example.com/?a=1&amp;b=2\">link</a>",
};

TEST(ToJsonText, WritesWhatDumpWritesForEveryValue) {
  for (const std::string& text : k_texts) {
    SCOPED_TRACE(text);
    Show show = full_show(text);
    EXPECT_EQ(to_json_text(show), to_json(show).dump(2));
  }
}

TEST(ToJsonText, WritesWhatDumpWritesForAnEmptyShow) {
  Show show;
  EXPECT_EQ(to_json_text(show), to_json(show).dump(2));
  show.episodes.push_back(Episode{});
  EXPECT_EQ(to_json_text(show), to_json(show).dump(2));
}

TEST(WriteJsonText, WritesWhatToJsonTextReturnsInPieces) {
  Show show = full_show(k_texts[5]);
  // Enough episodes that the writer hands its text over many times along the way.
  const Episode episode = show.episodes.front();
  show.episodes.assign(400, episode);
  std::ostringstream out;
  write_json_text(show, out);
  EXPECT_GT(out.str().size(), 512U * 1024);
  EXPECT_EQ(out.str(), to_json_text(show));
}

TEST(WriteJsonText, RefusesInvalidUtf8LikeDump) {
  Show show;
  show.title = "bad \xff";
  std::ostringstream out;
  EXPECT_THROW(write_json_text(show, out), nlohmann::json::type_error);
}

TEST(ToJsonText, RefusesInvalidUtf8LikeDump) {
  for (std::string_view invalid :
       {"\xff", "\xc3", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80"}) {
    Show show;
    show.title = "bad " + std::string(invalid);
    EXPECT_THROW(to_json_text(show), nlohmann::json::type_error);
  }
}

} // namespace
} // namespace podcrawl::feed

namespace podcrawl::feed {
namespace {

TEST(NamespaceJson, ReadsBackWhatItWrites) {
  for (const std::string& text : k_texts) {
    SCOPED_TRACE(text);
    const Show show = full_show(text);
    const nlohmann::json json = to_json(show);
    EXPECT_EQ(json["itunes"].get<ItunesShow>(), show.itunes);
    EXPECT_EQ(json["podcast"].get<PodcastShow>(), show.podcast);
    EXPECT_EQ(json["episodes"][0]["itunes"].get<ItunesEpisode>(), show.episodes[0].itunes);
    EXPECT_EQ(json["episodes"][0]["podcast"].get<PodcastEpisode>(), show.episodes[0].podcast);
  }
}

TEST(NamespaceJson, WritesOnlyThePresentFields) {
  Show show;
  show.itunes.type = "serial";
  show.podcast.persons = {{"Ada", "", "", "", ""}};
  const nlohmann::json json = to_json(show);
  EXPECT_EQ(json["itunes"], nlohmann::json({{"type", "serial"}}));
  EXPECT_EQ(json["podcast"], nlohmann::json({{"persons", {{{"name", "Ada"}}}}}));
}

TEST(NamespaceJson, IgnoresMembersOfTheWrongType) {
  const auto read = nlohmann::json::parse(
      R"({"locked": "yes", "funding": {"url": "x"}, "persons": [1, {"name": 2}, {"name": "B"}],
          "location": [], "images": [{"url": "u", "width": "wide"}]})");
  PodcastShow expected;
  expected.persons = {{"", "", "", "", ""}, {"B", "", "", "", ""}};
  expected.images = {{"u", std::nullopt}};
  EXPECT_EQ(read.get<PodcastShow>(), expected);
}

} // namespace
} // namespace podcrawl::feed

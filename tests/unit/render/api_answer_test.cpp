#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "podcrawl/render/api.hpp"

// The APIs' answers as apps read them: the field names, the types and the odd conventions of
// Podcast Index, iTunes Search and gpodder.net.

namespace podcrawl::render::api {
namespace {

using nlohmann::json;

model::DirectoryFeed a_feed() {
  model::DirectoryFeed feed;
  feed.id = 42;
  feed.podcast_guid = "917393e3-1b1e-5cef-ace4-edaa54e1f810";
  feed.show.slug = "the-daily";
  feed.show.feed_url = "https://feeds.example.com/daily.xml";
  feed.show.updated_at = 1700000000;
  feed.show.show.title = "The Daily";
  feed.show.show.author = "Example News";
  feed.show.show.link = "https://example.com/daily";
  feed.show.show.language = "en-US";
  feed.show.show.image = "https://example.com/cover.jpg";
  feed.show.show.description = "<p>Twenty minutes a day.</p>";
  feed.show.show.explicit_content = true;
  feed.show.show.itunes.owner_name = "Example Owner";
  feed.original_url = "http://feeds.example.com/daily.xml";
  feed.status = "active";
  feed.last_http_status = 200;
  feed.last_fetch_at = 1700000100;
  feed.last_success_at = 1700000100;
  feed.content_hash = "0123456789abcdef0123456789abcdef";
  feed.episode_count = 3;
  feed.newest_item_at = 1699990000;
  feed.oldest_item_at = 1600000000;
  feed.categories = {{7, "News"}, {9, "Daily News"}};
  return feed;
}

model::DirectoryEpisode an_episode() {
  model::DirectoryEpisode stored;
  stored.id = 1001;
  stored.first_seen_at = 1699990100;
  stored.feed_id = 42;
  stored.feed_title = "The Daily";
  stored.feed_url = "https://feeds.example.com/daily.xml";
  stored.feed_image = "https://example.com/cover.jpg";
  stored.feed_language = "en-US";
  stored.podcast_guid = "917393e3-1b1e-5cef-ace4-edaa54e1f810";
  auto& episode = stored.episode.episode;
  episode.guid = "ep-1";
  episode.title = "Monday";
  episode.published = 1699990000;
  episode.enclosure_url = "https://example.com/1.mp3";
  episode.enclosure_type = "audio/mpeg";
  episode.enclosure_length = 12345;
  episode.duration_seconds = 1200;
  episode.explicit_content = true;
  episode.transcripts = {{"https://example.com/1.vtt", "text/vtt"}};
  return stored;
}

TEST(PodcastIndexAnswer, AFeedFoundHasTheFieldsAndTypesClientsRead) {
  const auto answer = json::parse(feed_answer(a_feed(), {{"id", "42"}}, {}));
  EXPECT_EQ(answer["status"], "true"); // a string, not a boolean
  EXPECT_EQ(answer["query"], json({{"id", "42"}}));
  const auto& feed = answer["feed"];
  EXPECT_EQ(feed["id"], 42);
  EXPECT_EQ(feed["podcastGuid"], "917393e3-1b1e-5cef-ace4-edaa54e1f810");
  EXPECT_EQ(feed["url"], "https://feeds.example.com/daily.xml");
  EXPECT_EQ(feed["originalUrl"], "http://feeds.example.com/daily.xml");
  EXPECT_EQ(feed["ownerName"], "Example Owner");
  EXPECT_TRUE(feed["explicit"].is_boolean());
  EXPECT_EQ(feed["explicit"], true);
  EXPECT_EQ(feed["dead"], 0);
  EXPECT_EQ(feed["episodeCount"], 3);
  EXPECT_EQ(feed["lastCrawlTime"], 1700000100);
  EXPECT_TRUE(feed["itunesId"].is_null());
  EXPECT_EQ(feed["categories"], json({{"7", "News"}, {"9", "Daily News"}}));
  EXPECT_EQ(feed["chash"], "0123456789abcdef0123456789abcdef");
  EXPECT_EQ(feed["description"], "Twenty minutes a day."); // its text, without fulltext
  EXPECT_EQ(answer["description"], "Found matching feed");
}

TEST(PodcastIndexAnswer, AFeedNotFoundIsAnEmptyArrayWithStatus200Fields) {
  const auto answer = json::parse(feed_answer(std::nullopt, {{"url", "https://x/"}}, {}));
  EXPECT_EQ(answer["status"], "true");
  EXPECT_TRUE(answer["feed"].is_array());
  EXPECT_TRUE(answer["feed"].empty());
  EXPECT_EQ(answer["query"]["url"], "https://x/");
}

TEST(PodcastIndexAnswer, AFeedWithoutCategoriesHasNullCategories) {
  auto feed = a_feed();
  feed.categories.clear();
  feed.status = "gone";
  const auto answer = json::parse(feed_answer(feed, {{"id", "42"}}, {}));
  EXPECT_TRUE(answer["feed"]["categories"].is_null());
  EXPECT_EQ(answer["feed"]["dead"], 1);
}

TEST(PodcastIndexAnswer, SearchResultsCountAndEchoTheQuery) {
  const auto answer = json::parse(search_answer({a_feed(), a_feed()}, "daily news", {}));
  EXPECT_EQ(answer["count"], 2);
  EXPECT_EQ(answer["query"], "daily news");
  ASSERT_EQ(answer["feeds"].size(), 2U);
  EXPECT_EQ(answer["feeds"][0]["newestItemPubdate"], 1699990000);
  EXPECT_FALSE(answer["feeds"][0].contains("chash")); // search results leave it out
}

TEST(PodcastIndexAnswer, AnEpisodesExplicitIsANumberAndItsFeedIsRepeated) {
  const auto answer = json::parse(episodes_answer({an_episode()}, {{"42"}, {}}, {}));
  EXPECT_EQ(answer["query"], "42"); // one id: a string
  EXPECT_EQ(answer["count"], 1);
  const auto& item = answer["items"][0];
  EXPECT_TRUE(item["explicit"].is_number_integer());
  EXPECT_EQ(item["explicit"], 1);
  EXPECT_EQ(item["id"], 1001);
  EXPECT_EQ(item["feedId"], 42);
  EXPECT_EQ(item["datePublished"], 1699990000);
  EXPECT_EQ(item["datePublishedPretty"], "November 14, 2023 7:26pm");
  EXPECT_EQ(item["dateCrawled"], 1699990100);
  EXPECT_EQ(item["enclosureLength"], 12345);
  EXPECT_EQ(item["duration"], 1200);
  EXPECT_EQ(item["transcriptUrl"], "https://example.com/1.vtt");
  EXPECT_EQ(item["episodeType"], "full");
  EXPECT_TRUE(item["season"].is_number());
  EXPECT_TRUE(item["chaptersUrl"].is_null());
}

TEST(PodcastIndexAnswer, SeveralFeedIdsAreEchoedAsAnArray) {
  const auto answer = json::parse(episodes_answer({}, {{"1", "2"}, {}}, {}));
  EXPECT_EQ(answer["query"], json::array({"1", "2"}));
  EXPECT_EQ(answer["count"], 0);
  const auto by_url = json::parse(episodes_answer({}, {{}, {{"url", "https://x/"}}}, {}));
  EXPECT_EQ(by_url["query"], json({{"url", "https://x/"}}));
}

TEST(PodcastIndexAnswer, RecentAnswersWriteMaxAsAString) {
  const auto episodes = json::parse(recent_episodes_answer({an_episode()}, 10, {}));
  EXPECT_EQ(episodes["max"], "10");
  EXPECT_EQ(episodes["items"][0]["feedTitle"], "The Daily");
  const auto feeds = json::parse(recent_feeds_answer({a_feed()}, 40, std::nullopt, {}));
  EXPECT_EQ(feeds["max"], "40");
  EXPECT_TRUE(feeds["since"].is_null());
  EXPECT_EQ(feeds["feeds"][0]["newestItemPublishTime"], 1699990000);
  EXPECT_EQ(feeds["feeds"][0]["oldestItemPublishTime"], 1600000000);
}

TEST(PodcastIndexAnswer, CategoriesAreListedUnderFeeds) {
  const auto answer = json::parse(categories_answer({{1, "Arts"}, {2, "Books"}}, {}));
  EXPECT_EQ(answer["count"], 2);
  EXPECT_EQ(answer["feeds"][1], json({{"id", 2}, {"name", "Books"}}));
}

TEST(PodcastIndexAnswer, TheBadRequestBodyIsPodcastIndexs) {
  EXPECT_EQ(json::parse(invalid_parameters_answer()),
            json({{"status", "false"}, {"description", "Invalid parameters"}}));
}

TEST(PodcastIndexAnswer, PrettyIndentsAndFulltextKeepsTheWholeDescription) {
  AnswerStyle style;
  style.pretty = true;
  style.fulltext = true;
  const std::string text = feed_answer(a_feed(), {{"id", "42"}}, style);
  EXPECT_NE(text.find("\n    \"status\""), std::string::npos);
  EXPECT_EQ(json::parse(text)["feed"]["description"], "<p>Twenty minutes a day.</p>");
}

TEST(PodcastIndexAnswer, ShortTextKeepsTheFirstHundredWords) {
  std::string html = "<p>";
  for (int i = 0; i < 150; ++i) {
    html += "w" + std::to_string(i) + " ";
  }
  html += "</p>";
  const std::string text = short_text(html);
  EXPECT_EQ(text.substr(0, 6), "w0 w1 ");
  EXPECT_NE(text.find("w99"), std::string::npos);
  EXPECT_EQ(text.find("w100"), std::string::npos);
  EXPECT_EQ(text.back(), '9');
}

TEST(PodcastIndexAnswer, ImageUrlHashIsTheCrc32OfTheUrlWithoutItsScheme) {
  // CRC-32 of "example.com/a.jpg".
  EXPECT_EQ(image_url_hash("https://example.com/a.jpg"),
            image_url_hash("http://example.com/a.jpg"));
  EXPECT_EQ(image_url_hash("example.com/a.jpg"), image_url_hash("http://example.com/a.jpg"));
  EXPECT_EQ(image_url_hash("123456789"), 0xCBF43926U); // the CRC-32 check value
}

TEST(PodcastIndexAnswer, PrettyDatesAreTwelveHourUtc) {
  EXPECT_EQ(pretty_date(1546378200), "January 01, 2019 9:30pm");
  EXPECT_EQ(pretty_date(1546300800), "January 01, 2019 12:00am");
}

TEST(ItunesAnswer, ResultsHaveTheFieldsAppsReadAndGenreIdsAsStrings) {
  auto feed = a_feed();
  feed.show.artwork = model::StoredArtwork{
      std::string(40, 'a'), 1400, 1400, {{160, 160, 1000}, {400, 400, 2000}, {1400, 1400, 9000}}};
  const auto answer =
      json::parse(itunes_answer({feed}, {"https://dir.example", "en", /*art=*/true}));
  EXPECT_EQ(answer["resultCount"], 1);
  const auto& result = answer["results"][0];
  EXPECT_EQ(result["wrapperType"], "track");
  EXPECT_EQ(result["kind"], "podcast");
  EXPECT_EQ(result["collectionId"], 42);
  EXPECT_EQ(result["trackId"], 42);
  EXPECT_EQ(result["collectionName"], "The Daily");
  EXPECT_EQ(result["artistName"], "Example News");
  EXPECT_EQ(result["feedUrl"], "https://feeds.example.com/daily.xml");
  EXPECT_EQ(result["collectionViewUrl"], "https://dir.example/en/podcasts/the-daily/");
  EXPECT_EQ(result["artworkUrl100"],
            "https://dir.example/art/" + std::string(40, 'a') + "-160.webp");
  EXPECT_EQ(result["artworkUrl600"],
            "https://dir.example/art/" + std::string(40, 'a') + "-1400.webp");
  EXPECT_EQ(result["releaseDate"], "2023-11-14T19:26:40Z");
  EXPECT_EQ(result["trackCount"], 3);
  EXPECT_EQ(result["genreIds"], json::array({"7", "9", "26"}));
  EXPECT_EQ(result["genres"], json::array({"News", "Daily News", "Podcasts"}));
  EXPECT_EQ(result["primaryGenreName"], "News");
  EXPECT_EQ(result["collectionExplicitness"], "explicit");
}

TEST(ItunesAnswer, WithoutPublishedArtTheFeedsImageIsGiven) {
  const auto answer = json::parse(itunes_answer({a_feed()}, {"https://dir.example", "ar", false}));
  EXPECT_EQ(answer["results"][0]["artworkUrl60"], "https://example.com/cover.jpg");
  EXPECT_EQ(answer["results"][0]["collectionViewUrl"],
            "https://dir.example/ar/podcasts/the-daily/");
}

TEST(GpodderAnswer, EveryKeyIsPresent) {
  const auto answer =
      json::parse(gpodder_json({a_feed()}, {"https://dir.example", "en", false}, 64));
  ASSERT_TRUE(answer.is_array());
  const auto& podcast = answer[0];
  for (const char* key :
       {"url", "title", "author", "description", "subscribers", "subscribers_last_week", "logo_url",
        "scaled_logo_url", "website", "mygpo_link"}) {
    EXPECT_TRUE(podcast.contains(key)) << key;
  }
  EXPECT_EQ(podcast["url"], "https://feeds.example.com/daily.xml");
  EXPECT_EQ(podcast["subscribers"], 0);
  EXPECT_EQ(podcast["mygpo_link"], "https://dir.example/en/podcasts/the-daily/");
}

TEST(GpodderAnswer, OpmlAndTextListTheFeeds) {
  const std::string opml = gpodder_opml({a_feed()}, "daily & news");
  EXPECT_NE(opml.find("<title>daily &amp; news</title>"), std::string::npos);
  EXPECT_NE(opml.find("xmlUrl=\"https://feeds.example.com/daily.xml\""), std::string::npos);
  EXPECT_EQ(gpodder_txt({a_feed()}), "https://feeds.example.com/daily.xml\n");
}

} // namespace
} // namespace podcrawl::render::api

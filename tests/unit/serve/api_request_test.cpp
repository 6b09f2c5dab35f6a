#include <gtest/gtest.h>

#include "api_internal.hpp"
#include "podcrawl/serve/route.hpp"

// Reading the APIs' requests: which endpoint a path names, their parameters, their bounds.

namespace podcrawl::serve::internal {
namespace {

constexpr std::int64_t k_now = 1700000000;

std::optional<ApiRequest> read(Endpoint endpoint, std::string_view query) {
  return read_api_request(endpoint, query, k_now);
}

TEST(ApiRequest, PathsNameTheirEndpoints) {
  EXPECT_EQ(endpoint_of("api/1.0/search/byterm"), Endpoint::search_byterm);
  EXPECT_EQ(endpoint_of("api/1.0/episodes/byfeedid"), Endpoint::episodes_byfeedid);
  EXPECT_EQ(endpoint_of("search"), Endpoint::itunes_search);
  EXPECT_EQ(endpoint_of("lookup"), Endpoint::itunes_lookup);
  EXPECT_EQ(endpoint_of("search.json"), Endpoint::gpodder_json);
  EXPECT_EQ(endpoint_of("api/1.0/openapi.json"), Endpoint::openapi);
  EXPECT_FALSE(endpoint_of("api/1.0/search/byperson"));
  EXPECT_FALSE(endpoint_of("api/1.0/search/byterm/"));
  EXPECT_TRUE(needs_key(Endpoint::stats_current));
  EXPECT_FALSE(needs_key(Endpoint::openapi));
  EXPECT_FALSE(needs_key(Endpoint::itunes_search));
  EXPECT_FALSE(needs_key(Endpoint::gpodder_txt));
}

TEST(ApiRequest, TheRouterSendsApiPathsToTheApi) {
  const std::vector<std::string> locales = {"en", "ar"};
  const Route byterm = route("/api/1.0/search/byterm", locales);
  EXPECT_EQ(byterm.kind, Route::Kind::api);
  EXPECT_EQ(byterm.key, "api/1.0/search/byterm");
  EXPECT_EQ(route("/search", locales).kind, Route::Kind::api);
  EXPECT_EQ(route("/dir/lookup", locales, "/dir").kind, Route::Kind::api);
  EXPECT_EQ(route("/en/search/", locales).kind, Route::Kind::search); // the site's own search
  EXPECT_EQ(route("/api/1.0/nothing", locales).kind, Route::Kind::not_found);
}

TEST(ApiRequest, FlagsCountByPresenceInAnyCase) {
  const auto bare = read(Endpoint::search_byterm, "q=news&fulltext&pretty");
  ASSERT_TRUE(bare);
  EXPECT_TRUE(bare->style.fulltext);
  EXPECT_TRUE(bare->style.pretty);
  const auto valued = read(Endpoint::search_byterm, "q=news&fullText=&Pretty=false");
  ASSERT_TRUE(valued);
  EXPECT_TRUE(valued->style.fulltext);
  EXPECT_TRUE(valued->style.pretty);
  const auto none = read(Endpoint::search_byterm, "q=news");
  ASSERT_TRUE(none);
  EXPECT_FALSE(none->style.fulltext);
}

TEST(ApiRequest, SearchWordsAreDecodedAndRequired) {
  const auto found =
      read(Endpoint::search_byterm, "q=%D8%A8%D9%88%D8%AF%D9%83%D8%A7%D8%B3%D8%AA+news");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->text, "بودكاست news");
  EXPECT_EQ(found->max, 40);
  EXPECT_FALSE(read(Endpoint::search_byterm, ""));
  EXPECT_FALSE(read(Endpoint::search_byterm, "q="));
  EXPECT_FALSE(read(Endpoint::search_byterm, "q=+++"));
  EXPECT_FALSE(read(Endpoint::search_byterm, "q=%FF%FE")); // not UTF-8
  EXPECT_FALSE(read(Endpoint::search_byterm, "q=" + std::string(201, 'a')));
  EXPECT_TRUE(read(Endpoint::search_byterm, "q=" + std::string(200, 'a')));
}

TEST(ApiRequest, SearchFiltersAreRead) {
  const auto plain = read(Endpoint::search_byterm, "q=a");
  EXPECT_FALSE(plain->clean);
  EXPECT_FALSE(plain->needs_unknown);
  EXPECT_TRUE(read(Endpoint::search_byterm, "q=a&clean")->clean);
  EXPECT_TRUE(read(Endpoint::search_bytitle, "q=a&val=lightning")->needs_unknown);
  EXPECT_TRUE(read(Endpoint::search_byterm, "q=a&aponly=true")->needs_unknown);
  EXPECT_EQ(read(Endpoint::episodes_byfeedid, "id=1&enclosure=https%3A%2F%2Fa%2F1.mp3")->enclosure,
            "https://a/1.mp3");
  EXPECT_NE(cache_key(*read(Endpoint::search_byterm, "q=a&clean")),
            cache_key(*read(Endpoint::search_byterm, "q=a")));
}

TEST(ApiRequest, MaxIsBoundedAndMustBeANumber) {
  EXPECT_EQ(read(Endpoint::search_byterm, "q=a&max=5")->max, 5);
  EXPECT_EQ(read(Endpoint::search_byterm, "q=a&max=5000")->max, 1000);
  EXPECT_FALSE(read(Endpoint::search_byterm, "q=a&max=0"));
  EXPECT_FALSE(read(Endpoint::search_byterm, "q=a&max=-3"));
  EXPECT_FALSE(read(Endpoint::search_byterm, "q=a&max=ten"));
  EXPECT_FALSE(read(Endpoint::search_byterm, "q=a&max=99999999999999999999"));
  EXPECT_EQ(read(Endpoint::recent_episodes, "")->max, 10);
  EXPECT_EQ(read(Endpoint::recent_feeds, "")->max, 40);
}

TEST(ApiRequest, FeedIdsAreACommaListOfAtMost200) {
  const auto three = read(Endpoint::episodes_byfeedid, "id=3,1, 2");
  ASSERT_TRUE(three);
  EXPECT_EQ(three->ids, (std::vector<std::int64_t>{3, 1, 2}));
  EXPECT_EQ(three->id_texts, (std::vector<std::string>{"3", "1", "2"}));
  std::string ids = "id=1";
  for (int i = 2; i <= 200; ++i) {
    ids += "," + std::to_string(i);
  }
  EXPECT_TRUE(read(Endpoint::episodes_byfeedid, ids));
  EXPECT_FALSE(read(Endpoint::episodes_byfeedid, ids + ",201"));
  EXPECT_FALSE(read(Endpoint::episodes_byfeedid, "id=1,,2"));
  EXPECT_FALSE(read(Endpoint::episodes_byfeedid, "id=1,x"));
  EXPECT_FALSE(read(Endpoint::podcasts_byfeedid, "id=1,2"));
  EXPECT_FALSE(read(Endpoint::podcasts_byfeedid, "id=0"));
  EXPECT_FALSE(read(Endpoint::podcasts_byfeedid, ""));
}

TEST(ApiRequest, ANegativeSinceCountsBackFromNow) {
  EXPECT_EQ(read(Endpoint::episodes_byfeedid, "id=1&since=-1800")->since, k_now - 1800);
  EXPECT_EQ(read(Endpoint::episodes_byfeedid, "id=1&since=1600000000")->since, 1600000000);
  EXPECT_FALSE(read(Endpoint::episodes_byfeedid, "id=1&since=soon"));
  EXPECT_TRUE(read(Endpoint::episodes_byfeedid, "id=1&newest")->newest);
}

// podcast-index-api sends every parameter it was not given with an empty value
// (`episodes/byfeedid?id=1&since=&max=10`, `recent/feeds?max=40&since=&lang=&cat=&notcat=`); those
// requests were refused with a 400.
TEST(ApiRequest, AnEmptyNumberIsLeftUnset) {
  const auto episodes = read(Endpoint::episodes_byfeedid, "id=1&since=&max=10");
  ASSERT_TRUE(episodes);
  EXPECT_EQ(episodes->since, std::nullopt);
  EXPECT_EQ(episodes->max, 10);
  const auto recent = read(Endpoint::recent_episodes, "max=&excludeString=&before=");
  ASSERT_TRUE(recent);
  EXPECT_EQ(recent->before, std::nullopt);
  EXPECT_EQ(recent->max, 10);
  const auto feeds = read(Endpoint::recent_feeds, "max=40&since=&lang=&cat=&notcat=");
  ASSERT_TRUE(feeds);
  EXPECT_TRUE(feeds->recent.languages.empty());
  EXPECT_TRUE(feeds->recent.categories.empty());
  EXPECT_FALSE(read(Endpoint::podcasts_byfeedid, "id=")); // still required
  EXPECT_FALSE(read(Endpoint::episodes_byid, "id="));
}

TEST(ApiRequest, RecentFeedsFiltersAreLowerCaseLists) {
  const auto asked = read(Endpoint::recent_feeds, "lang=EN,unknown&cat=News,9&notcat=Sports");
  ASSERT_TRUE(asked);
  EXPECT_EQ(asked->recent.languages, (std::vector<std::string>{"en", ""}));
  EXPECT_EQ(asked->recent.categories, (std::vector<std::string>{"news", "9"}));
  EXPECT_EQ(asked->recent.not_categories, (std::vector<std::string>{"sports"}));
}

TEST(ApiRequest, ItunesSearchReadsTermLimitAndMedia) {
  const auto asked = read(Endpoint::itunes_search, "term=daily&media=podcast&entity=podcast");
  ASSERT_TRUE(asked);
  EXPECT_EQ(asked->text, "daily");
  EXPECT_EQ(asked->max, 50);
  EXPECT_TRUE(asked->podcasts);
  EXPECT_EQ(read(Endpoint::itunes_search, "term=a&limit=500")->max, 200);
  EXPECT_FALSE(read(Endpoint::itunes_search, "term=a&media=music")->podcasts);
  // A list of entities, as Mopidy's library searches ("any" query); podcasts when one of them is.
  EXPECT_TRUE(read(Endpoint::itunes_search, "term=a&media=podcast&entity=podcast,podcastEpisode")
                  ->podcasts);
  EXPECT_FALSE(read(Endpoint::itunes_search, "term=a&entity=podcastEpisode")->podcasts);
  EXPECT_FALSE(read(Endpoint::itunes_search, "media=podcast"));
  EXPECT_EQ(read(Endpoint::itunes_lookup, "id=7,8")->ids, (std::vector<std::int64_t>{7, 8}));
}

TEST(ApiRequest, APingNamesItsFeedByIdOrUrl) {
  EXPECT_EQ(endpoint_of("api/1.0/hub/pubnotify"), Endpoint::hub_pubnotify);
  EXPECT_FALSE(needs_key(Endpoint::hub_pubnotify));
  EXPECT_EQ(read(Endpoint::hub_pubnotify, "id=12&update")->ids, std::vector<std::int64_t>{12});
  EXPECT_EQ(read(Endpoint::hub_pubnotify, "url=https%3A%2F%2Fa%2Ff.xml")->text, "https://a/f.xml");
  EXPECT_FALSE(read(Endpoint::hub_pubnotify, ""));
  EXPECT_FALSE(read(Endpoint::hub_pubnotify, "id=x"));
}

TEST(ApiRequest, GpodderScaleLogoIsBounded) {
  EXPECT_EQ(read(Endpoint::gpodder_json, "q=a&scale_logo=64")->scale_logo, 64);
  EXPECT_FALSE(read(Endpoint::gpodder_json, "q=a&scale_logo=0"));
  EXPECT_FALSE(read(Endpoint::gpodder_json, "q=a&scale_logo=257"));
}

TEST(ApiRequest, TheCacheKeyIsTheSameForTheSameQuestion) {
  const auto key = [](Endpoint endpoint, std::string_view query) {
    return cache_key(*read(endpoint, query));
  };
  EXPECT_EQ(key(Endpoint::search_byterm, "q=news&max=5&fulltext"),
            key(Endpoint::search_byterm, "FullText=1&max=5&q=news"));
  EXPECT_NE(key(Endpoint::search_byterm, "q=news"), key(Endpoint::search_bytitle, "q=news"));
  EXPECT_NE(key(Endpoint::search_byterm, "q=news"), key(Endpoint::search_byterm, "q=news&pretty"));
  EXPECT_NE(key(Endpoint::episodes_byfeedid, "id=1,2"), key(Endpoint::episodes_byfeedid, "id=12"));
  EXPECT_NE(key(Endpoint::podcasts_byfeedurl, "url=https://a/"),
            key(Endpoint::podcasts_byfeedurl, "url=https://b/"));
}

} // namespace
} // namespace podcrawl::serve::internal

#include "podcrawl/feed/parser.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace podcrawl::feed {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

ParseResult parse(std::string_view bytes, std::string feed_url = "",
                  std::string content_type = "") {
  return parse_feed(bytes, ParseOptions{std::move(feed_url), std::move(content_type)});
}

constexpr std::string_view k_itunes_feed = R"(<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
     xmlns:content="http://purl.org/rss/1.0/modules/content/"
     xmlns:podcast="https://podcastindex.org/namespace/1.0"
     xmlns:atom="http://www.w3.org/2005/Atom">
<channel>
  <title>  The   Show </title>
  <link>https://show.example.com/</link>
  <atom:link href="https://feeds.example.com/show.xml" rel="self" type="application/rss+xml"/>
  <description>A show about &lt;b&gt;things&lt;/b&gt;.</description>
  <language>en-us</language>
  <itunes:image href="https://cdn.example.com/cover.jpg"/>
  <itunes:author>Jane Host</itunes:author>
  <itunes:explicit>yes</itunes:explicit>
  <itunes:category text="Technology"><itunes:category text="Podcasting"/></itunes:category>
  <itunes:category text="Society &amp; Culture"/>
  <itunes:category text="Technology"/>
  <category>ignored when iTunes categories exist</category>
  <podcast:guid>917393e3-1b1e-5cef-ace4-edaa54e1f810</podcast:guid>
  <itunes:new-feed-url>https://new.example.com/feed.xml</itunes:new-feed-url>
  <item>
    <title>Episode 7: Everything</title>
    <guid isPermaLink="false">ep-7</guid>
    <pubDate>Tue, 10 Jun 2025 04:00:00 GMT</pubDate>
    <enclosure url="https://cdn.example.com/ep7.mp3" length="123" type="audio/mpeg"/>
    <itunes:duration>32:48</itunes:duration>
    <link>https://show.example.com/7</link>
    <description>Short notes</description>
    <content:encoded><![CDATA[<p>Full notes</p><script>alert(1)</script>]]></content:encoded>
    <itunes:season>1</itunes:season>
    <itunes:episode>7</itunes:episode>
    <itunes:explicit>clean</itunes:explicit>
    <itunes:image href="https://cdn.example.com/ep7.jpg"/>
    <podcast:transcript url="https://cdn.example.com/ep7.vtt" type="text/vtt"/>
    <podcast:chapters url="https://cdn.example.com/ep7.json" type="application/json+chapters"/>
  </item>
</channel>
</rss>)";

TEST(ParseFeed, ReadsEveryShowFieldOfAnItunesFeed) {
  ParseResult result = parse(k_itunes_feed);
  ASSERT_EQ(result.outcome, ParseOutcome::ok) << result.error;
  const Show& show = result.show;
  EXPECT_EQ(show.title, "The Show");
  EXPECT_EQ(show.link, "https://show.example.com/");
  EXPECT_THAT(show.description, HasSubstr("things"));
  EXPECT_EQ(show.language, "en-US");
  EXPECT_EQ(show.image, "https://cdn.example.com/cover.jpg");
  EXPECT_EQ(show.author, "Jane Host");
  EXPECT_EQ(show.explicit_content, true);
  EXPECT_EQ(show.categories,
            (std::vector<std::string>{"Technology", "Podcasting", "Society & Culture"}));
  EXPECT_EQ(show.podcast_guid, "917393e3-1b1e-5cef-ace4-edaa54e1f810");
  EXPECT_EQ(show.new_feed_url, "https://new.example.com/feed.xml");
  EXPECT_EQ(show.feed_url, "https://feeds.example.com/show.xml");
}

TEST(ParseFeed, ReadsEveryEpisodeFieldOfAnItunesFeed) {
  ParseResult result = parse(k_itunes_feed);
  ASSERT_EQ(result.show.episodes.size(), 1u);
  const Episode& episode = result.show.episodes[0];
  EXPECT_EQ(episode.guid, "ep-7");
  EXPECT_EQ(episode.title, "Episode 7: Everything");
  EXPECT_EQ(episode.published, 1749528000);
  EXPECT_EQ(episode.enclosure_url, "https://cdn.example.com/ep7.mp3");
  EXPECT_EQ(episode.enclosure_type, "audio/mpeg");
  EXPECT_EQ(episode.enclosure_length, 123);
  EXPECT_EQ(episode.duration_seconds, 1968);
  EXPECT_EQ(episode.link, "https://show.example.com/7");
  EXPECT_THAT(episode.description, HasSubstr("Full notes"));
  EXPECT_THAT(episode.description, Not(HasSubstr("script")));
  EXPECT_EQ(episode.season, 1);
  EXPECT_EQ(episode.episode, 7);
  EXPECT_EQ(episode.explicit_content, false);
  EXPECT_EQ(episode.image, "https://cdn.example.com/ep7.jpg");
  ASSERT_EQ(episode.transcripts.size(), 1u);
  EXPECT_EQ(episode.transcripts[0].url, "https://cdn.example.com/ep7.vtt");
  EXPECT_EQ(episode.transcripts[0].type, "text/vtt");
  EXPECT_EQ(episode.chapters_url, "https://cdn.example.com/ep7.json");
}

TEST(ParseFeed, FeedUrlFromOptionsWinsOverTheSelfLink) {
  ParseResult result = parse(k_itunes_feed, "https://fetched.example.com/rss");
  EXPECT_EQ(result.show.feed_url, "https://fetched.example.com/rss");
}

TEST(ParseFeed, ReadsTheWebSubHubAndSelfOfAnRssChannel) {
  constexpr std::string_view k_feed = R"(<rss xmlns:atom="http://www.w3.org/2005/Atom"><channel>
    <title>Pushed</title>
    <atom:link rel="hub" href="https://pubsubhubbub.example.com/"/>
    <atom:link rel="self" href="/feeds/pushed.xml"/>
    <item><title>t</title><atom:link rel="hub" href="https://item.example.com/hub"/></item>
    </channel></rss>)";
  ParseResult result = parse(k_feed, "https://fetched.example.com/rss");
  EXPECT_EQ(result.show.hub_url, "https://pubsubhubbub.example.com/");
  EXPECT_EQ(result.show.self_url, "https://fetched.example.com/feeds/pushed.xml");
  EXPECT_EQ(result.show.feed_url, "https://fetched.example.com/rss");
  EXPECT_TRUE(parse(k_itunes_feed).show.hub_url.empty()); // no hub declared
}

TEST(ParseFeed, MatchesNamespaceSpellingsOfRealFeeds) {
  constexpr std::string_view k_feed = R"(<rss
      xmlns:itunes="http://www.itunes.com/DTDs/Podcast-1.0.dtd"
      xmlns:podcast="https://github.com/Podcastindex-org/podcast-namespace/blob/main/docs/1.0.md">
    <channel><itunes:author>Case Variant</itunes:author><podcast:guid>abc</podcast:guid>
    <item><title>t</title><podcast:season>3</podcast:season></item></channel></rss>)";
  ParseResult result = parse(k_feed);
  EXPECT_EQ(result.show.author, "Case Variant");
  EXPECT_EQ(result.show.podcast_guid, "abc");
  ASSERT_EQ(result.show.episodes.size(), 1u);
  EXPECT_EQ(result.show.episodes[0].season, 3);
}

TEST(ParseFeed, ReadsItunesElementsWhoseNamespaceIsNeverDeclared) {
  ParseResult result = parse(
      "<rss><channel><item><title>x</title><itunes:duration>00:20:00</itunes:duration>"
      "</item></channel></rss>");
  ASSERT_EQ(result.show.episodes.size(), 1u);
  EXPECT_EQ(result.show.episodes[0].duration_seconds, 1200);
}

TEST(ParseFeed, ReadsAnAtomFeed) {
  constexpr std::string_view k_feed = R"(<?xml version="1.0"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="de-de">
  <title>Atom Show</title>
  <subtitle type="html">&lt;p&gt;About&lt;/p&gt;</subtitle>
  <link rel="self" href="https://example.org/feed.atom"/>
  <link rel="hub" href="https://hub.example.org/"/>
  <link href="https://example.org/"/>
  <author><name>Ann Author</name><email>ann@example.org</email></author>
  <entry>
    <id>urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a</id>
    <title>First</title>
    <updated>2003-12-13T18:30:02Z</updated>
    <published>2003-12-13T08:29:29-04:00</published>
    <link rel="alternate" href="https://example.org/first"/>
    <link rel="enclosure" type="audio/mpeg" length="1337" href="https://example.org/first.mp3"/>
    <summary>Some text.</summary>
  </entry>
</feed>)";
  ParseResult result = parse(k_feed);
  ASSERT_EQ(result.outcome, ParseOutcome::ok);
  EXPECT_EQ(result.show.title, "Atom Show");
  EXPECT_EQ(result.show.link, "https://example.org/");
  EXPECT_EQ(result.show.author, "Ann Author");
  EXPECT_EQ(result.show.language, "de-DE");
  EXPECT_THAT(result.show.description, HasSubstr("About"));
  EXPECT_EQ(result.show.feed_url, "https://example.org/feed.atom");
  EXPECT_EQ(result.show.self_url, "https://example.org/feed.atom");
  EXPECT_EQ(result.show.hub_url, "https://hub.example.org/");
  ASSERT_EQ(result.show.episodes.size(), 1u);
  const Episode& entry = result.show.episodes[0];
  EXPECT_EQ(entry.guid, "urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a");
  EXPECT_EQ(entry.title, "First");
  EXPECT_EQ(entry.published, 1071318569); // 2003-12-13T12:29:29Z: published beats updated
  EXPECT_EQ(entry.link, "https://example.org/first");
  EXPECT_EQ(entry.enclosure_url, "https://example.org/first.mp3");
  EXPECT_EQ(entry.enclosure_length, 1337);
  EXPECT_THAT(entry.description, HasSubstr("Some text."));
}

// "مرحبا بالعالم" (hello world) in windows-1256 and in UTF-8.
constexpr std::string_view k_arabic_1256 = "\xe3\xd1\xcd\xc8\xc7 \xc8\xc7\xe1\xda\xc7\xe1\xe3";
constexpr std::string_view k_arabic_utf8 =
    "\xd9\x85\xd8\xb1\xd8\xad\xd8\xa8\xd8\xa7 \xd8\xa8\xd8\xa7\xd9\x84\xd8\xb9\xd8\xa7\xd9\x84"
    "\xd9\x85";

TEST(ParseFeed, DecodesWindows1256DeclaredInTheXmlDeclaration) {
  std::string feed = "<?xml version=\"1.0\" encoding=\"windows-1256\"?><rss><channel><title>";
  feed.append(k_arabic_1256).append("</title><language>ar</language></channel></rss>");
  ParseResult result = parse(feed);
  ASSERT_EQ(result.outcome, ParseOutcome::ok);
  EXPECT_EQ(result.show.title, k_arabic_utf8);
  EXPECT_EQ(result.show.language, "ar");
}

TEST(ParseFeed, DecodesWindows1256NamedOnlyByTheContentType) {
  std::string feed = "<rss><channel><title>";
  feed.append(k_arabic_1256).append("</title></channel></rss>");
  ParseResult result = parse(feed, "", "application/rss+xml; charset=\"windows-1256\"");
  EXPECT_EQ(result.show.title, k_arabic_utf8);
}

TEST(ParseFeed, DecodesUtf16WithAByteOrderMark) {
  std::string_view ascii = "<rss><channel><title>Wide</title></channel></rss>";
  std::string feed = "\xff\xfe";
  for (char c : ascii) {
    feed.push_back(c);
    feed.push_back('\0');
  }
  EXPECT_EQ(parse(feed).show.title, "Wide");
}

TEST(ParseFeed, SkipsByteOrderMarkAndJunkBeforeTheDeclaration) {
  ParseResult result = parse(
      "\xef\xbb\xbf \n\r garbage<?xml version=\"1.0\"?><rss><channel><title>Junk</title>"
      "</channel></rss>");
  ASSERT_EQ(result.outcome, ParseOutcome::ok);
  EXPECT_EQ(result.show.title, "Junk");
}

TEST(ParseFeed, RecoversHtmlNamedEntitiesAndBareAmpersands) {
  ParseResult result = parse(
      "<rss><channel><title>Caf&eacute; &amp; Bar&nbsp;&mdash; R&D &unknown;</title>"
      "<link>https://example.com/?a=1&b=2</link></channel></rss>");
  ASSERT_EQ(result.outcome, ParseOutcome::ok);
  EXPECT_EQ(result.show.title, "Caf\xc3\xa9 & Bar\xc2\xa0\xe2\x80\x94 R&D &unknown;");
  EXPECT_EQ(result.show.link, "https://example.com/?a=1&b=2");
}

TEST(ParseFeed, NormalizesTextToNfcWithoutControlCharacters) {
  // "e" + COMBINING ACUTE ACCENT becomes U+00E9; the bell and escape characters go.
  ParseResult result = parse(
      "<rss><channel><title>Cafe\xcc\x81\x07 \x1b"
      "Bar</title>"
      "</channel></rss>");
  EXPECT_EQ(result.show.title, "Caf\xc3\xa9 Bar");
}

TEST(ParseFeed, ReadsTextAsThePublisherMeantIt) {
  // A C1 reference in a well-formed feed, a title escaped twice, mojibake in a title, an
  // author, a category and the notes; the guid is an identifier and keeps its bytes.
  ParseResult result = parse(
      "<rss xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\"><channel>"
      "<title>Rock &#150; Roll</title>"
      "<itunes:author>Jos\u00c3\u00a9 &amp;amp; Ana</itunes:author>"
      "<itunes:category text=\"Soci\u00c3\u00a9t\u00c3\u00a9\"/>"
      "<description>&lt;p&gt;don\u00e2\u20ac\u2122t &amp;amp;#8217;&lt;/p&gt;</description>"
      "<item><guid>a\u00c3\u00a9</guid><title>It&amp;#8217;s here</title></item>"
      "</channel></rss>");
  EXPECT_EQ(result.show.title, "Rock \u2013 Roll");
  EXPECT_EQ(result.show.author, "Jos\u00e9 & Ana");
  ASSERT_EQ(result.show.categories.size(), 1U);
  EXPECT_EQ(result.show.categories[0], "Soci\u00e9t\u00e9");
  EXPECT_EQ(result.show.description, "<p>don\u2019t &amp;#8217;</p>");
  ASSERT_EQ(result.show.episodes.size(), 1U);
  EXPECT_EQ(result.show.episodes[0].title, "It\u2019s here");
  EXPECT_EQ(result.show.episodes[0].guid, "a\u00c3\u00a9");
}

TEST(ParseFeed, NeverLoadsAnExternalEntity) {
  constexpr std::string_view k_feed = R"(<?xml version="1.0"?>
<!DOCTYPE rss [
  <!ENTITY xxe SYSTEM "file:///etc/passwd">
  <!ENTITY % remote SYSTEM "file:///etc/passwd">
  %remote;
]>
<rss><channel><title>before &xxe; after</title>
<item><title>&xxe;</title><description>&xxe;</description></item></channel></rss>)";
  ParseResult result = parse(k_feed);
  EXPECT_THAT(result.show.title, Not(HasSubstr("root:")));
  EXPECT_THAT(result.show.title, HasSubstr("before"));
  for (const Episode& episode : result.show.episodes) {
    EXPECT_THAT(episode.title, Not(HasSubstr("root:")));
    EXPECT_THAT(episode.description, Not(HasSubstr("root:")));
  }
}

TEST(ParseFeed, DoesNotExpandNestedEntities) {
  std::string feed = "<?xml version=\"1.0\"?>\n<!DOCTYPE rss [\n<!ENTITY lol0 \"lol\">\n";
  for (int level = 1; level <= 9; ++level) {
    feed += "<!ENTITY lol" + std::to_string(level) + " \"";
    for (int copy = 0; copy < 10; ++copy) {
      feed += "&lol" + std::to_string(level - 1) + ";";
    }
    feed += "\">\n";
  }
  feed += "]>\n<rss><channel><title>&lol9;</title></channel></rss>";
  ParseResult result = parse(feed);
  EXPECT_LT(result.show.title.size(), 100u);
}

TEST(ParseFeed, RemovesDuplicateEpisodesKeepingTheFirst) {
  ParseResult result = parse(R"(<rss><channel>
    <item><guid>a</guid><title>First A</title></item>
    <item><guid>b</guid><title>B</title></item>
    <item><guid>a</guid><title>Second A</title></item>
    <item><title>No guid</title><enclosure url="http://e.com/1.mp3" type="audio/mpeg"/></item>
    <item><title>Same file</title><enclosure url="http://e.com/1.mp3" type="audio/mpeg"/></item>
  </channel></rss>)");
  ASSERT_EQ(result.show.episodes.size(), 3u);
  EXPECT_EQ(result.show.episodes[0].title, "First A");
  EXPECT_EQ(result.show.episodes[1].title, "B");
  EXPECT_EQ(result.show.episodes[2].title, "No guid");
}

TEST(ParseFeed, ResolvesRelativeUrlsAgainstXmlBaseAndTheFeedUrl) {
  ParseResult result = parse(R"(<rss><channel><link>/about</link>
    <item><enclosure url="audio/ep1.mp3" type="audio/mpeg"/><link>../ep1</link></item>
    <item xml:base="https://cdn.example.net/files/">
      <enclosure url="ep2.mp3" type="audio/mpeg"/></item>
  </channel></rss>)",
                             "https://example.com/podcast/feed.xml");
  EXPECT_EQ(result.show.link, "https://example.com/about");
  ASSERT_EQ(result.show.episodes.size(), 2u);
  EXPECT_EQ(result.show.episodes[0].enclosure_url, "https://example.com/podcast/audio/ep1.mp3");
  EXPECT_EQ(result.show.episodes[0].link, "https://example.com/ep1");
  EXPECT_EQ(result.show.episodes[1].enclosure_url, "https://cdn.example.net/files/ep2.mp3");
}

TEST(ParseFeed, DropsUrlsThatAreNotHttp) {
  ParseResult result = parse(R"(<rss><channel><link>javascript:alert(1)</link>
    <item><title>t</title><enclosure url="ftp://example.com/a.mp3"/>
    <link>relative/without/base</link></item></channel></rss>)");
  EXPECT_EQ(result.show.link, "");
  ASSERT_EQ(result.show.episodes.size(), 1u);
  EXPECT_EQ(result.show.episodes[0].enclosure_url, "");
  EXPECT_EQ(result.show.episodes[0].link, "");
}

TEST(ParseFeed, PrefersAnAudioEnclosureOverAnImage) {
  ParseResult result = parse(R"(<rss><channel><item>
    <enclosure type="image/jpeg" url="http://example.org/cover.jpg"/>
    <enclosure type="audio/mpeg" url="http://example.net/audio.mp3"/>
  </item></channel></rss>)");
  ASSERT_EQ(result.show.episodes.size(), 1u);
  EXPECT_EQ(result.show.episodes[0].enclosure_url, "http://example.net/audio.mp3");
}

TEST(ParseFeed, FallsBackToLowerRankedElementsWhenTheBestOneIsUnusable) {
  ParseResult result = parse(R"(<rss xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>
    <item><pubDate>sometime</pubDate><dc:date>2003-12-31T10:14:55Z</dc:date>
    <itunes:duration>soon</itunes:duration></item></channel></rss>)");
  ASSERT_EQ(result.show.episodes.size(), 1u);
  EXPECT_EQ(result.show.episodes[0].published, 1072865695);
  EXPECT_EQ(result.show.episodes[0].duration_seconds, std::nullopt);
}

TEST(ParseFeed, ReadsRss10ItemsBesideTheChannel) {
  ParseResult result = parse(R"(<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
      xmlns="http://purl.org/rss/1.0/"><channel><title>RDF</title></channel>
      <item><title>One</title><link>http://example.com/1</link></item></rdf:RDF>)");
  ASSERT_EQ(result.outcome, ParseOutcome::ok);
  EXPECT_EQ(result.show.title, "RDF");
  ASSERT_EQ(result.show.episodes.size(), 1u);
  EXPECT_EQ(result.show.episodes[0].link, "http://example.com/1");
}

TEST(ParseFeed, ReportsAnHtmlPageAsNotAFeed) {
  ParseResult result = parse("<!DOCTYPE html><html><body><p>Hello</p></body></html>");
  EXPECT_EQ(result.outcome, ParseOutcome::not_a_feed);
  EXPECT_THAT(result.error, HasSubstr("html"));
}

TEST(ParseFeed, ReportsBytesWithoutMarkupAsMalformed) {
  for (std::string_view bytes :
       {std::string_view(""), std::string_view("   "), std::string_view("just some text"),
        std::string_view("\x89PNG\r\n\x1a\n\0\0", 10)}) {
    ParseResult result = parse(bytes);
    EXPECT_EQ(result.outcome, ParseOutcome::malformed) << bytes;
    EXPECT_FALSE(result.error.empty());
  }
}

TEST(ParseFeed, KeepsWhatParsedOfATruncatedDocument) {
  std::string feed =
      "<rss><channel><title>Cut</title><item><guid>1</guid><title>One</title></item>"
      "<item><guid>2</guid><title>Two</title></item><item><guid>3</guid><ti";
  ParseResult result = parse(feed);
  ASSERT_EQ(result.outcome, ParseOutcome::ok);
  EXPECT_EQ(result.show.title, "Cut");
  ASSERT_GE(result.show.episodes.size(), 2u);
  EXPECT_EQ(result.show.episodes[1].title, "Two");
}

TEST(ParseFeed, ReadsAtMostTenThousandEpisodes) {
  std::string feed = "<rss><channel>";
  for (int i = 0; i < 10005; ++i) {
    feed += "<item><guid>" + std::to_string(i) + "</guid></item>";
  }
  feed += "</channel></rss>";
  EXPECT_EQ(parse(feed).show.episodes.size(), 10000u);
}

TEST(EpisodeKey, UsesGuidThenEnclosureThenLinkThenTitleAndDate) {
  Episode episode;
  EXPECT_EQ(episode_key(episode), "");
  episode.title = "Title";
  episode.published = 42;
  std::string by_title = episode_key(episode);
  EXPECT_THAT(by_title, HasSubstr("Title"));
  EXPECT_THAT(by_title, HasSubstr("42"));
  episode.link = "https://example.com/1";
  EXPECT_EQ(episode_key(episode), "https://example.com/1");
  episode.enclosure_url = "https://example.com/1.mp3";
  EXPECT_EQ(episode_key(episode), "https://example.com/1.mp3");
  episode.guid = "guid-1";
  EXPECT_EQ(episode_key(episode), "guid-1");
}

TEST(EpisodeKey, DistinguishesEpisodesWithTheSameTitleOnDifferentDates) {
  Episode first;
  first.title = "Weekly";
  first.published = 1;
  Episode second = first;
  second.published = 2;
  EXPECT_NE(episode_key(first), episode_key(second));
}

} // namespace
} // namespace podcrawl::feed

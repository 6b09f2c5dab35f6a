#include "podcrawl/feed/opml.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "podcrawl/core/error.hpp"

namespace podcrawl::feed {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(ParseOpml, ReadsNestedOutlinesInDocumentOrder) {
  std::vector<OpmlEntry> entries = parse_opml(R"(<?xml version="1.0"?>
<opml version="2.0"><head><title>Subs</title></head><body>
  <outline text="Tech">
    <outline type="rss" text="First" xmlUrl="https://one.example.com/feed"/>
    <outline text="Deeper"><outline title="Second" xmlurl="https://two.example.com/rss"/></outline>
  </outline>
  <outline text="Folder without feeds"/>
  <outline type="rss" XMLURL="  https://three.example.com/  " text=""/>
</body></opml>)");
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0].url, "https://one.example.com/feed");
  EXPECT_EQ(entries[0].title, "First");
  EXPECT_EQ(entries[1].url, "https://two.example.com/rss");
  EXPECT_EQ(entries[1].title, "Second");
  EXPECT_EQ(entries[2].url, "https://three.example.com/");
  EXPECT_EQ(entries[2].title, "");
}

TEST(ParseOpml, RecoversEntitiesAndBareAmpersands) {
  std::vector<OpmlEntry> entries = parse_opml(
      "<opml><body><outline text=\"Caf&eacute; &amp; Co\" "
      "xmlUrl=\"http://example.com/?a=1&b=2\"/></body></opml>");
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].title, "Caf\xc3\xa9 & Co");
  EXPECT_EQ(entries[0].url, "http://example.com/?a=1&b=2");
}

TEST(ParseOpml, ThrowsUsageErrorForDocumentsThatAreNotOpml) {
  EXPECT_THROW(parse_opml("<rss><channel/></rss>"), core::UsageError);
  EXPECT_THROW(parse_opml("not xml at all"), core::UsageError);
  EXPECT_THROW(parse_opml(""), core::UsageError);
}

TEST(ParseOpml, NeverLoadsAnExternalEntity) {
  std::vector<OpmlEntry> entries = parse_opml(R"(<?xml version="1.0"?>
<!DOCTYPE opml [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<opml><body><outline text="&xxe;" xmlUrl="https://example.com/&xxe;"/></body></opml>)");
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_THAT(entries[0].title, Not(HasSubstr("root:")));
  EXPECT_THAT(entries[0].url, Not(HasSubstr("root:")));
}

TEST(WriteOpml, WritesOpml20WithEscapedAttributes) {
  std::string document = write_opml(
      {{"https://example.com/feed?a=1&b=2", "Tom & \"Jerry\" <3"}, {"https://example.org/rss", ""}},
      "My <feeds>");
  EXPECT_THAT(document, HasSubstr("<opml version=\"2.0\">"));
  EXPECT_THAT(document, HasSubstr("<title>My &lt;feeds&gt;</title>"));
  EXPECT_THAT(document, HasSubstr("xmlUrl=\"https://example.com/feed?a=1&amp;b=2\""));
  EXPECT_THAT(document, HasSubstr("text=\"Tom &amp; &quot;Jerry&quot; &lt;3\""));
  EXPECT_THAT(document, HasSubstr("type=\"rss\""));
}

TEST(WriteOpml, RoundTripsThroughParseOpml) {
  std::vector<OpmlEntry> entries = {
      {"https://example.com/a?x=1&y='2'", "A & B"},
      {"https://example.com/b", "\xd8\xa8\xd9\x88\xd8\xaf\xd9\x83\xd8\xa7\xd8\xb3\xd8\xaa"},
      {"https://example.com/c", ""}};
  std::vector<OpmlEntry> read = parse_opml(write_opml(entries, "Round trip"));
  ASSERT_EQ(read.size(), entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    EXPECT_EQ(read[i].url, entries[i].url);
    // An untitled entry is written with its URL as the required text attribute.
    EXPECT_EQ(read[i].title, entries[i].title.empty() ? entries[i].url : entries[i].title);
  }
}

} // namespace
} // namespace podcrawl::feed

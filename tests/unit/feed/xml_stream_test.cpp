// Feeds are read as a stream, and read again by a walk of the whole tree when the stream meets
// something libxml2 recovers from differently when streaming.
#include <gtest/gtest.h>

#include <string>

#include "xml_internal.hpp"

namespace podcrawl::feed {
namespace {

using internal::k_max_streamed_cdata_bytes;
using internal::XmlStream;

// Read every node; return how many elements there were.
int read_all(const XmlStream& stream) {
  int elements = 0;
  while (xmlTextReaderRead(stream.reader()) == 1) {
    elements += xmlTextReaderNodeType(stream.reader()) == XML_READER_TYPE_ELEMENT ? 1 : 0;
  }
  return elements;
}

TEST(XmlStream, StreamsAWellFormedDocumentToTheEnd) {
  const std::string markup =
      "<rss><channel><title>Show</title><item><title>One</title></item></channel></rss>";
  XmlStream stream = XmlStream::stream(markup);
  ASSERT_NE(stream.reader(), nullptr);
  EXPECT_TRUE(stream.is_streaming());
  EXPECT_EQ(read_all(stream), 5);
  EXPECT_FALSE(stream.needs_walk());
}

TEST(XmlStream, AsksForAWalkAfterAWellFormednessError) {
  const std::string markup = "<rss><channel><title>Bell \x07 here</title></channel></rss>";
  XmlStream stream = XmlStream::stream(markup);
  read_all(stream);
  EXPECT_TRUE(stream.needs_walk());

  XmlStream walk = XmlStream::walk(markup);
  ASSERT_NE(walk.reader(), nullptr);
  EXPECT_FALSE(walk.is_streaming());
  EXPECT_EQ(read_all(walk), 3);
  EXPECT_FALSE(walk.needs_walk());
}

TEST(XmlStream, WalksADocumentWithALongCdataSection) {
  const std::string notes(k_max_streamed_cdata_bytes + 1, 'x');
  const std::string shorter(k_max_streamed_cdata_bytes, 'x');
  EXPECT_FALSE(XmlStream::stream("<rss><![CDATA[" + notes + "]]></rss>").is_streaming());
  EXPECT_FALSE(XmlStream::stream("<rss><![CDATA[" + notes).is_streaming());
  EXPECT_TRUE(XmlStream::stream("<rss><![CDATA[" + shorter + "]]><![CDATA[" + shorter + "]]></rss>")
                  .is_streaming());
}

} // namespace
} // namespace podcrawl::feed

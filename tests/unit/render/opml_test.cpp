// A show's OPML file: its feed as one rss outline, the same for every locale.
#include <gtest/gtest.h>

#include <string>

#include "page_fixture.hpp"

namespace podcrawl::render {
namespace {

class RenderOpml : public PageTest {};

TEST_F(RenderOpml, NamesTheShowsFeedAndWebsite) {
  const std::string opml = m_renderer.show_opml(hello_world_tech());
  EXPECT_EQ(opml,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<opml version=\"2.0\">\n"
            "  <head>\n"
            "    <title>Hello World Tech</title>\n"
            "  </head>\n"
            "  <body>\n"
            "    <outline type=\"rss\" text=\"Hello World Tech\" title=\"Hello World Tech\" "
            "xmlUrl=\"https://feeds.example/hello.xml\" htmlUrl=\"https://hello.example/\" "
            "language=\"en\"/>\n"
            "  </body>\n"
            "</opml>\n");
}

TEST_F(RenderOpml, EscapesTheFeedsTextAndLeavesOutWhatIsNotHttp) {
  model::StoredShow stored = hostile_show();
  stored.feed_url = "https://feeds.example/a.xml?x=1&y=\"2\"";
  const std::string opml = m_renderer.show_opml(stored);
  EXPECT_NE(opml.find("<title>&lt;script&gt;alert(1)&lt;/script&gt; Show</title>"),
            std::string::npos)
      << opml;
  EXPECT_NE(opml.find("<outline type=\"rss\" text=\"&lt;script&gt;alert(1)&lt;/script&gt; "
                      "Show\" title=\"&lt;script&gt;alert(1)&lt;/script&gt; Show\" "
                      "xmlUrl=\"https://feeds.example/a.xml?x=1&amp;y=&quot;2&quot;\"/>"),
            std::string::npos)
      << opml;
  // Its link is javascript: and it declares no language: no htmlUrl, no language.
  EXPECT_EQ(opml.find("htmlUrl"), std::string::npos);
  EXPECT_EQ(opml.find("language="), std::string::npos);
}

// Without an http(s) feed URL there is nothing to subscribe to: no OPML file, no link to one.
TEST_F(RenderOpml, IsEmptyWithoutAnHttpFeedUrl) {
  model::StoredShow stored = hello_world_tech();
  for (const char* url : {"", "javascript:alert(1)", "ftp://feeds.example/hello.xml"}) {
    stored.feed_url = url;
    EXPECT_EQ(m_renderer.show_opml(stored), "") << url;
  }
  EXPECT_EQ(show("script-show", "en").find(".opml"), std::string::npos);
  EXPECT_NE(show("hello-world-tech", "en").find("href=\"../../../opml/hello-world-tech.opml\""),
            std::string::npos);
}

} // namespace
} // namespace podcrawl::render

#include "podcrawl/fetch/link_header.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace podcrawl::fetch {
namespace {

constexpr const char* k_base = "https://feeds.example.com/show/rss";

struct Case {
  std::vector<std::string> values;
  const char* hub;
  const char* self;
};

TEST(WebSubLinks, ReadsTheHubAndSelfOfLinkHeaders) {
  const Case cases[] = {
      {{"<https://hub.example/>; rel=\"hub\", <https://feeds.example.com/show/rss>; rel=\"self\""},
       "https://hub.example/",
       "https://feeds.example.com/show/rss"},
      // Separate fields, unquoted rel, names and relation types in any case.
      {{"<https://hub.example/>; REL=Hub", "<https://self.example/feed>;rel=self"},
       "https://hub.example/",
       "https://self.example/feed"},
      // A rel listing several relation types; other parameters around it.
      {{"<https://hub.example/h>; title=\"a, b; c\"; rel=\"alternate hub\"; type=x"},
       "https://hub.example/h",
       ""},
      // Relative targets resolved against the response's URL.
      {{"</hub>; rel=hub, <rss>; rel=self"},
       "https://feeds.example.com/hub",
       "https://feeds.example.com/show/rss"},
      // The first of each wins.
      {{"<https://one.example/>; rel=hub", "<https://two.example/>; rel=hub"},
       "https://one.example/",
       ""},
      // A comma inside the target or a quoted value does not split the link-value.
      {{"<https://hub.example/a,b>; rel=\"hub\"; title=\"x, <y>\""}, "https://hub.example/a,b", ""},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.values.front());
    const auto links = websub_links(c.values, k_base);
    EXPECT_EQ(links.hub, c.hub);
    EXPECT_EQ(links.self, c.self);
  }
}

TEST(WebSubLinks, SkipsWhatIsNotAHubOrSelfOfThisResource) {
  const std::vector<std::string> refused[] = {
      {""},
      {"https://hub.example/; rel=hub"},                  // no <target>
      {"<https://hub.example/; rel=hub"},                 // unclosed
      {"<https://hub.example/>; rel=\"next\""},           // another relation
      {"<https://hub.example/>; anchor=\"#x\"; rel=hub"}, // of another resource
      {"<ftp://hub.example/>; rel=hub"},                  // not http(s)
      {"<https://hub.example/>; rel=next; rel=hub"},      // a second rel is ignored
      {"<https://hub.example/> junk; rel=hub"},           // junk after the target
      {"<https://hub.example/>; relation=hub"},
  };
  for (const auto& values : refused) {
    const auto links = websub_links(values, k_base);
    EXPECT_EQ(links.hub, "") << values.front();
    EXPECT_EQ(links.self, "") << values.front();
  }
  // A malformed link-value does not hide a good one after it.
  EXPECT_EQ(websub_links({"garbage, <https://hub.example/>; rel=hub"}, k_base).hub,
            "https://hub.example/");
}

} // namespace
} // namespace podcrawl::fetch

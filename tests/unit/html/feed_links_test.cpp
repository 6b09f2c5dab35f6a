#include "podcrawl/html/feed_links.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace podcrawl::html {
namespace {

const std::string k_base = "https://example.com/show/episode-1";

TEST(HtmlFindFeedLinks, ReturnsAdvertisedFeedsInDocumentOrder) {
  const std::string page =
      "<html><head>"
      "<link rel=\"stylesheet\" href=\"/style.css\">"
      "<link rel=\"alternate\" type=\"application/rss+xml\" href=\"/feed.rss\">"
      "<link rel=\"alternate\" type=\"text/html\" href=\"/fr/\">"
      "<link rel=\"Alternate Feed\" type=\" Application/Atom+XML; charset=utf-8\" "
      "href=\"atom.xml\">"
      "<link rel=\"alternate\" type=\"application/rss+xml\" href=\"https://cdn.example.net/f\">"
      "</head><body>"
      "<link rel=\"alternate\" type=\"application/rss+xml\" href=\"/feed.rss\">"
      "</body></html>";
  std::vector<std::string> expected = {"https://example.com/feed.rss",
                                       "https://example.com/show/atom.xml",
                                       "https://cdn.example.net/f"};
  EXPECT_EQ(find_feed_links(page, k_base), expected);
}

TEST(HtmlFindFeedLinks, IgnoresLinksThatAreNotHttpFeeds) {
  const std::vector<std::string> pages = {
      "<link rel=\"alternate\" type=\"application/rss+xml\" href=\"javascript:alert(1)\">",
      "<link rel=\"alternate\" type=\"application/rss+xml\" href=\"ftp://example.com/f\">",
      "<link rel=\"alternate\" type=\"application/rss+xml\">",
      "<link rel=\"stylesheet\" type=\"application/rss+xml\" href=\"/f\">",
      "<link rel=\"alternate\" href=\"/f\">",
      "<a rel=\"alternate\" type=\"application/rss+xml\" href=\"/f\">feed</a>",
      "<p>no links at all</p>",
  };
  for (const auto& page : pages) {
    SCOPED_TRACE(page);
    EXPECT_EQ(find_feed_links(page, k_base), std::vector<std::string>{});
  }
}

TEST(HtmlFindFeedLinks, ReturnsAtMostTheBoundedNumberOfLinks) {
  std::string page = "<head>";
  for (std::size_t i = 0; i < k_max_feed_links * 2; ++i) {
    page += "<link rel=\"alternate\" type=\"application/rss+xml\" href=\"/f" + std::to_string(i) +
            "\">";
  }
  auto links = find_feed_links(page, k_base);
  ASSERT_EQ(links.size(), k_max_feed_links);
  EXPECT_EQ(links.front(), "https://example.com/f0");
}

} // namespace
} // namespace podcrawl::html

#include "podcrawl/net/url.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace podcrawl::net {
namespace {

struct ParseCase {
  std::string input;
  std::string scheme;
  std::string userinfo;
  std::string host;
  std::optional<int> port;
  std::string path;
  std::string query;
  bool has_query = false;
  std::string fragment;
};

TEST(UrlParse, SplitsAcceptedUrlsIntoTheirParts) {
  const std::vector<ParseCase> accepted = {
      {"http://example.com", "http", "", "example.com", std::nullopt, "/", "", false, ""},
      {"HTTPS://User:Pw@Example.COM:8443/a/b?x=1#top", "https", "User:Pw", "example.com", 8443,
       "/a/b", "x=1", true, "top"},
      {"  https://example.com/feed.xml \n", "https", "", "example.com", std::nullopt, "/feed.xml",
       "", false, ""},
      {"http://[2001:DB8::1]:8080/x", "http", "", "2001:db8::1", 8080, "/x", "", false, ""},
      {"http://127.0.0.1/", "http", "", "127.0.0.1", std::nullopt, "/", "", false, ""},
      {"http://example.com/?", "http", "", "example.com", std::nullopt, "/", "", true, ""},
      {"http://example.com/a/./b/../c", "http", "", "example.com", std::nullopt, "/a/c", "", false,
       ""},
      {"http://example.com/my file.mp3?q=a b", "http", "", "example.com", std::nullopt,
       "/my%20file.mp3", "q=a%20b", true, ""},
      {"http://example.com/caf\xc3\xa9", "http", "", "example.com", std::nullopt, "/caf%C3%A9", "",
       false, ""},
      {"http://example.com/100%/%7e", "http", "", "example.com", std::nullopt, "/100%25/%7E", "",
       false, ""},
      {"http://b\xc3\xbc\x63her.example/", "http", "", "xn--bcher-kva.example", std::nullopt, "/",
       "", false, ""},
      {"http://\xd9\x85\xd8\xab\xd8\xa7\xd9\x84.example/", "http", "", "xn--mgbh0fb.example",
       std::nullopt, "/", "", false, ""},
      {"http://exa\tmple.com/p\nath", "http", "", "example.com", std::nullopt, "/path", "", false,
       ""},
      {"ftp://files.example.org/pub", "ftp", "", "files.example.org", std::nullopt, "/pub", "",
       false, ""},
  };
  for (const auto& expected : accepted) {
    SCOPED_TRACE(expected.input);
    auto url = parse_url(expected.input);
    ASSERT_TRUE(url.has_value());
    EXPECT_EQ(url->scheme, expected.scheme);
    EXPECT_EQ(url->userinfo, expected.userinfo);
    EXPECT_EQ(url->host, expected.host);
    EXPECT_EQ(url->port, expected.port);
    EXPECT_EQ(url->path, expected.path);
    EXPECT_EQ(url->query, expected.query);
    EXPECT_EQ(url->has_query, expected.has_query);
    EXPECT_EQ(url->fragment, expected.fragment);
  }
}

TEST(UrlParse, RejectsTextThatIsNotAnAbsoluteHierarchicalUrl) {
  const std::vector<std::string> rejected = {
      "",
      "   ",
      "example.com/feed",
      "/relative/path",
      "//example.com/scheme-relative",
      "mailto:someone@example.com",
      "javascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "http:example.com",
      "http://",
      "http:///path",
      "http://example.com:99999/",
      "http://example.com:12ab/",
      "http://exa mple.com/",
      "http://exa<mple.com/",
      "http://[::1/",
      "http://[not-an-address]/",
      "1http://example.com/",
      "http://-bad-.\xd9\x85\xd8\xab/",
      // International hosts whose IDN mapping yields a delimiter or a control character:
      // fullwidth solidus, commercial at, colon and number sign, and a raw control.
      "http://ex\xc3\xa4mple.com\xef\xbc\x8f\x65vil.example/",
      "http://ex\xc3\xa4mple.com\xef\xbc\xa0\x65vil.example/",
      "http://ex\xc3\xa4mple.com\xef\xbc\x9a\x38\x30/",
      "http://ex\xc3\xa4mple.com\xef\xbc\x83x/",
      "http://b\xc3\xbc\x63her\x01.example/",
      "http://example.com/" + std::string(k_max_url_length, 'a'),
  };
  for (const auto& input : rejected) {
    SCOPED_TRACE(input);
    EXPECT_FALSE(parse_url(input).has_value());
  }
}

TEST(UrlParse, AcceptsUrlExactlyAtTheLengthBound) {
  std::string prefix = "http://example.com/";
  std::string url = prefix + std::string(k_max_url_length - prefix.size(), 'a');
  EXPECT_TRUE(parse_url(url).has_value());
  EXPECT_FALSE(parse_url(url + "a").has_value());
}

TEST(UrlToString, BracketsIpv6HostsAndKeepsEveryPart) {
  Url url;
  url.scheme = "http";
  url.userinfo = "user";
  url.host = "::1";
  url.port = 8080;
  url.path = "/p";
  url.query = "q";
  url.has_query = true;
  url.fragment = "f";
  EXPECT_EQ(to_string(url), "http://user@[::1]:8080/p?q#f");
}

TEST(UrlToString, RoundTripsParsedUrls) {
  const std::vector<std::string> urls = {
      "http://example.com/",
      "https://user@example.com:8443/a/b?x=1&y=2#frag",
      "http://[2001:db8::1]/",
      "http://example.com/?",
  };
  for (const auto& text : urls) {
    SCOPED_TRACE(text);
    auto url = parse_url(text);
    ASSERT_TRUE(url.has_value());
    EXPECT_EQ(to_string(*url), text);
  }
}

TEST(UrlNormalize, ProducesTheCanonicalCrawlListForm) {
  const std::vector<std::pair<std::string, std::string>> accepted = {
      {"HTTP://Example.COM", "http://example.com/"},
      {"http://example.com:80/feed", "http://example.com/feed"},
      {"https://example.com:443/feed", "https://example.com/feed"},
      {"http://example.com:443/feed", "http://example.com:443/feed"},
      {"https://example.com:8443/feed", "https://example.com:8443/feed"},
      {"https://example.com/feed.xml#latest", "https://example.com/feed.xml"},
      {"  https://example.com/feed?format=rss  ", "https://example.com/feed?format=rss"},
      {"https://M\xc3\x9cNCHEN.example/rss", "https://xn--mnchen-3ya.example/rss"},
      {"https://xn--mnchen-3ya.example/rss", "https://xn--mnchen-3ya.example/rss"},
      {"https://example.com/a/../b/./feed", "https://example.com/b/feed"},
      {"https://example.com/my feed.xml", "https://example.com/my%20feed.xml"},
      {"https://example.com/%c3%a9", "https://example.com/%C3%A9"},
  };
  for (const auto& [input, expected] : accepted) {
    SCOPED_TRACE(input);
    auto normalized = normalize_feed_url(input);
    ASSERT_TRUE(normalized.has_value());
    EXPECT_EQ(*normalized, expected);
  }
}

TEST(UrlNormalize, RejectsEverythingButHttpAndHttps) {
  const std::vector<std::string> rejected = {
      "ftp://example.com/feed", "file:///etc/passwd", "javascript:alert(1)",
      "feed://example.com/rss", "example.com/feed",   "",
  };
  for (const auto& input : rejected) {
    SCOPED_TRACE(input);
    EXPECT_FALSE(normalize_feed_url(input).has_value());
  }
  // Feed URLs are bounded by what the crawl list's unique index can hold.
  const std::string prefix = "https://example.com/";
  const std::string longest = prefix + std::string(k_max_feed_url_length - prefix.size(), 'a');
  EXPECT_EQ(normalize_feed_url(longest), longest);
  EXPECT_FALSE(normalize_feed_url(longest + "a").has_value());
}

TEST(UrlNormalize, IsIdempotent) {
  const std::vector<std::string> inputs = {
      "HTTP://Example.COM:80/a b/../c?x=%7e#f",
      "https://B\xc3\xbc\x63her.example/feed",
  };
  for (const auto& input : inputs) {
    SCOPED_TRACE(input);
    auto once = normalize_feed_url(input);
    ASSERT_TRUE(once.has_value());
    EXPECT_EQ(normalize_feed_url(*once), once);
  }
}

// RFC 3986 section 5.4, base "http://a/b/c/d;p?q". Results go through to_string, so an empty
// path reads "/" ("//g" gives "http://g/"); the empty reference resolves to empty by contract.
TEST(UrlResolve, FollowsRfc3986NormalExamples) {
  const std::string base = "http://a/b/c/d;p?q";
  const std::vector<std::pair<std::string, std::string>> examples = {
      {"g:h", "g:h"},
      {"g", "http://a/b/c/g"},
      {"./g", "http://a/b/c/g"},
      {"g/", "http://a/b/c/g/"},
      {"/g", "http://a/g"},
      {"//g", "http://g/"},
      {"?y", "http://a/b/c/d;p?y"},
      {"g?y", "http://a/b/c/g?y"},
      {"#s", "http://a/b/c/d;p?q#s"},
      {"g#s", "http://a/b/c/g#s"},
      {"g?y#s", "http://a/b/c/g?y#s"},
      {";x", "http://a/b/c/;x"},
      {"g;x", "http://a/b/c/g;x"},
      {"g;x?y#s", "http://a/b/c/g;x?y#s"},
      {"", ""},
      {".", "http://a/b/c/"},
      {"./", "http://a/b/c/"},
      {"..", "http://a/b/"},
      {"../", "http://a/b/"},
      {"../g", "http://a/b/g"},
      {"../..", "http://a/"},
      {"../../", "http://a/"},
      {"../../g", "http://a/g"},
  };
  for (const auto& [reference, expected] : examples) {
    SCOPED_TRACE(reference);
    EXPECT_EQ(resolve(base, reference), expected);
  }
}

TEST(UrlResolve, FollowsRfc3986AbnormalExamples) {
  const std::string base = "http://a/b/c/d;p?q";
  const std::vector<std::pair<std::string, std::string>> examples = {
      {"../../../g", "http://a/g"},
      {"../../../../g", "http://a/g"},
      {"/./g", "http://a/g"},
      {"/../g", "http://a/g"},
      {"g.", "http://a/b/c/g."},
      {".g", "http://a/b/c/.g"},
      {"g..", "http://a/b/c/g.."},
      {"..g", "http://a/b/c/..g"},
      {"./../g", "http://a/b/g"},
      {"./g/.", "http://a/b/c/g/"},
      {"g/./h", "http://a/b/c/g/h"},
      {"g/../h", "http://a/b/c/h"},
      {"g;x=1/./y", "http://a/b/c/g;x=1/y"},
      {"g;x=1/../y", "http://a/b/c/y"},
      {"g?y/./x", "http://a/b/c/g?y/./x"},
      {"g?y/../x", "http://a/b/c/g?y/../x"},
      {"g#s/./x", "http://a/b/c/g#s/./x"},
      {"g#s/../x", "http://a/b/c/g#s/../x"},
      {"http:g", "http:g"},
  };
  for (const auto& [reference, expected] : examples) {
    SCOPED_TRACE(reference);
    EXPECT_EQ(resolve(base, reference), expected);
  }
}

TEST(UrlResolve, MakesFeedLinksAbsolute) {
  const std::vector<std::tuple<std::string, std::string, std::string>> cases = {
      {"https://example.com/show/", "episode 1.mp3", "https://example.com/show/episode%201.mp3"},
      {"https://example.com/show/index.html", "  /feed.xml ", "https://example.com/feed.xml"},
      {"https://example.com/a", "//cdn.example.net/x.jpg", "https://cdn.example.net/x.jpg"},
      {"https://example.com/a", "HTTP://Other.example/Y", "http://other.example/Y"},
      {"https://example.com/a", "mailto:host@example.com", "mailto:host@example.com"},
      {"not a url", " relative/x ", "relative/x"},
      {"", "/x", "/x"},
  };
  for (const auto& [base, reference, expected] : cases) {
    SCOPED_TRACE(base + " + " + reference);
    EXPECT_EQ(resolve(base, reference), expected);
  }
}

TEST(UrlResolve, LeavesNonHttpSchemesVisibleToCallers) {
  // A caller filtering schemes must see the real scheme even when tabs or newlines split it.
  EXPECT_EQ(resolve("https://example.com/", "java\tscript:alert(1)"), "javascript:alert(1)");
  EXPECT_EQ(resolve("https://example.com/", " JaVaScRiPt:alert(1)"), "JaVaScRiPt:alert(1)");
}

TEST(UrlRemoveDotSegments, MatchesRfc3986Examples) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"/a/b/c/./../../g", "/a/g"},
      {"mid/content=5/../6", "mid/6"},
      {"/..", "/"},
      {"/.", "/"},
      {"../a", "a"},
      {"./a", "a"},
      {"/a/b/..", "/a/"},
      {"", ""},
  };
  for (const auto& [path, expected] : cases) {
    SCOPED_TRACE(path);
    EXPECT_EQ(remove_dot_segments(path), expected);
  }
}

TEST(UrlIsHttp, AcceptsOnlyAbsoluteHttpAndHttps) {
  EXPECT_TRUE(is_http_url("http://example.com"));
  EXPECT_TRUE(is_http_url("HTTPS://example.com/x"));
  EXPECT_FALSE(is_http_url("ftp://example.com/"));
  EXPECT_FALSE(is_http_url("/feed.xml"));
  EXPECT_FALSE(is_http_url("javascript:alert(1)"));
}

TEST(UrlRedact, RemovesCredentialsAndNothingElse) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"https://user:secret@example.com/feed", "https://example.com/feed"},
      {"https://token@example.com:8443/f?x=1", "https://example.com:8443/f?x=1"},
      {"https://example.com/feed?user=a@b", "https://example.com/feed?user=a@b"},
      {"https://u:p@exa mple.com/", "https://exa mple.com/"},
      {"no credentials here", "no credentials here"},
  };
  for (const auto& [input, expected] : cases) {
    SCOPED_TRACE(input);
    EXPECT_EQ(redact(input), expected);
  }
}

} // namespace
} // namespace podcrawl::net

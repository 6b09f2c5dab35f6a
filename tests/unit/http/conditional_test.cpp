#include "podcrawl/http/conditional.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace podcrawl::http {
namespace {

constexpr std::int64_t k_rfc_example = 784111777; // Sun, 06 Nov 1994 08:49:37 GMT

TEST(HttpEtag, IsQuotedStableAndDependsOnEveryByte) {
  const std::string tag = strong_etag("<p>hello</p>");
  EXPECT_EQ(tag, strong_etag("<p>hello</p>"));
  EXPECT_EQ(tag.front(), '"');
  EXPECT_EQ(tag.back(), '"');
  EXPECT_EQ(tag.find('"', 1), tag.size() - 1);
  EXPECT_NE(tag, strong_etag("<p>hellO</p>"));
  EXPECT_NE(strong_etag(""), strong_etag(std::string(1, '\0')));
  EXPECT_EQ(strong_etag(""), "\"1e90fe102805b64e-0\"");
}

struct MatchCase {
  std::string if_none_match;
  std::string etag;
  bool expected;
};

TEST(HttpEtag, MatchesIfNoneMatchByWeakComparison) {
  const std::vector<MatchCase> cases = {
      {"\"abc\"", "\"abc\"", true},
      {"W/\"abc\"", "\"abc\"", true},
      {"\"abc\"", "W/\"abc\"", true},
      {"W/\"abc\"", "W/\"abc\"", true},
      {"*", "\"abc\"", true},
      {"\"x\", \"abc\"", "\"abc\"", true},
      {"\"x\",W/\"abc\"", "\"abc\"", true},
      {"  ,, \"abc\" ,", "\"abc\"", true},
      {"\"a,b\"", "\"a,b\"", true},
      {"\"\"", "\"\"", true},
      {"\"abd\"", "\"abc\"", false},
      {"\"ABC\"", "\"abc\"", false},
      {"abc", "\"abc\"", false},
      {"\"abc", "\"abc\"", false},
      {"", "\"abc\"", false},
      {"\"x\" junk, \"abc\"", "\"abc\"", false}, // malformed from "junk" on
      {"w/\"abc\"", "\"abc\"", false},           // the weak marker is case-sensitive
      {"\"a\", \"b\"", "", false},
  };
  for (const auto& [if_none_match, etag, expected] : cases) {
    EXPECT_EQ(etag_matches(if_none_match, etag), expected) << if_none_match << " vs " << etag;
  }
}

struct DateCase {
  std::int64_t seconds;
  std::string text;
};

TEST(HttpDate, FormatsImfFixdate) {
  const std::vector<DateCase> cases = {
      {0, "Thu, 01 Jan 1970 00:00:00 GMT"},
      {k_rfc_example, "Sun, 06 Nov 1994 08:49:37 GMT"},
      {951782400, "Tue, 29 Feb 2000 00:00:00 GMT"},
      {1767225599, "Wed, 31 Dec 2025 23:59:59 GMT"},
      {-86400, "Thu, 01 Jan 1970 00:00:00 GMT"},
      {253402300799 + 1000, "Fri, 31 Dec 9999 23:59:59 GMT"},
  };
  for (const auto& [seconds, text] : cases) {
    EXPECT_EQ(http_date(seconds), text) << seconds;
  }
}

TEST(HttpDate, ParsesTheThreeFormsOfRfc9110) {
  const std::vector<DateCase> cases = {
      {k_rfc_example, "Sun, 06 Nov 1994 08:49:37 GMT"},
      {k_rfc_example, "Sunday, 06-Nov-94 08:49:37 GMT"},
      {k_rfc_example, "Sun Nov  6 08:49:37 1994"},
      {k_rfc_example, "  Sun, 06 Nov 1994 08:49:37 GMT\t"},
      {k_rfc_example, "Mon, 06 Nov 1994 08:49:37 GMT"}, // the weekday is not checked
      {1130661600, "Sunday, 30-Oct-05 08:40:00 GMT"},
      {951782400, "Tue Feb 29 00:00:00 2000"},
      {0, "Thu, 01 Jan 1970 00:00:00 GMT"},
  };
  for (const auto& [seconds, text] : cases) {
    EXPECT_EQ(parse_http_date(text), seconds) << text;
  }
}

TEST(HttpDate, RejectsAnythingElse) {
  const std::vector<std::string> cases = {
      "",
      "Sun, 06 Nov 1994 08:49:37 UTC",
      "Sun, 06 Nov 1994 08:49:37 GMTX",
      "Sun, 6 Nov 1994 08:49:37 GMT",
      "Sun, 06 nov 1994 08:49:37 GMT",
      "Sun, 31 Feb 1994 08:49:37 GMT",
      "Sun, 29 Feb 1900 08:49:37 GMT",
      "Sun, 06 Nov 1994 24:00:00 GMT",
      "Sun, 06 Nov 1994 08:60:00 GMT",
      "Sun, 06 Nov 94 08:49:37 GMT",
      "1994-11-06T08:49:37Z",
      "784111777",
      "Sun Nov 6 08:49:37 1994",
      "Sun, 06 Nov 1994 08:49:37 GMT, Mon, 07 Nov 1994 08:49:37 GMT",
  };
  for (const auto& text : cases) {
    EXPECT_EQ(parse_http_date(text), std::nullopt) << text;
  }
}

TEST(HttpDate, ParsesWhatItFormats) {
  for (const std::int64_t seconds : {0LL, 1LL, 86399LL, 951868799LL, 1767225600LL, 4102444800LL}) {
    EXPECT_EQ(parse_http_date(http_date(seconds)), seconds) << seconds;
  }
}

Request get(std::vector<std::pair<std::string, std::string>> headers, std::string method = "GET") {
  Request request;
  request.method = std::move(method);
  request.path = "/";
  request.headers = std::move(headers);
  return request;
}

TEST(HttpNotModified, LetsIfNoneMatchDecideOverIfModifiedSince) {
  const std::string etag = "\"v1\"";
  const std::int64_t modified = k_rfc_example;
  const std::string before = http_date(modified - 60);
  const std::string at = http_date(modified);
  struct Case {
    Request request;
    bool expected;
  };
  const std::vector<Case> cases = {
      {get({}), false},
      {get({{"If-None-Match", "\"v1\""}}), true},
      {get({{"if-none-match", "W/\"v1\""}}), true},
      {get({{"If-None-Match", "\"v0\""}}), false},
      {get({{"If-None-Match", "\"v0\""}, {"If-None-Match", "\"v1\""}}), true},
      {get({{"If-Modified-Since", at}}), true},
      {get({{"If-Modified-Since", http_date(modified + 1)}}), true},
      {get({{"If-Modified-Since", before}}), false},
      {get({{"If-Modified-Since", "yesterday"}}), false},
      {get({{"If-None-Match", "\"v0\""}, {"If-Modified-Since", at}}), false},
      {get({{"If-None-Match", "\"v1\""}, {"If-Modified-Since", before}}), true},
      {get({{"If-None-Match", "\"v1\""}}, "HEAD"), true},
      {get({{"If-None-Match", "\"v1\""}}, "POST"), false},
      {get({{"If-Modified-Since", at}}, "DELETE"), false},
  };
  for (const auto& [request, expected] : cases) {
    EXPECT_EQ(not_modified(request, etag, modified), expected)
        << request.method << " " << (request.headers.empty() ? "" : request.headers[0].second);
  }
}

TEST(HttpNotModified, IgnoresIfModifiedSinceWhenTheTimeIsUnknown) {
  EXPECT_FALSE(not_modified(get({{"If-Modified-Since", http_date(k_rfc_example)}}), "\"v1\"", -1));
}

} // namespace
} // namespace podcrawl::http

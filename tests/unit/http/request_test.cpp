#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "podcrawl/http/server.hpp"
#include "request_internal.hpp"

namespace podcrawl::http::internal {
namespace {

struct TargetCase {
  std::string target;
  std::string path;
  std::string query;
};

Request request_for(std::string method = "GET") {
  Request request;
  request.method = std::move(method);
  request.headers = {{"Host", "podcasts.example"}};
  return request;
}

TEST(HttpRequestCheck, KeepsThePathAndQueryAsSent) {
  const std::vector<TargetCase> cases = {
      {"/", "/", ""},
      {"/en/shows/", "/en/shows/", ""},
      {"/a%20b/../c", "/a%20b/../c", ""},
      {"/search?q=caf%C3%A9+noir&page=2", "/search", "q=caf%C3%A9+noir&page=2"},
      {"/?", "/", ""},
      {"/x?a?b", "/x", "a?b"},
      {"http://podcasts.example/en/?x", "/en/", "x"},
      {"HTTPS://podcasts.example", "/", ""},
      {"http://podcasts.example?x=1", "/", "x=1"},
  };
  for (const auto& [target, path, query] : cases) {
    Request request = request_for();
    EXPECT_EQ(check_request(request, target, Limits{}), std::nullopt) << target;
    EXPECT_EQ(request.path, path) << target;
    EXPECT_EQ(request.query, query) << target;
  }
}

TEST(HttpRequestCheck, RefusesMalformedTargetsAndMethodsWith400) {
  struct Case {
    std::string method;
    std::string target;
  };
  const std::vector<Case> cases = {
      {"GET", ""},        {"GET", "*"},        {"GET", "en/"},
      {"GET", "/a#frag"}, {"GET", "/a\x01"},   {"GET", "/caf\xc3\xa9"},
      {"GET", "/a b"},    {"G@T", "/"},        {"", "/"},
      {"GE T", "/"},      {"GET", "ftp://x/"},
  };
  for (const auto& [method, target] : cases) {
    Request request = request_for(method);
    const auto refusal = check_request(request, target, Limits{});
    ASSERT_TRUE(refusal) << method << " " << target;
    EXPECT_EQ(refusal->status, 400) << method << " " << target;
  }
}

TEST(HttpRequestCheck, AllowsPostOnlyWhenTheServerReadsBodies) {
  Limits limits;
  limits.post = true;
  Request post = request_for("POST");
  EXPECT_FALSE(check_request(post, "/", limits));
  Request put = request_for("PUT");
  const auto refusal = check_request(put, "/", limits);
  ASSERT_TRUE(refusal);
  EXPECT_EQ(refusal->status, 405);
  Request answer_headers;
  answer_headers.headers = refusal->headers;
  EXPECT_EQ(answer_headers.header("allow"), "GET, HEAD, POST");
}

TEST(HttpRequestCheck, AllowsOnlyGetAndHead) {
  for (const std::string method : {"POST", "PUT", "DELETE", "OPTIONS", "PATCH", "get", "BREW"}) {
    Request request = request_for(method);
    const auto refusal = check_request(request, "/", Limits{});
    ASSERT_TRUE(refusal) << method;
    EXPECT_EQ(refusal->status, 405);
    Request answer_headers;
    answer_headers.headers = refusal->headers;
    EXPECT_EQ(answer_headers.header("allow"), "GET, HEAD");
  }
  for (const std::string method : {"GET", "HEAD"}) {
    Request request = request_for(method);
    EXPECT_EQ(check_request(request, "/", Limits{}), std::nullopt) << method;
  }
}

TEST(HttpRequestCheck, BoundsTheHeaderSection) {
  const Limits limits{2048};
  Request request = request_for();
  request.headers.emplace_back("Cookie", std::string(1900, 'c'));
  EXPECT_EQ(check_request(request, "/", limits), std::nullopt);
  request.headers.emplace_back("X-More", std::string(200, 'm'));
  ASSERT_TRUE(check_request(request, "/", limits));
  EXPECT_EQ(check_request(request, "/", limits)->status, 431);

  Request long_target = request_for();
  EXPECT_EQ(check_request(long_target, "/" + std::string(2047, 'p'), limits)->status, 414);
}

TEST(HttpRequestHeader, FindsFieldsIgnoringCaseAndJoinsRepeats) {
  Request request;
  request.headers = {{"Accept-Encoding", "gzip"},
                     {"If-None-Match", "\"a\""},
                     {"if-none-match", "\"b\""},
                     {"X-Empty", ""}};
  EXPECT_EQ(request.header("accept-encoding"), "gzip");
  EXPECT_EQ(request.header("ACCEPT-ENCODING"), "gzip");
  EXPECT_EQ(request.header("If-None-Match"), "\"a\", \"b\"");
  EXPECT_EQ(request.header("X-Empty"), "");
  EXPECT_EQ(request.header("Accept"), "");
}

TEST(HttpRequestHeader, LeavesOutWhatTheServerWritesItself) {
  for (const std::string name :
       {"Content-Length", "content-length", "Date", "Connection", "Transfer-Encoding"}) {
    EXPECT_TRUE(server_owned_header(name)) << name;
  }
  for (const std::string name : {"Content-Type", "ETag", "Cache-Control", "Vary"}) {
    EXPECT_FALSE(server_owned_header(name)) << name;
  }
}

} // namespace
} // namespace podcrawl::http::internal

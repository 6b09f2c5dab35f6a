#include "podcrawl/fetch/fetcher.hpp"

#include <gtest/gtest.h>

#include "fetch_test_helpers.hpp"
#include "support/loopback_server.hpp"

namespace podcrawl::fetch {
namespace {

TEST(Fetch, ReturnsTheBodyAndValidators) {
  testing::LoopbackServer server;
  server.serve_feed("/feed.xml", "<rss/>", "application/rss+xml; charset=utf-8", "\"v1\"");
  const auto result = fetch(request(server.url("/feed.xml")), loopback_config());
  ASSERT_EQ(result.outcome, FetchOutcome::ok) << result.error;
  EXPECT_EQ(result.http_status, 200);
  EXPECT_EQ(result.body, "<rss/>");
  EXPECT_EQ(result.etag, "\"v1\"");
  EXPECT_EQ(result.last_modified, "Tue, 01 Dec 2026 10:00:00 GMT");
  EXPECT_EQ(result.content_type, "application/rss+xml; charset=utf-8");
  EXPECT_TRUE(result.permanent_url.empty());
  // What it cost: a time, and at least the body and a status line.
  EXPECT_GE(result.seconds, 0.0);
  EXPECT_GT(result.received_bytes, 6 + 12);
}

TEST(Fetch, SendsConditionalHeadersAndReports304) {
  testing::LoopbackServer server;
  server.serve_feed("/feed.xml", "<rss/>", "application/rss+xml", "\"v1\"");
  FetchRequest conditional = request(server.url("/feed.xml"));
  conditional.etag = "\"v1\"";
  conditional.last_modified = "Tue, 01 Dec 2026 10:00:00 GMT";
  const auto result = fetch(conditional, loopback_config());
  EXPECT_EQ(result.outcome, FetchOutcome::not_modified);
  EXPECT_TRUE(result.body.empty());
  const auto seen = server.requests();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].headers.at("if-none-match"), "\"v1\"");
  EXPECT_EQ(seen[0].headers.at("if-modified-since"), "Tue, 01 Dec 2026 10:00:00 GMT");
  EXPECT_NE(seen[0].headers.at("user-agent").find("podcrawl"), std::string::npos);
  for (const char* encoding : {"gzip", "br", "zstd"}) {
    EXPECT_NE(seen[0].headers.at("accept-encoding").find(encoding), std::string::npos) << encoding;
  }
}

TEST(Fetch, RefusesLoopbackUnlessPrivateNetworksAreAllowed) {
  testing::LoopbackServer server;
  server.serve_feed("/feed.xml", "<rss/>", "application/rss+xml", "\"v1\"");
  core::FetchConfig config = loopback_config();
  config.allow_private_networks = false;
  const auto result = fetch(request(server.url("/feed.xml")), config);
  EXPECT_EQ(result.outcome, FetchOutcome::refused);
  EXPECT_NE(result.error.find("127.0.0.1"), std::string::npos);
  EXPECT_EQ(server.count("/feed.xml"), 0);
  EXPECT_EQ(result.received_bytes, 0);
}

TEST(Fetch, RefusesLoopbackWrittenInOtherSpellings) {
  testing::LoopbackServer server;
  server.serve_feed("/feed.xml", "<rss/>", "application/rss+xml", "\"v1\"");
  core::FetchConfig config = loopback_config();
  config.allow_private_networks = false;
  const std::string port = std::to_string(server.port());
  for (const std::string host : {"2130706433", "0x7f.0.0.1", "0177.0.0.1", "127.1", "localhost",
                                 "[::ffff:127.0.0.1]", "[::1]"}) {
    const auto result = fetch(request("http://" + host + ":" + port + "/feed.xml"), config);
    EXPECT_EQ(result.outcome, FetchOutcome::refused) << host << ": " << result.error;
  }
  EXPECT_EQ(server.count("/feed.xml"), 0);
}

TEST(Fetch, RefusesSchemesOtherThanHttp) {
  for (const char* url : {"file:///etc/passwd", "ftp://example.com/feed", "gopher://x/"}) {
    const auto result = fetch(request(url), loopback_config());
    EXPECT_EQ(result.outcome, FetchOutcome::refused) << url;
    EXPECT_EQ(result.seconds, -1.0) << url; // nothing was asked: no latency
  }
}

TEST(Fetch, MarksAChainOfPermanentRedirectsAsAMove) {
  testing::LoopbackServer server;
  server.on_get("/old", [](const testing::Request&, testing::Response& response) {
    response.set_redirect("/older", 301);
  });
  server.on_get("/older", [](const testing::Request&, testing::Response& response) {
    response.set_redirect("/new", 308);
  });
  server.serve_feed("/new", "<rss/>", "application/rss+xml", "\"v1\"");
  const auto result = fetch(request(server.url("/old")), loopback_config());
  ASSERT_EQ(result.outcome, FetchOutcome::ok) << result.error;
  EXPECT_EQ(result.final_url, server.url("/new"));
  EXPECT_EQ(result.permanent_url, server.url("/new"));
}

TEST(Fetch, ATemporaryRedirectAnywhereInTheChainIsNoMove) {
  testing::LoopbackServer server;
  server.on_get("/old", [](const testing::Request&, testing::Response& response) {
    response.set_redirect("/temp", 301);
  });
  server.on_get("/temp", [](const testing::Request&, testing::Response& response) {
    response.set_redirect("/new", 302);
  });
  server.serve_feed("/new", "<rss/>", "application/rss+xml", "\"v1\"");
  const auto result = fetch(request(server.url("/old")), loopback_config());
  ASSERT_EQ(result.outcome, FetchOutcome::ok) << result.error;
  EXPECT_EQ(result.final_url, server.url("/new"));
  EXPECT_TRUE(result.permanent_url.empty());
}

TEST(Fetch, StopsEndlessRedirects) {
  testing::LoopbackServer server;
  server.on_get("/loop", [](const testing::Request&, testing::Response& response) {
    response.set_redirect("/loop", 302);
  });
  core::FetchConfig config = loopback_config();
  config.max_redirects = 3;
  const auto result = fetch(request(server.url("/loop")), config);
  EXPECT_EQ(result.outcome, FetchOutcome::http_error);
  EXPECT_EQ(server.count("/loop"), 4);
}

TEST(Fetch, Reports410AsGoneAndOtherStatusesAsErrors) {
  testing::LoopbackServer server;
  server.on_get(
      "/gone", [](const testing::Request&, testing::Response& response) { response.status = 410; });
  server.on_get("/broken", [](const testing::Request&, testing::Response& response) {
    response.status = 500;
  });
  EXPECT_EQ(fetch(request(server.url("/gone")), loopback_config()).outcome, FetchOutcome::gone);
  const auto broken = fetch(request(server.url("/broken")), loopback_config());
  EXPECT_EQ(broken.outcome, FetchOutcome::http_error);
  EXPECT_EQ(broken.http_status, 500);
  EXPECT_EQ(fetch(request(server.url("/missing")), loopback_config()).http_status, 404);
}

TEST(Fetch, CapsTheBodySize) {
  testing::LoopbackServer server;
  server.serve_feed("/big", std::string(64 * 1024, 'x'), "application/rss+xml", "\"v1\"");
  core::FetchConfig config = loopback_config();
  config.max_body_bytes = 1024;
  EXPECT_EQ(fetch(request(server.url("/big")), config).outcome, FetchOutcome::too_large);
}

TEST(Fetch, DecompressesGzipBodies) {
  testing::LoopbackServer server;
  const std::string body(20000, 'a');
  const std::string compressed = testing::gzip(body);
  ASSERT_LT(compressed.size(), body.size());
  server.on_get("/gz", [&compressed](const testing::Request&, testing::Response& response) {
    response.set_header("Content-Encoding", "gzip");
    response.set_content(compressed, "application/rss+xml");
  });
  const auto result = fetch(request(server.url("/gz")), loopback_config());
  ASSERT_EQ(result.outcome, FetchOutcome::ok) << result.error;
  EXPECT_EQ(result.body, body);
}

TEST(Fetch, CapsTheBodySizeAfterDecompression) {
  testing::LoopbackServer server;
  const std::string body(200000, 'a');
  const std::string compressed = testing::gzip(body);
  server.on_get("/bomb", [&compressed](const testing::Request&, testing::Response& response) {
    response.set_header("Content-Encoding", "gzip");
    response.set_content(compressed, "application/rss+xml");
  });
  core::FetchConfig config = loopback_config();
  config.max_body_bytes = 10000;
  ASSERT_LT(static_cast<std::int64_t>(compressed.size()), config.max_body_bytes);
  EXPECT_EQ(fetch(request(server.url("/bomb")), config).outcome, FetchOutcome::too_large);
}

// A Content-Encoding and the helper that produces it.
struct Compression {
  const char* content_encoding;
  std::string (*compress)(const std::string&);
};
constexpr Compression k_compressions[] = {
    {"gzip", testing::gzip}, {"br", testing::brotli}, {"zstd", testing::zstd}};

// Serve `compressed` at `path` with `content_encoding` and the given status.
void serve_encoded(testing::LoopbackServer& server, const std::string& path,
                   const std::string& content_encoding, std::string compressed, int status = 200) {
  server.on_get(path, [content_encoding, compressed = std::move(compressed), status](
                          const testing::Request&, testing::Response& response) {
    response.status = status;
    response.set_header("Content-Encoding", content_encoding);
    response.set_content(compressed, "application/rss+xml");
  });
}

TEST(Fetch, DecodesEveryEncodingItAsksFor) {
  testing::LoopbackServer server;
  const std::string body = "<rss>" + std::string(20000, 'a') + "</rss>";
  for (const auto& compression : k_compressions) {
    serve_encoded(server, std::string("/") + compression.content_encoding,
                  compression.content_encoding, compression.compress(body));
  }
  for (const auto& compression : k_compressions) {
    SCOPED_TRACE(compression.content_encoding);
    const auto result = fetch(request(server.url(std::string("/") + compression.content_encoding)),
                              loopback_config());
    ASSERT_EQ(result.outcome, FetchOutcome::ok) << result.error;
    EXPECT_EQ(result.body, body);
  }
}

// Regression: libcurl accepted a compressed body cut before its end marker, so a host that cut
// a compressed feed had a partial episode list stored as a good fetch.
TEST(Fetch, ACompressedBodyCutBeforeItsEndIsATruncationFailure) {
  testing::LoopbackServer server;
  std::string body = "<rss>";
  for (int i = 0; i < 2000; ++i) {
    body += "<item><guid>" + std::to_string(i) + "</guid></item>";
  }
  body += "</rss>";
  for (const auto& compression : k_compressions) {
    const std::string compressed = compression.compress(body);
    serve_encoded(server, std::string("/") + compression.content_encoding,
                  compression.content_encoding, compressed.substr(0, compressed.size() / 2));
  }
  for (const auto& compression : k_compressions) {
    SCOPED_TRACE(compression.content_encoding);
    const auto result = fetch(request(server.url(std::string("/") + compression.content_encoding)),
                              loopback_config());
    EXPECT_EQ(result.outcome, FetchOutcome::network_error);
    EXPECT_NE(result.error.find(std::string("truncated ") + compression.content_encoding),
              std::string::npos)
        << result.error;
    EXPECT_TRUE(result.body.empty());
  }
}

TEST(Fetch, CapsBrotliAndZstdBodiesAfterDecompression) {
  testing::LoopbackServer server;
  const std::string body(200000, 'a');
  serve_encoded(server, "/br", "br", testing::brotli(body));
  serve_encoded(server, "/zstd", "zstd", testing::zstd(body));
  core::FetchConfig config = loopback_config();
  config.max_body_bytes = 10000;
  for (const char* path : {"/br", "/zstd"}) {
    const auto result = fetch(request(server.url(path)), config);
    EXPECT_EQ(result.outcome, FetchOutcome::too_large) << path << ": " << result.error;
  }
}

TEST(Fetch, RejectsBodiesItCannotDecode) {
  testing::LoopbackServer server;
  serve_encoded(server, "/compress", "compress", "\x1f\x9d whatever");
  serve_encoded(server, "/stacked", "gzip, br", testing::brotli(testing::gzip("<rss/>")));
  serve_encoded(server, "/garbage", "gzip", std::string(64, '\xff'));
  const struct {
    const char* path;
    FetchOutcome outcome;
    const char* error;
  } cases[] = {
      {"/compress", FetchOutcome::http_error, "unsupported Content-Encoding \"compress\""},
      {"/stacked", FetchOutcome::http_error, "unsupported Content-Encoding \"gzip, br\""},
      {"/garbage", FetchOutcome::network_error, "corrupt gzip body"},
  };
  for (const auto& c : cases) {
    const auto result = fetch(request(server.url(c.path)), loopback_config());
    EXPECT_EQ(result.outcome, c.outcome) << c.path << ": " << result.error;
    EXPECT_EQ(result.error, c.error) << c.path;
  }
}

TEST(Fetch, AnErrorStatusIsReportedWhateverItsBodyEncoding) {
  testing::LoopbackServer server;
  serve_encoded(server, "/missing", "gzip", std::string(64, '\xff'), 404);
  serve_encoded(server, "/odd", "compress", "whatever", 500);
  const auto missing = fetch(request(server.url("/missing")), loopback_config());
  EXPECT_EQ(missing.outcome, FetchOutcome::http_error);
  EXPECT_EQ(missing.http_status, 404);
  const auto odd = fetch(request(server.url("/odd")), loopback_config());
  EXPECT_EQ(odd.outcome, FetchOutcome::http_error);
  EXPECT_EQ(odd.http_status, 500);
}

TEST(Fetch, ReportsConnectionFailuresAsData) {
  core::FetchConfig config = loopback_config();
  config.connect_timeout_seconds = 2;
  int port = 0;
  {
    testing::LoopbackServer closed; // take a port, then free it
    port = closed.port();
  }
  const auto result = fetch(request("http://127.0.0.1:" + std::to_string(port) + "/"), config);
  EXPECT_EQ(result.outcome, FetchOutcome::network_error);
  EXPECT_FALSE(result.error.empty());
}

} // namespace
} // namespace podcrawl::fetch

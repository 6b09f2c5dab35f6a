#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "podcrawl/core/config.hpp"

namespace podcrawl::fetch {

enum class FetchOutcome {
  ok,            // 2xx with a body
  not_modified,  // 304
  gone,          // 410
  http_error,    // any other non-2xx, too many redirects, or a Content-Encoding not decoded
  refused,       // non-public address, or a scheme other than http(s)
  too_large,     // body or headers over their caps (the body counted after decompression)
  network_error, // DNS, connect, TLS, timeout, reset, a compressed body corrupt or cut short
  deferred       // not asked: its host asked for a pause longer than a crawl waits (Retry-After),
                 // or could not be resolved or reached several times in a row
};

const char* to_string(FetchOutcome outcome);

struct FetchRequest {
  std::string url;
  std::string etag;          // sent as If-None-Match when set
  std::string last_modified; // sent as If-Modified-Since when set
};

struct FetchResult {
  FetchOutcome outcome = FetchOutcome::network_error;
  int http_status = 0;
  std::string body;
  std::string content_type;
  std::string etag;
  std::string last_modified;
  std::string final_url;     // after redirects
  std::string permanent_url; // set when every redirect in the chain was 301/308
  std::string error;         // one line, when outcome is not ok / not_modified
  // WebSub: the hub and the topic's own address the 2xx response's Link headers name
  // (websub_links); "" when they name none.
  std::string hub_url;
  std::string self_url;
  std::optional<std::int64_t> retry_after_seconds; // Retry-After of a 429 or 503
  // What the transfer cost: the time its requests took (every hop and retry, as libcurl timed
  // them; not the waits for its host's pace), -1 when none was sent; and the bytes received
  // (headers and body as sent, compressed).
  double seconds = -1;
  std::int64_t received_bytes = 0;
};

// Longest response header block accepted from a server (all headers of one response).
inline constexpr std::size_t k_max_header_bytes = 64 * 1024;

// Fetch one URL under the configured bounds: conditional headers, compressed transfer (gzip,
// deflate, br, zstd; a single Content-Encoding, whose stream must reach its end marker: one
// cut short fails as "truncated gzip body"), at most config.max_redirects hops, each
// connection's address checked against the address policy, body cap after decompression,
// connect/total/low-speed timeouts. Network failures are returned, never thrown. Blocks until
// done.
FetchResult fetch(const FetchRequest& request, const core::FetchConfig& config);

} // namespace podcrawl::fetch

#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "podcrawl/core/config.hpp"

namespace podcrawl::fetch {

enum class FetchOutcome {
  ok,           // 2xx with a body
  not_modified, // 304
  gone,         // 410
  http_error,   // any other non-2xx
  refused,      // private address refused, bad scheme
  too_large,    // body over the cap after decompression
  network_error // DNS, connect, TLS, timeout
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
};

// Fetch one URL with libcurl under the configured bounds: conditional headers, compressed
// transfer, bounded redirects (each hop checked against the address policy), body cap,
// connect/total/low-speed timeouts. Network failures are returned, never thrown.
FetchResult fetch(const FetchRequest& request, const core::FetchConfig& config);

} // namespace podcrawl::fetch

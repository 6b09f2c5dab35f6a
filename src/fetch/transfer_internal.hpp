#pragma once

#include <curl/curl.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "decoder_internal.hpp"
#include "podcrawl/core/config.hpp"
#include "podcrawl/fetch/fetcher.hpp"

namespace podcrawl::fetch::internal {

struct CurlDeleter {
  void operator()(CURL* handle) const { curl_easy_cleanup(handle); }
};
struct SlistDeleter {
  void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};
using CurlHandle = std::unique_ptr<CURL, CurlDeleter>;
using HeaderList = std::unique_ptr<curl_slist, SlistDeleter>;

// What libcurl's callbacks collect during one hop.
struct HopState {
  const core::FetchConfig* config = nullptr;
  std::string body;
  std::string content_type;
  std::string etag;
  std::string last_modified;
  std::string retry_after;
  std::string content_encoding;
  std::vector<std::string> links;       // Link header values, at most k_max_link_headers
  std::unique_ptr<BodyDecoder> decoder; // made when a 2xx body starts, from content_encoding
  std::size_t discarded_bytes = 0;      // body bytes of a response that is not 2xx
  std::size_t header_bytes = 0;
  bool body_too_large = false;
  std::string body_error; // set when the body could not be decoded; the hop then fails
  FetchOutcome body_error_outcome = FetchOutcome::network_error;
  bool headers_too_large = false;
  std::string refused_address; // set when the address policy refused the connection
};

// One request to one URL: the easy handle, its request headers and its collected state. The
// handle's callbacks point into `state`, so a Hop never moves once created.
struct Hop {
  std::string url;
  CurlHandle curl;
  HeaderList headers;
  HopState state;
};

// Create and configure the easy handle for one hop of `request` to `url`. Returns nullptr when
// libcurl cannot allocate a handle.
std::unique_ptr<Hop> make_hop(const FetchRequest& request, const std::string& url,
                              const core::FetchConfig& config);

// How a finished hop ends: a result, or a redirect to follow.
struct HopEnd {
  std::optional<FetchResult> result;
  std::string next_url;
  bool permanent = false; // the redirect was 301 or 308
};

// Judge a finished hop from libcurl's result code and what the callbacks collected.
HopEnd finish_hop(Hop& hop, CURLcode code);

// A FetchResult for a transfer that ended without a usable response.
FetchResult failure(FetchOutcome outcome, std::string error, const std::string& url);

// Seconds to wait from a Retry-After value (delta-seconds or an HTTP date) seen at `now`;
// nullopt when it is neither. Never negative.
std::optional<std::int64_t> parse_retry_after(const std::string& value, std::int64_t now);

// Call curl_global_init once per process.
void ensure_global_init();

} // namespace podcrawl::fetch::internal

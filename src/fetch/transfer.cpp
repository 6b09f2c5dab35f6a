#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <mutex>

#include "podcrawl/core/ascii.hpp"
#include "podcrawl/core/time.hpp"
#include "podcrawl/fetch/link_header.hpp"
#include "podcrawl/net/address.hpp"
#include "podcrawl/net/url.hpp"
#include "transfer_internal.hpp"

namespace podcrawl::fetch::internal {

namespace {

// Every Content-Encoding that on_body decodes.
constexpr const char* k_accept_encoding = "gzip, deflate, br, zstd";

bool is_success(long status) {
  return status >= 200 && status < 300;
}

long response_status(CURL* curl) {
  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  return status;
}

// Make the decoder for the response's Content-Encoding; false (and the hop failed) when podcrawl
// does not know the encoding.
bool start_decoder(HopState& state) {
  state.decoder = make_decoder(state.content_encoding);
  if (!state.decoder) {
    state.body_error = "unsupported Content-Encoding \"" + state.content_encoding + "\"";
    state.body_error_outcome = FetchOutcome::http_error;
    return false;
  }
  return true;
}

// Returning anything but `bytes` aborts the transfer with CURLE_WRITE_ERROR.
std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
  auto* hop = static_cast<Hop*>(user);
  HopState& state = hop->state;
  const std::size_t bytes = size * count;
  const auto max_bytes = static_cast<std::size_t>(state.config->max_body_bytes);
  if (!is_success(response_status(hop->curl.get()))) {
    // The body of a redirect or an error is never used: counted against the cap, not kept.
    state.discarded_bytes += bytes;
    state.body_too_large = state.discarded_bytes > max_bytes;
    return state.body_too_large ? 0 : bytes;
  }
  if (!state.decoder && !start_decoder(state)) {
    return 0;
  }
  switch (state.decoder->write(std::string_view(data, bytes), state.body, max_bytes)) {
    case DecodeStatus::ok:
      return bytes;
    case DecodeStatus::too_large:
      state.body_too_large = true;
      return 0;
    case DecodeStatus::corrupt:
      state.body_error = "corrupt " + std::string(state.decoder->name()) + " body";
      return 0;
  }
  return 0;
}

std::size_t on_header(char* data, std::size_t size, std::size_t count, void* user) {
  auto* state = static_cast<HopState*>(user);
  const std::size_t bytes = size * count;
  state->header_bytes += bytes;
  if (state->header_bytes > k_max_header_bytes) {
    state->headers_too_large = true;
    return 0;
  }
  const std::string_view line(data, bytes);
  if (line.starts_with("HTTP/")) {
    // A new response (after 100 Continue or a proxy): forget the previous headers.
    state->content_type.clear();
    state->etag.clear();
    state->last_modified.clear();
    state->retry_after.clear();
    state->content_encoding.clear();
    state->links.clear();
    return bytes;
  }
  const auto colon = line.find(':');
  if (colon == std::string_view::npos) {
    return bytes;
  }
  const std::string name = core::ascii_lower(line.substr(0, colon));
  std::string value(core::trim(line.substr(colon + 1)));
  if (name == "content-type") {
    state->content_type = std::move(value);
  } else if (name == "etag") {
    state->etag = std::move(value);
  } else if (name == "last-modified") {
    state->last_modified = std::move(value);
  } else if (name == "retry-after") {
    state->retry_after = std::move(value);
  } else if (name == "content-encoding") {
    state->content_encoding = std::move(value);
  } else if (name == "link" && state->links.size() < k_max_link_headers) {
    state->links.push_back(std::move(value));
  }
  return bytes;
}

// Called by libcurl with the resolved address before every connect: the policy judges the
// address the socket will really reach, so neither DNS answers (rebinding included) nor
// redirects nor unusual IPv4 spellings can get around it.
curl_socket_t on_open_socket(void* user, curlsocktype, curl_sockaddr* address) {
  auto* state = static_cast<HopState*>(user);
  if (!state->config->allow_private_networks) {
    char text[INET6_ADDRSTRLEN] = {};
    if (address->family == AF_INET) {
      const auto* in = reinterpret_cast<const sockaddr_in*>(&address->addr);
      inet_ntop(AF_INET, &in->sin_addr, text, sizeof text);
    } else if (address->family == AF_INET6) {
      const auto* in6 = reinterpret_cast<const sockaddr_in6*>(&address->addr);
      inet_ntop(AF_INET6, &in6->sin6_addr, text, sizeof text);
    }
    const auto& allowed = state->config->allowed_private_addresses;
    if (net::is_non_public_address(text) &&
        std::find(allowed.begin(), allowed.end(), std::string_view(text)) == allowed.end()) {
      state->refused_address = text[0] != '\0' ? text : "an unknown address";
      return CURL_SOCKET_BAD;
    }
  }
  // Close-on-exec, as curl's own sockets are: a child process (the image helper) must not
  // hold a connection to a feed's host.
  return socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
}

HeaderList request_headers(const FetchRequest& request) {
  curl_slist* list = nullptr;
  const auto append = [&list](const std::string& header) {
    if (curl_slist* grown = curl_slist_append(list, header.c_str()); grown != nullptr) {
      list = grown;
    }
  };
  append(
      "Accept: application/rss+xml, application/atom+xml, application/xml;q=0.9, "
      "text/xml;q=0.9, */*;q=0.5");
  if (!request.etag.empty()) {
    append("If-None-Match: " + request.etag);
  }
  if (!request.last_modified.empty()) {
    append("If-Modified-Since: " + request.last_modified);
  }
  return HeaderList(list);
}

void configure(Hop& hop) {
  CURL* curl = hop.curl.get();
  const core::FetchConfig& config = *hop.state.config;
  curl_easy_setopt(curl, CURLOPT_URL, hop.url.c_str());
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L); // hops are walked by the caller
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_USERAGENT, config.user_agent.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, hop.headers.get());
  // Compressed bodies are decoded by on_body, not libcurl, which accepts streams cut short.
  curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, k_accept_encoding);
  curl_easy_setopt(curl, CURLOPT_HTTP_CONTENT_DECODING, 0L);
  curl_easy_setopt(curl, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_2TLS));
  curl_easy_setopt(curl, CURLOPT_PIPEWAIT, 1L);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, config.connect_timeout_seconds);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT, config.total_timeout_seconds);
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, config.low_speed_bytes_per_second);
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, config.low_speed_seconds);
  curl_easy_setopt(curl, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(config.max_body_bytes));
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &hop);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &hop.state);
  curl_easy_setopt(curl, CURLOPT_OPENSOCKETFUNCTION, on_open_socket);
  curl_easy_setopt(curl, CURLOPT_OPENSOCKETDATA, &hop.state);
  curl_easy_setopt(curl, CURLOPT_PRIVATE, &hop);
}

FetchResult from_response(int status, Hop& hop) {
  FetchResult result;
  result.http_status = status;
  result.final_url = hop.url;
  result.content_type = std::move(hop.state.content_type);
  result.etag = std::move(hop.state.etag);
  result.last_modified = std::move(hop.state.last_modified);
  if (status == 304) {
    result.outcome = FetchOutcome::not_modified;
  } else if (status == 410) {
    result.outcome = FetchOutcome::gone;
    result.error = "HTTP 410 Gone";
  } else if (is_success(status)) {
    result.outcome = FetchOutcome::ok;
    result.body = std::move(hop.state.body);
    auto links = websub_links(hop.state.links, hop.url);
    result.hub_url = std::move(links.hub);
    result.self_url = std::move(links.self);
  } else {
    result.outcome = FetchOutcome::http_error;
    result.error = "HTTP " + std::to_string(status);
    if (status == 429 || status == 503) {
      result.retry_after_seconds = parse_retry_after(hop.state.retry_after, core::now());
    }
  }
  return result;
}

bool is_redirect(long status) {
  return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

// Why a finished hop has no usable response; nullopt when it has one.
std::optional<FetchResult> hop_failure(const Hop& hop, CURLcode code) {
  const HopState& state = hop.state;
  if (!state.refused_address.empty()) {
    return failure(FetchOutcome::refused,
                   "refused to connect to non-public address " + state.refused_address +
                       " (use --allow-private-networks)",
                   hop.url);
  }
  if (state.body_too_large || code == CURLE_FILESIZE_EXCEEDED) {
    return failure(FetchOutcome::too_large,
                   "body larger than " + std::to_string(state.config->max_body_bytes) + " bytes",
                   hop.url);
  }
  if (state.headers_too_large) {
    return failure(FetchOutcome::too_large,
                   "headers larger than " + std::to_string(k_max_header_bytes) + " bytes", hop.url);
  }
  if (!state.body_error.empty()) {
    return failure(state.body_error_outcome, state.body_error, hop.url);
  }
  if (code != CURLE_OK) {
    return failure(FetchOutcome::network_error, curl_easy_strerror(code), hop.url);
  }
  if (state.decoder && !state.decoder->complete()) {
    return failure(FetchOutcome::network_error,
                   "truncated " + std::string(state.decoder->name()) +
                       " body: the stream ended before its end marker",
                   hop.url);
  }
  return std::nullopt;
}

} // namespace

void ensure_global_init() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

std::unique_ptr<Hop> make_hop(const FetchRequest& request, const std::string& url,
                              const core::FetchConfig& config) {
  ensure_global_init();
  auto hop = std::make_unique<Hop>();
  hop->url = url;
  hop->curl.reset(curl_easy_init());
  if (!hop->curl) {
    return nullptr;
  }
  hop->headers = request_headers(request);
  hop->state.config = &config;
  configure(*hop);
  return hop;
}

FetchResult failure(FetchOutcome outcome, std::string error, const std::string& url) {
  FetchResult result;
  result.outcome = outcome;
  result.error = std::move(error);
  result.final_url = url;
  return result;
}

HopEnd finish_hop(Hop& hop, CURLcode code) {
  HopEnd end;
  end.result = hop_failure(hop, code);
  if (end.result) {
    return end;
  }
  const long status = response_status(hop.curl.get());
  char* location = nullptr;
  curl_easy_getinfo(hop.curl.get(), CURLINFO_REDIRECT_URL, &location);
  if (!is_redirect(status) || location == nullptr) {
    end.result = from_response(static_cast<int>(status), hop);
    return end;
  }
  end.next_url = location;
  end.permanent = status == 301 || status == 308;
  if (!net::is_http_url(end.next_url)) {
    end.result = failure(FetchOutcome::refused, "redirect to a non-http URL", hop.url);
  }
  return end;
}

std::optional<std::int64_t> parse_retry_after(const std::string& value, std::int64_t now) {
  if (value.empty()) {
    return std::nullopt;
  }
  if (std::all_of(value.begin(), value.end(), [](char c) { return core::is_ascii_digit(c); })) {
    if (value.size() > 9) {
      return std::nullopt;
    }
    return std::stoll(value);
  }
  const time_t date = curl_getdate(value.c_str(), nullptr);
  if (date < 0) {
    return std::nullopt;
  }
  return std::max<std::int64_t>(0, static_cast<std::int64_t>(date) - now);
}

} // namespace podcrawl::fetch::internal

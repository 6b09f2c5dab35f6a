#include "podcrawl/fetch/fetcher.hpp"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <mutex>

#include <spdlog/spdlog.h>

#include "podcrawl/net/address.hpp"
#include "podcrawl/net/url.hpp"

namespace podcrawl::fetch {

namespace {

struct CurlDeleter {
  void operator()(CURL* handle) const { curl_easy_cleanup(handle); }
};
struct SlistDeleter {
  void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};
using CurlHandle = std::unique_ptr<CURL, CurlDeleter>;
using HeaderList = std::unique_ptr<curl_slist, SlistDeleter>;

// State of one hop, shared with libcurl's callbacks.
struct Transfer {
  const core::FetchConfig* config = nullptr;
  std::string body;
  std::string content_type;
  std::string etag;
  std::string last_modified;
  bool too_large = false;
  std::string refused_address; // set when the address policy refused the connection
};

void ensure_global_init() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  const std::size_t bytes = size * count;
  if (static_cast<std::int64_t>(transfer->body.size() + bytes) > transfer->config->max_body_bytes) {
    transfer->too_large = true;
    return 0; // aborts the transfer with CURLE_WRITE_ERROR
  }
  transfer->body.append(data, bytes);
  return bytes;
}

std::string trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return std::string(text);
}

std::size_t on_header(char* data, std::size_t size, std::size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  const std::size_t bytes = size * count;
  const std::string_view line(data, bytes);
  if (line.starts_with("HTTP/")) {
    // A new response (after 100 Continue or a proxy): forget the previous headers.
    transfer->content_type.clear();
    transfer->etag.clear();
    transfer->last_modified.clear();
    return bytes;
  }
  const auto colon = line.find(':');
  if (colon == std::string_view::npos) {
    return bytes;
  }
  std::string name(line.substr(0, colon));
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const std::string value = trim(line.substr(colon + 1));
  if (name == "content-type") {
    transfer->content_type = value;
  } else if (name == "etag") {
    transfer->etag = value;
  } else if (name == "last-modified") {
    transfer->last_modified = value;
  }
  return bytes;
}

// Called by libcurl with the resolved address before every connect: the address policy is
// applied to what the connection really reaches, so DNS answers and redirects cannot bypass it.
curl_socket_t on_open_socket(void* user, curlsocktype, curl_sockaddr* address) {
  auto* transfer = static_cast<Transfer*>(user);
  if (!transfer->config->allow_private_networks) {
    char text[INET6_ADDRSTRLEN] = {};
    if (address->family == AF_INET) {
      const auto* in = reinterpret_cast<const sockaddr_in*>(&address->addr);
      inet_ntop(AF_INET, &in->sin_addr, text, sizeof text);
    } else if (address->family == AF_INET6) {
      const auto* in6 = reinterpret_cast<const sockaddr_in6*>(&address->addr);
      inet_ntop(AF_INET6, &in6->sin6_addr, text, sizeof text);
    }
    if (net::is_non_public_address(text)) {
      transfer->refused_address = text[0] != '\0' ? text : "an unknown address";
      return CURL_SOCKET_BAD;
    }
  }
  return socket(address->family, address->socktype, address->protocol);
}

HeaderList request_headers(const FetchRequest& request) {
  curl_slist* list = nullptr;
  const auto append = [&list](const std::string& header) {
    curl_slist* grown = curl_slist_append(list, header.c_str());
    if (grown != nullptr) {
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

void configure(CURL* curl, const std::string& url, Transfer& transfer, curl_slist* headers) {
  const core::FetchConfig& config = *transfer.config;
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L); // redirects are walked by hand below
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_USERAGENT, config.user_agent.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, ""); // every encoding libcurl decodes
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, config.connect_timeout_seconds);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT, config.total_timeout_seconds);
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, config.low_speed_bytes_per_second);
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, config.low_speed_seconds);
  curl_easy_setopt(curl, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(config.max_body_bytes));
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &transfer);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &transfer);
  curl_easy_setopt(curl, CURLOPT_OPENSOCKETFUNCTION, on_open_socket);
  curl_easy_setopt(curl, CURLOPT_OPENSOCKETDATA, &transfer);
}

FetchResult failure(FetchOutcome outcome, std::string error, const std::string& url) {
  FetchResult result;
  result.outcome = outcome;
  result.error = std::move(error);
  result.final_url = url;
  return result;
}

FetchResult from_response(int status, Transfer& transfer, const std::string& url) {
  FetchResult result;
  result.http_status = status;
  result.final_url = url;
  result.content_type = std::move(transfer.content_type);
  result.etag = std::move(transfer.etag);
  result.last_modified = std::move(transfer.last_modified);
  if (status == 304) {
    result.outcome = FetchOutcome::not_modified;
  } else if (status == 410) {
    result.outcome = FetchOutcome::gone;
    result.error = "HTTP 410 Gone";
  } else if (status >= 200 && status < 300) {
    result.outcome = FetchOutcome::ok;
    result.body = std::move(transfer.body);
  } else {
    result.outcome = FetchOutcome::http_error;
    result.error = "HTTP " + std::to_string(status);
  }
  return result;
}

bool is_redirect(long status) {
  return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

} // namespace

const char* to_string(FetchOutcome outcome) {
  switch (outcome) {
    case FetchOutcome::ok:
      return "ok";
    case FetchOutcome::not_modified:
      return "not_modified";
    case FetchOutcome::gone:
      return "gone";
    case FetchOutcome::http_error:
      return "http_error";
    case FetchOutcome::refused:
      return "refused";
    case FetchOutcome::too_large:
      return "too_large";
    case FetchOutcome::network_error:
      return "network_error";
  }
  return "unknown";
}

FetchResult fetch(const FetchRequest& request, const core::FetchConfig& config) {
  ensure_global_init();
  std::string url = request.url;
  if (!net::is_http_url(url)) {
    return failure(FetchOutcome::refused, "only http and https URLs are fetched", url);
  }
  CurlHandle curl(curl_easy_init());
  if (!curl) {
    return failure(FetchOutcome::network_error, "libcurl could not start a transfer", url);
  }
  const HeaderList headers = request_headers(request);
  bool permanent = true;
  for (long hop = 0;; ++hop) {
    Transfer transfer;
    transfer.config = &config;
    curl_easy_reset(curl.get());
    configure(curl.get(), url, transfer, headers.get());
    const CURLcode code = curl_easy_perform(curl.get());
    if (!transfer.refused_address.empty()) {
      return failure(FetchOutcome::refused,
                     "refused to connect to non-public address " + transfer.refused_address +
                         " (use --allow-private-networks)",
                     url);
    }
    if (transfer.too_large || code == CURLE_FILESIZE_EXCEEDED) {
      return failure(FetchOutcome::too_large,
                     "body larger than " + std::to_string(config.max_body_bytes) + " bytes", url);
    }
    if (code != CURLE_OK) {
      return failure(FetchOutcome::network_error, curl_easy_strerror(code), url);
    }
    long status = 0;
    curl_easy_getinfo(curl.get(), CURLINFO_RESPONSE_CODE, &status);
    char* location = nullptr;
    curl_easy_getinfo(curl.get(), CURLINFO_REDIRECT_URL, &location);
    if (!is_redirect(status) || location == nullptr) {
      FetchResult result = from_response(static_cast<int>(status), transfer, url);
      if (hop > 0 && permanent) {
        result.permanent_url = url;
      }
      return result;
    }
    if (hop >= config.max_redirects) {
      return failure(FetchOutcome::http_error,
                     "more than " + std::to_string(config.max_redirects) + " redirects", url);
    }
    permanent = permanent && (status == 301 || status == 308);
    const std::string next = location;
    if (!net::is_http_url(next)) {
      return failure(FetchOutcome::refused, "redirect to a non-http URL", url);
    }
    spdlog::debug("{} redirects ({}) to {}", net::redact(url), status, net::redact(next));
    url = next;
  }
}

} // namespace podcrawl::fetch

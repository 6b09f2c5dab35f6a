#include <arpa/inet.h>
#include <netinet/in.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "podcrawl/core/ascii.hpp"
#include "podcrawl/http/server.hpp"
#include "request_internal.hpp"

namespace podcrawl::http {

namespace {

constexpr std::string_view k_http_version = "HTTP/1.1";

bool starts_with_ignoring_case(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() &&
         core::equals_ignoring_ascii_case(text.substr(0, prefix.size()), prefix);
}

// RFC 9110 section 5.6.2.
bool is_token_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         (c != '\0' && std::strchr("!#$%&'*+-.^_`|~", c) != nullptr);
}

// Visible ASCII; a fragment ('#') is never part of a request target (RFC 9112 section 3.2).
bool is_target_char(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return byte > 0x20 && byte < 0x7f && c != '#';
}

// Split an origin-form or absolute-form target into path and query; false when it is neither.
bool split_target(std::string_view target, Request& request) {
  bool absolute = false;
  for (std::string_view scheme : {"http://", "https://"}) {
    if (starts_with_ignoring_case(target, scheme)) {
      target.remove_prefix(scheme.size());
      target.remove_prefix(std::min(target.find_first_of("/?"), target.size())); // authority
      absolute = true;
      break;
    }
  }
  if (!absolute && (target.empty() || target.front() != '/')) {
    return false;
  }
  if (!std::all_of(target.begin(), target.end(), is_target_char)) {
    return false;
  }
  const std::size_t question = std::min(target.find('?'), target.size());
  request.path.assign(target.substr(0, question));
  if (request.path.empty()) {
    // push_back, not = "/": GCC 12 reports a false -Wrestrict for the literal's assignment.
    request.path.push_back('/');
  }
  if (question < target.size()) {
    request.query.assign(target.substr(question + 1));
  }
  return true;
}

// The bytes of the request line and header section as the client sent them, near enough: the
// separators are counted at their canonical width.
std::size_t header_bytes(const Request& request, std::string_view target) {
  std::size_t total = request.method.size() + 1 + target.size() + 1 + k_http_version.size() + 2;
  for (const auto& [name, value] : request.headers) {
    total += name.size() + 2 + value.size() + 2;
  }
  return total + 2;
}

Response plain(int status, const char* text) {
  Response response;
  response.status = status;
  response.headers = {{"Content-Type", "text/plain; charset=utf-8"}};
  response.body = std::make_shared<const std::string>(text);
  return response;
}

} // namespace

std::string Request::header(std::string_view name) const {
  std::string value;
  bool found = false;
  for (const auto& [field, field_value] : headers) {
    if (core::equals_ignoring_ascii_case(field, name)) {
      if (found) {
        value += ", ";
      }
      value += field_value;
      found = true;
    }
  }
  return value;
}

namespace internal {

std::optional<Response> check_request(Request& request, std::string_view target,
                                      const Limits& limits) {
  if (target.size() >= limits.max_header_bytes) {
    return plain(414, "URI Too Long\n");
  }
  if (header_bytes(request, target) > limits.max_header_bytes) {
    return plain(431, "Request Header Fields Too Large\n");
  }
  if (request.method.empty() ||
      !std::all_of(request.method.begin(), request.method.end(), is_token_char) ||
      !split_target(target, request)) {
    return plain(400, "Bad Request\n");
  }
  if (request.method != "GET" && request.method != "HEAD" &&
      !(limits.post && request.method == "POST")) {
    Response response = plain(405, "Method Not Allowed\n");
    response.headers.emplace_back("Allow", limits.post ? "GET, HEAD, POST" : "GET, HEAD");
    return response;
  }
  return std::nullopt;
}

bool server_owned_header(std::string_view name) {
  return core::equals_ignoring_ascii_case(name, "Content-Length") ||
         core::equals_ignoring_ascii_case(name, "Date") ||
         core::equals_ignoring_ascii_case(name, "Connection") ||
         core::equals_ignoring_ascii_case(name, "Transfer-Encoding");
}

std::pair<std::string, bool> describe_peer(const sockaddr& address) {
  char text[INET6_ADDRSTRLEN] = "";
  if (address.sa_family == AF_INET) {
    const auto& v4 = reinterpret_cast<const sockaddr_in&>(address);
    inet_ntop(AF_INET, &v4.sin_addr, text, sizeof text);
    return {text, (ntohl(v4.sin_addr.s_addr) >> 24) == 127};
  }
  if (address.sa_family == AF_INET6) {
    const auto& v6 = reinterpret_cast<const sockaddr_in6&>(address);
    inet_ntop(AF_INET6, &v6.sin6_addr, text, sizeof text);
    const bool mapped_loopback =
        IN6_IS_ADDR_V4MAPPED(&v6.sin6_addr) && v6.sin6_addr.s6_addr[12] == 127;
    return {text, IN6_IS_ADDR_LOOPBACK(&v6.sin6_addr) || mapped_loopback};
  }
  return {"", false};
}

} // namespace internal

} // namespace podcrawl::http

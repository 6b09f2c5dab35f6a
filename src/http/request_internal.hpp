#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <sys/socket.h>

#include "podcrawl/http/server.hpp"

namespace podcrawl::http::internal {

struct Limits {
  std::size_t max_header_bytes = 16384;
  bool post = false; // POST is taken (the server reads bounded bodies)
};

// Fill request.path and request.query from the request target as received, and check the
// request (its method and headers already filled) before any handler sees it. Return the
// answer to send instead (400, 405, 414 or 431), or nullopt when the handler should answer.
// Methods: GET and HEAD, and POST when limits.post.
std::optional<Response> check_request(Request& request, std::string_view target,
                                      const Limits& limits);

// Whether the server writes the header `name` itself, so that a handler's is left out.
bool server_owned_header(std::string_view name);

// The numeric form of a peer's address and whether it is a loopback address.
std::pair<std::string, bool> describe_peer(const sockaddr& address);

} // namespace podcrawl::http::internal

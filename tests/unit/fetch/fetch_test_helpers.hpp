#pragma once

#include <string>
#include <utility>

#include "podcrawl/core/config.hpp"
#include "podcrawl/fetch/fetcher.hpp"

namespace podcrawl::fetch {

// Bounds for transfers to the loopback test server, which the address policy would refuse.
inline core::FetchConfig loopback_config() {
  core::FetchConfig config;
  config.allow_private_networks = true;
  config.total_timeout_seconds = 10;
  return config;
}

inline FetchRequest request(std::string url) {
  FetchRequest request;
  request.url = std::move(url);
  return request;
}

} // namespace podcrawl::fetch

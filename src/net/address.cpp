#include "podcrawl/net/address.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>

namespace podcrawl::net {
namespace {

// Longest text that can be a numeric address (IPv6 with an embedded IPv4 tail and brackets).
constexpr std::size_t k_max_address_length = 64;

// An IPv4 range: the network in host byte order and its prefix length.
struct Ipv4Range {
  std::uint32_t network = 0;
  int prefix = 0;
};

constexpr std::uint32_t ipv4(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) {
  return (a << 24) | (b << 16) | (c << 8) | d;
}

// Ranges that are not public unicast (RFC 6890 special-purpose registry, plus multicast and
// reserved space).
constexpr std::array k_non_public_ipv4 = {
    Ipv4Range{ipv4(0, 0, 0, 0), 8},       // "this network"
    Ipv4Range{ipv4(10, 0, 0, 0), 8},      // private
    Ipv4Range{ipv4(100, 64, 0, 0), 10},   // carrier-grade NAT
    Ipv4Range{ipv4(127, 0, 0, 0), 8},     // loopback
    Ipv4Range{ipv4(169, 254, 0, 0), 16},  // link-local
    Ipv4Range{ipv4(172, 16, 0, 0), 12},   // private
    Ipv4Range{ipv4(192, 0, 0, 0), 24},    // IETF protocol assignments
    Ipv4Range{ipv4(192, 0, 2, 0), 24},    // documentation
    Ipv4Range{ipv4(192, 168, 0, 0), 16},  // private
    Ipv4Range{ipv4(198, 18, 0, 0), 15},   // benchmarking
    Ipv4Range{ipv4(198, 51, 100, 0), 24}, // documentation
    Ipv4Range{ipv4(203, 0, 113, 0), 24},  // documentation
    Ipv4Range{ipv4(224, 0, 0, 0), 4},     // multicast
    Ipv4Range{ipv4(240, 0, 0, 0), 4},     // reserved, includes 255.255.255.255 broadcast
};

bool is_non_public_ipv4(const unsigned char* bytes) {
  std::uint32_t address = ipv4(bytes[0], bytes[1], bytes[2], bytes[3]);
  for (const auto& range : k_non_public_ipv4) {
    std::uint32_t mask = range.prefix == 0 ? 0 : ~std::uint32_t{0} << (32 - range.prefix);
    if ((address & mask) == range.network) {
      return true;
    }
  }
  return false;
}

bool starts_with_bytes(const std::array<unsigned char, 16>& bytes,
                       std::initializer_list<unsigned char> prefix) {
  std::size_t i = 0;
  for (unsigned char byte : prefix) {
    if (bytes[i++] != byte) {
      return false;
    }
  }
  return true;
}

bool is_non_public_ipv6(const std::array<unsigned char, 16>& bytes) {
  // IPv4-compatible (::a.b.c.d, which covers :: and ::1), IPv4-mapped (::ffff:a.b.c.d) and
  // NAT64 (64:ff9b::a.b.c.d) addresses reach an IPv4 host: judge them by that host.
  const std::array<unsigned char, 12> compatible{};
  const std::array<unsigned char, 12> mapped = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  const std::array<unsigned char, 12> nat64 = {0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0};
  for (const auto& prefix : {compatible, mapped, nat64}) {
    if (std::equal(prefix.begin(), prefix.end(), bytes.begin())) {
      return is_non_public_ipv4(bytes.data() + 12);
    }
  }
  // 6to4 (2002::/16) carries its IPv4 relay address in bytes 2..5.
  if (starts_with_bytes(bytes, {0x20, 0x02}) && is_non_public_ipv4(bytes.data() + 2)) {
    return true;
  }
  return (bytes[0] & 0xfe) == 0xfc                              // unique local fc00::/7
         || (bytes[0] == 0xfe && (bytes[1] & 0xc0) == 0x80)     // link-local fe80::/10
         || (bytes[0] == 0xfe && (bytes[1] & 0xc0) == 0xc0)     // site-local fec0::/10
         || bytes[0] == 0xff                                    // multicast ff00::/8
         || starts_with_bytes(bytes, {0x20, 0x01, 0x0d, 0xb8}); // documentation
}

} // namespace

bool is_non_public_address(std::string_view numeric_address) {
  if (numeric_address.size() > k_max_address_length) {
    return true;
  }
  if (numeric_address.size() >= 2 && numeric_address.front() == '[' &&
      numeric_address.back() == ']') {
    numeric_address = numeric_address.substr(1, numeric_address.size() - 2);
  }
  std::string text(numeric_address);
  std::array<unsigned char, 4> v4{};
  if (inet_pton(AF_INET, text.c_str(), v4.data()) == 1) {
    return is_non_public_ipv4(v4.data());
  }
  std::array<unsigned char, 16> v6{};
  if (inet_pton(AF_INET6, text.c_str(), v6.data()) == 1) {
    return is_non_public_ipv6(v6);
  }
  return true;
}

} // namespace podcrawl::net

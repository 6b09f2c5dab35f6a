#pragma once

#include <string_view>

namespace podcrawl::net {

// True when the numeric IPv4 or IPv6 address is private, loopback, link-local, unspecified,
// multicast, CGNAT, or otherwise not a public unicast address. Non-numeric text is "not
// public" too, so a caller that cannot parse an address refuses it.
bool is_non_public_address(std::string_view numeric_address);

} // namespace podcrawl::net

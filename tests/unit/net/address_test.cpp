#include "podcrawl/net/address.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace podcrawl::net {
namespace {

TEST(AddressPolicy, AcceptsPublicUnicastAddresses) {
  const std::vector<std::string> public_addresses = {
      "8.8.8.8",
      "1.1.1.1",
      "93.184.216.34",
      "9.255.255.255",   // just below 10/8
      "11.0.0.0",        // just above 10/8
      "100.63.255.255",  // just below 100.64/10
      "100.128.0.0",     // just above 100.64/10
      "172.15.255.255",  // just below 172.16/12
      "172.32.0.0",      // just above 172.16/12
      "192.0.1.1",       // past 192.0.0/24
      "192.167.255.255", // just below 192.168/16
      "198.17.255.255",  // just below 198.18/15
      "198.20.0.0",      // just above 198.18/15
      "223.255.255.255", // just below multicast
      "2606:4700:4700::1111",
      "2001:4860:4860::8888",
      "::ffff:8.8.8.8",
      "64:ff9b::808:808",
      "[2606:4700:4700::1111]",
  };
  for (const auto& address : public_addresses) {
    SCOPED_TRACE(address);
    EXPECT_FALSE(is_non_public_address(address));
  }
}

TEST(AddressPolicy, RefusesNonPublicAddresses) {
  const std::vector<std::string> non_public = {
      "0.0.0.0",
      "0.1.2.3",
      "10.0.0.1",
      "10.255.255.255",
      "100.64.0.1",
      "100.127.255.255",
      "127.0.0.1",
      "127.255.255.254",
      "169.254.169.254",
      "172.16.0.1",
      "172.31.255.255",
      "192.0.0.8",
      "192.168.1.1",
      "198.18.0.1",
      "198.19.255.255",
      "224.0.0.1",
      "239.255.255.250",
      "240.0.0.1",
      "255.255.255.255",
      "::",
      "::1",
      "[::1]",
      "fc00::1",
      "fd12:3456:789a::1",
      "fe80::1",
      "febf::1",
      "ff02::1",
      "::ffff:127.0.0.1",
      "::ffff:10.1.2.3",
      "::ffff:169.254.169.254",
      "::ffff:7f00:1",
      "64:ff9b::7f00:1",
      "64:ff9b::192.168.0.1",
      "::127.0.0.1",
      "2002:7f00:1::",
  };
  for (const auto& address : non_public) {
    SCOPED_TRACE(address);
    EXPECT_TRUE(is_non_public_address(address));
  }
}

TEST(AddressPolicy, RefusesTextThatIsNotANumericAddress) {
  const std::vector<std::string> not_numeric = {
      "",          "localhost", "example.com",  "127.1", "0x7f.0.0.1",          "2130706433",
      "1.2.3.4.5", "256.0.0.1", "fe80::1%eth0", "[::1",  std::string(100, '1'),
  };
  for (const auto& text : not_numeric) {
    SCOPED_TRACE(text);
    EXPECT_TRUE(is_non_public_address(text));
  }
}

} // namespace
} // namespace podcrawl::net

#include "podcrawl/serve/websub.hpp"

#include <gtest/gtest.h>

#include <string>

namespace podcrawl::serve {
namespace {

// RFC 2202 (HMAC-SHA-1) and RFC 4231 (HMAC-SHA-2) test case 2: key "Jefe".
constexpr const char* k_data = "what do ya want for nothing?";
constexpr const char* k_key = "Jefe";

TEST(HubSignature, MatchesTheRfcTestVectors) {
  EXPECT_EQ(hub_signature("sha1", k_data, k_key), "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79");
  EXPECT_EQ(hub_signature("sha256", k_data, k_key),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  EXPECT_EQ(hub_signature("sha384", k_data, k_key),
            "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e"
            "8e2240ca5e69e2c78b3239ecfab21649");
  EXPECT_EQ(hub_signature("sha512", k_data, k_key),
            "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554"
            "9758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737");
  // RFC 4231 test case 6: a key longer than the block, hashed first.
  EXPECT_EQ(hub_signature("sha256", "Test Using Larger Than Block-Size Key - Hash Key First",
                          std::string(131, '\xaa')),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
  EXPECT_EQ(hub_signature("md5", k_data, k_key), "");
  EXPECT_EQ(hub_signature("SHA256", k_data, k_key), ""); // the method as the header's, lowered
}

TEST(HubSignature, HoldsOnlyForTheHmacOfTheBodyUnderTheSecret) {
  const std::string sha256 = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843";
  EXPECT_EQ(check_hub_signature("sha256=" + sha256, k_data, k_key), HubSignature::valid);
  EXPECT_EQ(check_hub_signature(" SHA256=5BDCC146BF60754E6A042426089575C75A003F089D2739839DEC58B9"
                                "64EC3843 ",
                                k_data, k_key),
            HubSignature::valid);
  EXPECT_EQ(check_hub_signature("sha1=effcdf6ae5eb2fa2d27416d5f184df9c259a7c79", k_data, k_key),
            HubSignature::valid);
  // Another body, another secret, a signature cut short or grown, another method's.
  EXPECT_EQ(check_hub_signature("sha256=" + sha256, "what do ya want for nothing!", k_key),
            HubSignature::mismatch);
  EXPECT_EQ(check_hub_signature("sha256=" + sha256, k_data, "jefe"), HubSignature::mismatch);
  EXPECT_EQ(check_hub_signature("sha256=" + sha256.substr(1), k_data, k_key),
            HubSignature::mismatch);
  EXPECT_EQ(check_hub_signature("sha256=" + sha256 + "00", k_data, k_key), HubSignature::mismatch);
  EXPECT_EQ(check_hub_signature("sha512=" + sha256, k_data, k_key), HubSignature::mismatch);
  EXPECT_EQ(check_hub_signature("sha256=", k_data, k_key), HubSignature::mismatch);
  EXPECT_EQ(check_hub_signature("md5=" + sha256, k_data, k_key), HubSignature::unknown_method);
  EXPECT_EQ(check_hub_signature("=" + sha256, k_data, k_key), HubSignature::unknown_method);
  EXPECT_EQ(check_hub_signature("", k_data, k_key), HubSignature::missing);
  EXPECT_EQ(check_hub_signature(sha256, k_data, k_key), HubSignature::missing);
}

TEST(WebSubToken, IsSixtyFourLowerCaseHexDigits) {
  EXPECT_TRUE(is_websub_token(std::string(64, 'a')));
  EXPECT_TRUE(is_websub_token("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"));
  EXPECT_FALSE(is_websub_token(std::string(63, 'a')));
  EXPECT_FALSE(is_websub_token(std::string(65, 'a')));
  EXPECT_FALSE(is_websub_token(std::string(64, 'A')));
  EXPECT_FALSE(is_websub_token(std::string(64, 'g')));
  EXPECT_FALSE(is_websub_token(""));
}

TEST(WebSubLease, ReadsPositiveSecondsElseAssumesADay) {
  EXPECT_EQ(websub_lease_seconds("864000"), 864000);
  EXPECT_EQ(websub_lease_seconds(" 3 "), 3);
  for (const char* unread : {"", "0", "-5", "1.5", "ten", "9999999999999"}) {
    EXPECT_EQ(websub_lease_seconds(unread), k_websub_assumed_lease_seconds) << unread;
  }
}

} // namespace
} // namespace podcrawl::serve

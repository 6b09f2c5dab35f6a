#include "submit_internal.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace podcrawl::serve::internal {
namespace {

constexpr std::int64_t k_now = 1796000000;

TEST(FormTokens, ATokenIsGoodForTwoHoursFromTheServerThatMadeIt) {
  const FormTokens tokens;
  const std::string token = tokens.issue(k_now);
  EXPECT_TRUE(tokens.valid(token, k_now));
  EXPECT_TRUE(tokens.valid(token, k_now + k_form_token_seconds));
  EXPECT_FALSE(tokens.valid(token, k_now + k_form_token_seconds + 1));
  EXPECT_FALSE(tokens.valid(token, k_now - 3600)); // made in the future
  // Another server's key (a restart) makes it stale.
  EXPECT_FALSE(FormTokens().valid(token, k_now));
}

TEST(FormTokens, RefusesAnythingButATokenItMade) {
  const FormTokens tokens;
  const std::string token = tokens.issue(k_now);
  std::string other_time = token;
  other_time[other_time.find('.') - 1] ^= 1; // the same hash for another time
  std::string other_hash = token;
  other_hash.back() = other_hash.back() == '0' ? '1' : '0';
  for (const std::string& bad :
       {std::string(), std::string("."), std::string(".") + token, other_time, other_hash,
        token.substr(0, token.size() - 1), token + "0", "-" + token, std::to_string(k_now) + ".",
        std::string("abc.") + token.substr(token.find('.') + 1)}) {
    EXPECT_FALSE(tokens.valid(bad, k_now)) << bad;
  }
}

http::Request request_with(std::vector<std::pair<std::string, std::string>> headers) {
  http::Request request;
  request.method = "POST";
  request.headers = std::move(headers);
  return request;
}

TEST(SameOrigin, TrustsWhatTheBrowserSaysOfThePageThatSentTheForm) {
  EXPECT_TRUE(same_origin(request_with({{"Sec-Fetch-Site", "same-origin"}})));
  EXPECT_TRUE(same_origin(request_with({{"Sec-Fetch-Site", "none"}})));
  EXPECT_FALSE(same_origin(request_with({{"Sec-Fetch-Site", "cross-site"}})));
  EXPECT_FALSE(same_origin(request_with({{"Sec-Fetch-Site", "same-site"}})));
  // Sec-Fetch-Site says more than Origin when both come.
  EXPECT_FALSE(same_origin(request_with({{"Host", "dir.example"},
                                         {"Origin", "https://dir.example"},
                                         {"Sec-Fetch-Site", "cross-site"}})));
}

TEST(SameOrigin, ComparesOriginWithTheHostTheRequestWasSentTo) {
  EXPECT_TRUE(same_origin(
      request_with({{"Host", "Dir.Example:8080"}, {"Origin", "https://dir.example:8080"}})));
  EXPECT_FALSE(
      same_origin(request_with({{"Host", "dir.example"}, {"Origin", "https://evil.example"}})));
  EXPECT_FALSE(same_origin(request_with({{"Host", "dir.example"}, {"Origin", "null"}})));
  EXPECT_FALSE(
      same_origin(request_with({{"Host", "dir.example"}, {"Origin", "https://dir.example:444"}})));
  // Neither header (an older browser, a script): the form token decides.
  EXPECT_TRUE(same_origin(request_with({{"Host", "dir.example"}})));
}

} // namespace
} // namespace podcrawl::serve::internal

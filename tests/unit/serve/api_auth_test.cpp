#include "podcrawl/serve/api_auth.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

namespace podcrawl::serve {
namespace {

// A key and secret as Podcast Index's, and the hex SHA-1 of key + secret + date for two dates,
// computed apart from podcrawl (Python's hashlib).
const std::string k_key = "UXKCGDSYGUUEVQJSYDZH";
const std::string k_secret = "yzJe2eE7XV^3eY576dyRZ6wXyAbndh6LUrCZ8KN#";
const std::string k_hash_of_integer_date = "992488e1f066cb6ab4f6e0becebf663e2589af44";
const std::string k_hash_of_float_date = "9930ccf0ca936b687c0a3ebf92b0392eeb4b7787";
constexpr std::int64_t k_date = 1'700'000'000;

Credentials signed_at(const std::string& date, const std::string& hash) {
  return {k_key, date, hash};
}

TEST(CheckCredentials, AcceptsTheHashOfKeySecretAndDate) {
  EXPECT_EQ(check_credentials(signed_at("1700000000", k_hash_of_integer_date), k_secret, k_date),
            std::nullopt);
}

TEST(CheckCredentials, AcceptsTheHashInUpperCase) {
  EXPECT_EQ(check_credentials(signed_at("1700000000", "992488E1F066CB6AB4F6E0BECEBF663E2589AF44"),
                              k_secret, k_date),
            std::nullopt);
}

// Float clients (podcast-index-api, Podverse, the Postman collection) send Date.getTime() / 1000
// and sign that text.
TEST(CheckCredentials, AcceptsAFloatDateSignedAsSent) {
  EXPECT_EQ(
      check_credentials(signed_at("1700000000.123", k_hash_of_float_date), k_secret, k_date + 60),
      std::nullopt);
  // The hash of the date's whole seconds is not what the client signed.
  EXPECT_EQ(
      check_credentials(signed_at("1700000000.123", k_hash_of_integer_date), k_secret, k_date),
      AuthFailure::bad_hash);
}

TEST(CheckCredentials, TakesDatesWithinThreeMinutesEitherWay) {
  // A float date counts its whole seconds.
  const Credentials signed_requests[] = {signed_at("1700000000", k_hash_of_integer_date),
                                         signed_at("1700000000.123", k_hash_of_float_date)};
  for (const Credentials& credentials : signed_requests) {
    SCOPED_TRACE(credentials.date);
    EXPECT_EQ(check_credentials(credentials, k_secret, k_date + 180), std::nullopt);
    EXPECT_EQ(check_credentials(credentials, k_secret, k_date - 180), std::nullopt);
    EXPECT_EQ(check_credentials(credentials, k_secret, k_date + 181), AuthFailure::stale_date);
    EXPECT_EQ(check_credentials(credentials, k_secret, k_date - 181), AuthFailure::stale_date);
  }
}

TEST(CheckCredentials, RefusesADateThatIsNotAUnixTime) {
  const char* const rejected[] = {
      "yesterday",
      "Tue, 14 Nov 2023 22:13:20 GMT",
      "-1700000000",
      "+1700000000",
      "1700000000.12.3",
      ".5",
      "1.7e9",
      " 1700000000",
      "1700000000 ",
      "0x6553f100",
      "17000000000000000000",
      "1700000000.000000000000000000000000001",
  };
  for (const char* date : rejected) {
    EXPECT_EQ(check_credentials(signed_at(date, k_hash_of_integer_date), k_secret, k_date),
              AuthFailure::stale_date)
        << date;
  }
}

TEST(CheckCredentials, RefusesAWrongHash) {
  const std::string wrong[] = {
      "092488e1f066cb6ab4f6e0becebf663e2589af44",  // the first digit
      "992488e1f066cb6ab4f6e0becebf663e2589af45",  // the last
      "992488e1f066cb6ab4f6e0becebf663e2589af4",   // one short
      "992488e1f066cb6ab4f6e0becebf663e2589af440", // one more
      "992488e1f066cb6ab4f6e0becebf663e2589af4g",  // not hex
      // Characters whose bit 0x20 makes a digit of them.
      std::string("\x19\x19") + "2488e1f066cb6ab4f6e0becebf663e2589af44",
      "sha1=992488e1f066cb6ab4f6e0becebf663e2589af44",
  };
  for (const std::string& hash : wrong) {
    EXPECT_EQ(check_credentials(signed_at("1700000000", hash), k_secret, k_date),
              AuthFailure::bad_hash)
        << hash;
  }
  // The right hash with another secret.
  EXPECT_EQ(check_credentials(signed_at("1700000000", k_hash_of_integer_date),
                              "another secret of forty characters, yes!", k_date),
            AuthFailure::bad_hash);
}

TEST(CheckCredentials, NamesAMissingHeaderFirst) {
  EXPECT_EQ(check_credentials({"", "1700000000", k_hash_of_integer_date}, k_secret, k_date),
            AuthFailure::missing);
  EXPECT_EQ(check_credentials({k_key, "", k_hash_of_integer_date}, k_secret, k_date),
            AuthFailure::missing);
  EXPECT_EQ(check_credentials({k_key, "1700000000", ""}, k_secret, k_date), AuthFailure::missing);
  EXPECT_EQ(check_credentials({}, "", k_date), AuthFailure::missing);
}

TEST(CheckCredentials, AnUnknownKeyIsUnknownWhateverElseIsSent) {
  EXPECT_EQ(check_credentials(signed_at("1700000000", k_hash_of_integer_date), "", k_date),
            AuthFailure::unknown_key);
  EXPECT_EQ(check_credentials(signed_at("yesterday", "x"), "", k_date), AuthFailure::unknown_key);
}

TEST(AuthFailureBody, IsAJsonStringAsPodcastIndexSends) {
  EXPECT_EQ(auth_failure_body(AuthFailure::missing),
            "\"Authorization header value either not set or blank.\"");
  for (const auto failure : {AuthFailure::missing, AuthFailure::unknown_key,
                             AuthFailure::stale_date, AuthFailure::bad_hash}) {
    const auto body = nlohmann::json::parse(auth_failure_body(failure));
    ASSERT_TRUE(body.is_string()) << auth_failure_body(failure);
    EXPECT_FALSE(body.get<std::string>().empty());
  }
  EXPECT_NE(auth_failure_body(AuthFailure::stale_date).find("3 minute"), std::string::npos);
  EXPECT_NE(auth_failure_body(AuthFailure::bad_hash).find("match"), std::string::npos);
}

TEST(RequestBudget, TakesTheBurstThenRefillsAtTheRate) {
  RequestBudget budget(2.0, 3.0);
  EXPECT_EQ(budget.take("k", 0), std::nullopt);
  EXPECT_EQ(budget.take("k", 0), std::nullopt);
  EXPECT_EQ(budget.take("k", 0), std::nullopt);
  EXPECT_EQ(budget.take("k", 0), std::optional<std::int64_t>(1)); // half a second, rounded up
  EXPECT_EQ(budget.take("k", 499), std::optional<std::int64_t>(1));
  EXPECT_EQ(budget.take("k", 500), std::nullopt); // one token back after half a second
  EXPECT_EQ(budget.take("k", 500), std::optional<std::int64_t>(1));
  // Another key has its own bucket.
  EXPECT_EQ(budget.take("other", 500), std::nullopt);
}

TEST(RequestBudget, RetryAfterIsTheWholeSecondsUntilATokenIsBack) {
  RequestBudget budget(0.1, 1.0); // one request every ten seconds
  EXPECT_EQ(budget.take("k", 0), std::nullopt);
  EXPECT_EQ(budget.take("k", 0), std::optional<std::int64_t>(10));
  EXPECT_EQ(budget.take("k", 4'000), std::optional<std::int64_t>(6));
  EXPECT_EQ(budget.take("k", 9'500), std::optional<std::int64_t>(1));
  EXPECT_EQ(budget.take("k", 10'000), std::nullopt);
  EXPECT_EQ(budget.take("k", 10'000), std::optional<std::int64_t>(10));
}

TEST(RequestBudget, RefillsNoFurtherThanTheBurst) {
  RequestBudget budget(10.0, 2.0);
  EXPECT_EQ(budget.take("k", 0), std::nullopt);
  // An hour idle gives back the burst, not 36,000 requests.
  EXPECT_EQ(budget.take("k", 3'600'000), std::nullopt);
  EXPECT_EQ(budget.take("k", 3'600'000), std::nullopt);
  EXPECT_EQ(budget.take("k", 3'600'000), std::optional<std::int64_t>(1));
}

TEST(RequestBudget, AClockReadEarlierRefillsNothing) {
  RequestBudget budget(1.0, 1.0);
  EXPECT_EQ(budget.take("k", 5'000), std::nullopt);
  EXPECT_EQ(budget.take("k", 1'000), std::optional<std::int64_t>(1));
  EXPECT_EQ(budget.take("k", 5'999), std::optional<std::int64_t>(1));
  EXPECT_EQ(budget.take("k", 6'000), std::nullopt);
}

TEST(RequestBudget, ForgetsTheFullestBucketsPastItsBound) {
  RequestBudget budget(1.0, 2.0, 10);
  // Ten keys: "idle" takes one at 0 and is full again at 1 s; the others spend both at 1 s.
  EXPECT_EQ(budget.take("idle", 0), std::nullopt);
  for (int i = 0; i < 9; ++i) {
    const std::string key = "spent" + std::to_string(i);
    ASSERT_EQ(budget.take(key, 1'000), std::nullopt);
    ASSERT_EQ(budget.take(key, 1'000), std::nullopt);
  }
  EXPECT_EQ(budget.tracked(), 10u);
  // An eleventh key: only the full bucket is forgotten; the spent keys stay refused.
  EXPECT_EQ(budget.take("new", 1'000), std::nullopt);
  EXPECT_EQ(budget.tracked(), 10u);
  for (int i = 0; i < 9; ++i) {
    EXPECT_EQ(budget.take("spent" + std::to_string(i), 1'000), std::optional<std::int64_t>(1));
  }
  // With none full, the fullest go down to nine tenths of the bound: never more than it.
  for (int i = 0; i < 100; ++i) {
    budget.take("more" + std::to_string(i), 1'000);
    ASSERT_LE(budget.tracked(), 10u);
  }
}

} // namespace
} // namespace podcrawl::serve

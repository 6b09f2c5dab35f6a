#include "podcrawl/store/api_keys.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <ctime>
#include <set>
#include <string>
#include <vector>

#include <pqxx/pqxx>

#include "podcrawl/core/ascii.hpp"
#include "podcrawl/core/error.hpp"
#include "store_fixture.hpp"

namespace podcrawl::store {
namespace {

constexpr std::string_view k_key_alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
constexpr std::string_view k_secret_alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789^$#";

bool only_of(const std::string& text, std::string_view alphabet) {
  return text.find_first_not_of(alphabet) == std::string::npos;
}

std::vector<std::string> keys_of(const std::vector<ApiKey>& keys) {
  std::vector<std::string> texts;
  for (const auto& key : keys) {
    texts.push_back(key.key);
  }
  return texts;
}

class ApiKeysTest : public StoreTest {
protected:
  ApiKeys api_keys() { return ApiKeys(db()); }
};

TEST_F(ApiKeysTest, CreateMakesAKeyAndASecretOfTheirAlphabets) {
  const auto before = static_cast<std::int64_t>(std::time(nullptr));
  const ApiKey made = api_keys().create("Podverse", true);
  const auto after = static_cast<std::int64_t>(std::time(nullptr));
  EXPECT_GT(made.id, 0);
  EXPECT_EQ(made.key.size(), k_api_key_chars);
  EXPECT_TRUE(only_of(made.key, k_key_alphabet)) << made.key;
  EXPECT_EQ(made.secret.size(), k_api_secret_chars);
  EXPECT_TRUE(only_of(made.secret, k_secret_alphabet)) << made.secret;
  EXPECT_EQ(made.name, "Podverse");
  EXPECT_TRUE(made.write);
  EXPECT_GE(made.created_at, before - 1); // the database's clock, rounded to a second
  EXPECT_LE(made.created_at, after + 1);
  EXPECT_FALSE(made.revoked_at);

  const auto listed = api_keys().list();
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].id, made.id);
  EXPECT_EQ(listed[0].key, made.key);
  EXPECT_EQ(listed[0].secret, made.secret);
  EXPECT_EQ(listed[0].created_at, made.created_at);
  EXPECT_FALSE(api_keys().create("reader", false).write);
}

// Every character of both alphabets is drawn, none outside them, and no two keys or secrets
// are alike. 60 keys draw each key character 1,200 times and each secret character 2,400 times:
// the chance that one of them is never drawn is below 1e-12.
TEST_F(ApiKeysTest, KeysAreDrawnFromTheWholeAlphabetAndNeverRepeat) {
  std::set<std::string> keys;
  std::set<std::string> secrets;
  std::set<char> key_chars;
  std::set<char> secret_chars;
  for (int i = 0; i < 60; ++i) {
    const ApiKey made = api_keys().create("client " + std::to_string(i), false);
    keys.insert(made.key);
    secrets.insert(made.secret);
    key_chars.insert(made.key.begin(), made.key.end());
    secret_chars.insert(made.secret.begin(), made.secret.end());
  }
  EXPECT_EQ(keys.size(), 60u);
  EXPECT_EQ(secrets.size(), 60u);
  EXPECT_EQ(key_chars, std::set<char>(k_key_alphabet.begin(), k_key_alphabet.end()));
  EXPECT_EQ(secret_chars, std::set<char>(k_secret_alphabet.begin(), k_secret_alphabet.end()));
}

TEST_F(ApiKeysTest, RevokedKeysAreListedButNotActive) {
  const ApiKey first = api_keys().create("first", false);
  const ApiKey second = api_keys().create("second", true);
  const ApiKey third = api_keys().create("third", false);
  EXPECT_TRUE(api_keys().revoke(second.key));
  EXPECT_FALSE(api_keys().revoke(second.key)); // already revoked
  EXPECT_FALSE(api_keys().revoke("NOSUCHKEY00000000000"));
  EXPECT_FALSE(api_keys().revoke(""));
  EXPECT_FALSE(api_keys().revoke(core::ascii_lower(first.key))); // keys are compared exactly

  const auto listed = api_keys().list();
  EXPECT_EQ(keys_of(listed), (std::vector<std::string>{first.key, second.key, third.key}));
  EXPECT_FALSE(listed[0].revoked_at);
  ASSERT_TRUE(listed[1].revoked_at);
  EXPECT_GE(*listed[1].revoked_at, listed[1].created_at);
  const auto active = api_keys().active();
  EXPECT_EQ(keys_of(active), (std::vector<std::string>{first.key, third.key}));
  EXPECT_EQ(active[1].secret, third.secret);
}

TEST_F(ApiKeysTest, RefusesANameThatCannotBeShown) {
  const std::string rejected[] = {
      "",
      "   ",
      "\t",
      std::string(101, 'a'),
      [] {
        std::string name;
        for (int i = 0; i < 101; ++i) {
          name += "\xC3\xA9"; // é: 101 characters in 202 bytes
        }
        return name;
      }(),
      "bad \xFF byte",
      "over\xC0\xAF long",
      "two\nlines",
      "tab\there",
      "delete\x7F",
      "c1 \xC2\x85 control",
  };
  for (const std::string& name : rejected) {
    EXPECT_THROW(api_keys().create(name, false), core::UsageError) << name;
  }
  EXPECT_TRUE(api_keys().list().empty());

  const std::string accepted[] = {
      std::string(100, 'a'),
      [] {
        std::string name;
        for (int i = 0; i < 100; ++i) {
          name += "\xC3\xA9"; // 100 characters in 200 bytes
        }
        return name;
      }(),
      "بودكاست \xF0\x9F\x93\xBB app",
      " padded ",
  };
  for (const std::string& name : accepted) {
    EXPECT_EQ(api_keys().create(name, false).name, name);
  }
}

TEST_F(ApiKeysTest, CreatingAndRevokingAreAnnouncedAtCommit) {
  pqxx::connection connection(url());
  ChannelListener listener(connection, k_api_keys_channel);
  const ApiKey made = api_keys().create("announced", false);
  EXPECT_EQ(listener.heard(1), std::vector<std::string>{""});
  // Refused and no-op changes announce nothing: a marker sent after them arrives next, as
  // notifications arrive in commit order.
  EXPECT_THROW(api_keys().create("", false), core::UsageError);
  EXPECT_FALSE(api_keys().revoke("NOSUCHKEY00000000000"));
  {
    pqxx::connection other(url());
    pqxx::work txn(other);
    txn.exec_params("SELECT pg_notify($1, 'marker')", std::string(k_api_keys_channel));
    txn.commit();
  }
  EXPECT_EQ(listener.heard(2), (std::vector<std::string>{"", "marker"}));
  EXPECT_TRUE(api_keys().revoke(made.key));
  EXPECT_EQ(listener.heard(3), (std::vector<std::string>{"", "marker", ""}));
}

} // namespace
} // namespace podcrawl::store

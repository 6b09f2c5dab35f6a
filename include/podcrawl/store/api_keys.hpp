#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "podcrawl/store/database.hpp"

namespace podcrawl::store {

// The channel on which the store announces, when its transaction commits, that the API's keys
// changed (a key made or revoked, or the table edited by hand); the payload is empty. A server
// LISTENs on it and loads ApiKeys::active() again.
inline constexpr const char* k_api_keys_channel = "podcrawl_api_keys";

// Characters of a key and of a secret, as Podcast Index's.
inline constexpr std::size_t k_api_key_chars = 20;
inline constexpr std::size_t k_api_secret_chars = 40;
// Longest name of a key, in characters (code points).
inline constexpr std::size_t k_max_api_key_name_chars = 100;

// A key of the API: the public key a client sends (X-Auth-Key) and the secret it signs with.
struct ApiKey {
  std::int64_t id = 0;
  std::string key;                        // k_api_key_chars upper-case ASCII letters and digits
  std::string secret;                     // k_api_secret_chars ASCII letters, digits and ^ $ #
  std::string name;                       // who or what it is for
  bool write = false;                     // may add feeds (add/byfeedurl), besides reading
  std::int64_t created_at = 0;            // Unix seconds
  std::optional<std::int64_t> revoked_at; // Unix seconds; a revoked key opens nothing
};

// The keys of the API. Every change is announced on k_api_keys_channel at commit.
class ApiKeys {
public:
  explicit ApiKeys(Database& database);

  // Make a key named `name` (with write permission when `write`), its key and secret drawn
  // from getrandom(2), and return it with its secret: the only time a caller sees the secret
  // before a server loads it. Throws core::UsageError when the name is empty or white space,
  // longer than k_max_api_key_name_chars, not UTF-8, or holds a control character;
  // core::EnvironmentError when the system gives no random bytes.
  ApiKey create(const std::string& name, bool write);
  // Every key, revoked ones included, by id (their secrets too: callers never print them).
  std::vector<ApiKey> list();
  // Revoke the active key `key` (compared exactly). False when no active key has it.
  bool revoke(const std::string& key);
  // The keys not revoked, by id: what a server holds in memory.
  std::vector<ApiKey> active();

private:
  Database::Impl* m_impl;
};

} // namespace podcrawl::store

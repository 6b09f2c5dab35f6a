#include "podcrawl/store/api_keys.hpp"

#include <string>
#include <string_view>
#include <vector>

#include "podcrawl/core/ascii.hpp"
#include "podcrawl/core/error.hpp"
#include "podcrawl/core/random.hpp"
#include "podcrawl/core/text.hpp"
#include "store_internal.hpp"

namespace podcrawl::store {
namespace {

using core::random_text;
using internal::guarded;
using internal::nullable;

constexpr std::string_view k_key_alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
constexpr std::string_view k_secret_alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789^$#";

// A key's name as given, or core::UsageError saying what is wrong with it.
void check_name(const std::string& name) {
  if (core::trim(name).empty()) {
    throw core::UsageError("an API key needs a name (--name)");
  }
  if (!core::is_valid_utf8(name)) {
    throw core::UsageError("the name of an API key must be UTF-8");
  }
  std::size_t chars = 0;
  for (std::size_t at = 0; at < name.size(); ++chars) {
    const auto [code, length] = core::decode_utf8(name, at);
    if (code < 0x20 || (code >= 0x7F && code < 0xA0)) {
      throw core::UsageError("the name of an API key must not hold control characters");
    }
    at += length;
  }
  if (chars > k_max_api_key_name_chars) {
    throw core::UsageError("the name of an API key must be at most " +
                           std::to_string(k_max_api_key_name_chars) + " characters, not " +
                           std::to_string(chars));
  }
}

const std::string k_key_columns =
    "id, key, secret, name, can_write, extract(epoch FROM created_at)::bigint,"
    " extract(epoch FROM revoked_at)::bigint";

ApiKey key_from_row(const pqxx::row& row) {
  ApiKey key;
  key.id = row[0].as<std::int64_t>();
  key.key = row[1].as<std::string>();
  key.secret = row[2].as<std::string>();
  key.name = row[3].as<std::string>();
  key.write = row[4].as<bool>();
  key.created_at = row[5].as<std::int64_t>();
  key.revoked_at = nullable<std::int64_t>(row[6]);
  return key;
}

std::vector<ApiKey> keys_from_result(const pqxx::result& result) {
  std::vector<ApiKey> keys;
  keys.reserve(result.size());
  for (const auto& row : result) {
    keys.push_back(key_from_row(row));
  }
  return keys;
}

} // namespace

ApiKeys::ApiKeys(Database& database) : m_impl(database.m_impl.get()) {}

ApiKey ApiKeys::create(const std::string& name, bool write) {
  check_name(name);
  return guarded(m_impl->redacted_url, "create an API key", [&] {
    // Two keys alike are a chance of one in 36^20; one more draw settles it.
    for (;;) {
      const std::string key = random_text(k_key_alphabet, k_api_key_chars);
      const std::string secret = random_text(k_secret_alphabet, k_api_secret_chars);
      pqxx::work txn(m_impl->connection);
      const auto rows = txn.exec_params(
          "INSERT INTO api_keys (key, secret, name, can_write, created_at)"
          " VALUES ($1, $2, $3, $4, now()) ON CONFLICT (key) DO NOTHING RETURNING " +
              k_key_columns,
          key, secret, name, write);
      if (!rows.empty()) {
        txn.commit();
        return key_from_row(rows[0]);
      }
    }
  });
}

std::vector<ApiKey> ApiKeys::list() {
  return guarded(m_impl->redacted_url, "list API keys", [&] {
    pqxx::read_transaction txn(m_impl->connection);
    return keys_from_result(txn.exec("SELECT " + k_key_columns + " FROM api_keys ORDER BY id"));
  });
}

bool ApiKeys::revoke(const std::string& key) {
  return guarded(m_impl->redacted_url, "revoke an API key", [&] {
    pqxx::work txn(m_impl->connection);
    const auto revoked = txn.exec_params(
        "UPDATE api_keys SET revoked_at = now() WHERE key = $1 AND revoked_at IS NULL RETURNING id",
        key);
    txn.commit();
    return !revoked.empty();
  });
}

std::vector<ApiKey> ApiKeys::active() {
  return guarded(m_impl->redacted_url, "load API keys", [&] {
    pqxx::read_transaction txn(m_impl->connection);
    return keys_from_result(txn.exec("SELECT " + k_key_columns +
                                     " FROM api_keys WHERE revoked_at IS NULL ORDER BY id"));
  });
}

} // namespace podcrawl::store

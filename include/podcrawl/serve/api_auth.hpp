#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

// The API's authentication as Podcast Index's, and each key's budget of requests. Pure: no I/O,
// no clock; the caller passes the time.
namespace podcrawl::serve {

// How far the X-Auth-Date of a request may be from the server's clock, either way: Podcast
// Index's "3 minute window".
inline constexpr std::int64_t k_auth_window_seconds = 180;
// Longest X-Auth-Date read as a time; a longer one is stale.
inline constexpr std::size_t k_max_auth_date_chars = 32;

// A request's credentials, each header's value exactly as received (empty when absent).
struct Credentials {
  std::string key;           // X-Auth-Key
  std::string date;          // X-Auth-Date
  std::string authorization; // Authorization
};

enum class AuthFailure {
  missing,     // a header absent or empty
  unknown_key, // X-Auth-Key names no active key
  stale_date,  // X-Auth-Date not a Unix time within k_auth_window_seconds of now
  bad_hash,    // Authorization is not the SHA-1 of key + secret + date
};

// Check a request's credentials against the secret of its key (empty when no active key has
// it) at `now_seconds`: nullopt when they hold. Authorization must be the hex SHA-1 (either case)
// of the key, the secret and the X-Auth-Date as received, so a client that sends a fraction
// ("1700000000.123", as float clients do) is checked against what it signed; the date's whole
// seconds must be within k_auth_window_seconds of now. The hash is compared in time that does
// not depend on where it differs.
std::optional<AuthFailure> check_credentials(const Credentials& credentials,
                                             const std::string& secret, std::int64_t now_seconds);

// The 401 answer's body for a failure: a bare JSON string, as Podcast Index sends.
std::string auth_failure_body(AuthFailure failure);

// Most keys a RequestBudget tracks at once.
inline constexpr std::size_t k_max_budget_keys = 100'000;

// A token bucket for each key: `burst` requests at once, refilled at `per_second`. Safe to use
// from several threads. At most max_keys buckets are kept: past that, the fullest are forgotten
// (a full bucket is what a key not seen before gets anyway), so the memory a key takes is
// bounded by the length of the keys the caller passes (API keys, client addresses).
class RequestBudget {
public:
  // per_second > 0 and burst >= 1.
  RequestBudget(double per_second, double burst, std::size_t max_keys = k_max_budget_keys);

  // Take one request from `key`'s bucket at `now_ms` (a monotonic clock's milliseconds):
  // nullopt when it had one, else the whole seconds until it will (Retry-After, at least 1).
  std::optional<std::int64_t> take(const std::string& key, std::int64_t now_ms);
  // The number of keys tracked now.
  std::size_t tracked() const;

private:
  struct Bucket {
    double tokens = 0;
    std::int64_t updated_ms = 0;
  };
  // The tokens of `bucket` at now_ms, refilled since it was last updated, at most m_burst.
  double tokens_at(const Bucket& bucket, std::int64_t now_ms) const;
  // Forget the full buckets and, if still more than nine tenths of m_max_keys are kept, the
  // fullest down to that.
  void evict(std::int64_t now_ms);

  double m_per_second;
  double m_burst;
  std::size_t m_max_keys;
  mutable std::mutex m_mutex;
  std::unordered_map<std::string, Bucket> m_buckets;
};

} // namespace podcrawl::serve

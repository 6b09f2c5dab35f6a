#include "podcrawl/serve/api_auth.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <utility>
#include <vector>

#include "podcrawl/core/ascii.hpp"
#include "podcrawl/core/hash.hpp"
#include "podcrawl/core/json_string.hpp"

namespace podcrawl::serve {
namespace {

constexpr std::size_t k_sha1_hex_chars = 40;
// Digits of the whole seconds read: far past any date, and short of overflowing.
constexpr std::size_t k_max_date_digits = 15;
// Longest Retry-After given, whatever the rate: a day.
constexpr double k_longest_wait_seconds = 86400;

// The whole seconds of an X-Auth-Date: digits, or digits, a point and more digits (a float
// client's Date.getTime() / 1000); nullopt for anything else.
std::optional<std::int64_t> whole_seconds(std::string_view date) {
  if (date.size() > k_max_auth_date_chars) {
    return std::nullopt;
  }
  const std::size_t point = date.find('.');
  const std::string_view whole = date.substr(0, point);
  const std::string_view fraction =
      point == std::string_view::npos ? std::string_view() : date.substr(point + 1);
  const auto all_digits = [](std::string_view text) {
    return std::all_of(text.begin(), text.end(), [](char c) { return core::is_ascii_digit(c); });
  };
  if (whole.empty() || whole.size() > k_max_date_digits || !all_digits(whole) ||
      !all_digits(fraction)) {
    return std::nullopt;
  }
  std::int64_t seconds = 0;
  for (const char c : whole) {
    seconds = seconds * 10 + (c - '0');
  }
  return seconds;
}

// Whether `given` is `expected` (k_sha1_hex_chars lower-case hex digits) in either case. Every
// digit is compared whatever the others are, so the time taken tells nothing of the first that
// differs; what is checked of `given` alone (its length, its being hex) may take its own time.
bool same_hash(std::string_view given, std::string_view expected) {
  if (given.size() != k_sha1_hex_chars || expected.size() != k_sha1_hex_chars ||
      !std::all_of(given.begin(), given.end(), [](char c) { return core::is_hex_digit(c); })) {
    return false;
  }
  unsigned difference = 0;
  for (std::size_t i = 0; i < k_sha1_hex_chars; ++i) {
    // A hex digit with bit 0x20 set is its lower-case form; digits have it already.
    difference |= static_cast<unsigned>((static_cast<unsigned char>(given[i]) | 0x20U) ^
                                        static_cast<unsigned char>(expected[i]));
  }
  return difference == 0;
}

} // namespace

std::optional<AuthFailure> check_credentials(const Credentials& credentials,
                                             const std::string& secret, std::int64_t now_seconds) {
  if (credentials.key.empty() || credentials.date.empty() || credentials.authorization.empty()) {
    return AuthFailure::missing;
  }
  if (secret.empty()) {
    return AuthFailure::unknown_key;
  }
  const auto seconds = whole_seconds(credentials.date);
  if (!seconds || *seconds < now_seconds - k_auth_window_seconds ||
      *seconds > now_seconds + k_auth_window_seconds) {
    return AuthFailure::stale_date;
  }
  const std::string expected = core::sha1_hex(credentials.key + secret + credentials.date);
  if (!same_hash(credentials.authorization, expected)) {
    return AuthFailure::bad_hash;
  }
  return std::nullopt;
}

std::string auth_failure_body(AuthFailure failure) {
  std::string_view text;
  switch (failure) {
    case AuthFailure::missing:
      text = "Authorization header value either not set or blank.";
      break;
    case AuthFailure::unknown_key:
      text = "X-Auth-Key header value is not a valid API key.";
      break;
    case AuthFailure::stale_date:
      text =
          "X-Auth-Date header value must be a Unix time within the +/- 3 minute window of "
          "the server's clock.";
      break;
    case AuthFailure::bad_hash:
      text = "Authorization header value doesn't match.";
      break;
  }
  std::string body = "\"";
  core::append_json_escaped(body, text, core::k_json_short_escapes);
  body += '"';
  return body;
}

RequestBudget::RequestBudget(double per_second, double burst, std::size_t max_keys)
    : m_per_second(per_second), m_burst(burst), m_max_keys(std::max<std::size_t>(max_keys, 1)) {}

double RequestBudget::tokens_at(const Bucket& bucket, std::int64_t now_ms) const {
  // A clock read earlier by another thread may be later than now_ms: nothing refills then.
  const auto elapsed_ms = std::max<std::int64_t>(now_ms - bucket.updated_ms, 0);
  return std::min(m_burst, bucket.tokens + static_cast<double>(elapsed_ms) / 1000.0 * m_per_second);
}

void RequestBudget::evict(std::int64_t now_ms) {
  std::erase_if(m_buckets,
                [&](const auto& entry) { return tokens_at(entry.second, now_ms) >= m_burst; });
  const std::size_t keep = m_max_keys - m_max_keys / 10;
  if (m_buckets.size() <= keep) {
    return;
  }
  std::vector<std::pair<double, std::string>> fullest;
  fullest.reserve(m_buckets.size());
  for (const auto& [key, bucket] : m_buckets) {
    fullest.emplace_back(tokens_at(bucket, now_ms), key);
  }
  const std::size_t drop = m_buckets.size() - keep;
  std::nth_element(fullest.begin(), fullest.begin() + static_cast<std::ptrdiff_t>(drop - 1),
                   fullest.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t i = 0; i < drop; ++i) {
    m_buckets.erase(fullest[i].second);
  }
}

std::optional<std::int64_t> RequestBudget::take(const std::string& key, std::int64_t now_ms) {
  const std::lock_guard lock(m_mutex);
  auto found = m_buckets.find(key);
  if (found == m_buckets.end()) {
    if (m_buckets.size() >= m_max_keys) {
      evict(now_ms);
    }
    found = m_buckets.emplace(key, Bucket{m_burst, now_ms}).first;
  }
  Bucket& bucket = found->second;
  bucket.tokens = tokens_at(bucket, now_ms);
  bucket.updated_ms = std::max(bucket.updated_ms, now_ms);
  if (bucket.tokens >= 1.0) {
    bucket.tokens -= 1.0;
    return std::nullopt;
  }
  // Less a hair, so that a quotient that is whole but for rounding (0.4 / 0.1) is not one more.
  const double wait = std::ceil((1.0 - bucket.tokens) / m_per_second - 1e-9);
  return static_cast<std::int64_t>(std::clamp(wait, 1.0, k_longest_wait_seconds));
}

std::size_t RequestBudget::tracked() const {
  const std::lock_guard lock(m_mutex);
  return m_buckets.size();
}

} // namespace podcrawl::serve

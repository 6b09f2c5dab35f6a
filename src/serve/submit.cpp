#include "submit_internal.hpp"

#include <charconv>

#include "podcrawl/core/ascii.hpp"
#include "podcrawl/core/hash.hpp"
#include "podcrawl/core/random.hpp"

namespace podcrawl::serve::internal {

namespace {

constexpr std::string_view k_key_alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
// Characters of the key: 43 of 62 symbols, more than 256 bits.
constexpr std::size_t k_key_chars = 43;
// A form made this far in the future still counts (clocks of a server's threads agree; this is
// for a clock stepped back).
constexpr std::int64_t k_clock_drift_seconds = 60;

// Compares every byte, whatever the first difference: the time taken says nothing of where.
bool same_bytes(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) {
    return false;
  }
  unsigned char difference = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    difference |= static_cast<unsigned char>(a[i] ^ b[i]);
  }
  return difference == 0;
}

} // namespace

FormTokens::FormTokens() : m_key(core::random_text(k_key_alphabet, k_key_chars)) {}

std::string FormTokens::signature(std::string_view time) const {
  // The key first, then a time of digits alone: no other token's text ends the same way.
  return core::sha1_hex(m_key + "." + std::string(time));
}

std::string FormTokens::issue(std::int64_t now) const {
  const std::string time = std::to_string(now);
  return time + "." + signature(time);
}

bool FormTokens::valid(std::string_view token, std::int64_t now) const {
  const auto dot = token.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot > 19) {
    return false;
  }
  const std::string_view time = token.substr(0, dot);
  std::int64_t issued = 0;
  const auto [end, error] = std::from_chars(time.data(), time.data() + time.size(), issued);
  if (error != std::errc() || end != time.data() + time.size() || time.front() == '-') {
    return false;
  }
  if (issued > now + k_clock_drift_seconds || now - issued > k_form_token_seconds) {
    return false;
  }
  return same_bytes(token.substr(dot + 1), signature(time));
}

bool same_origin(const http::Request& request) {
  const std::string site = core::ascii_lower(request.header("Sec-Fetch-Site"));
  if (!site.empty()) {
    return site == "same-origin" || site == "none";
  }
  const std::string origin = core::ascii_lower(request.header("Origin"));
  if (origin.empty()) {
    return true;
  }
  const auto scheme_end = origin.find("://");
  if (scheme_end == std::string::npos) {
    return false; // "null": a sandboxed page, a redirect from elsewhere, a file
  }
  return origin.substr(scheme_end + 3) == core::ascii_lower(request.header("Host"));
}

} // namespace podcrawl::serve::internal

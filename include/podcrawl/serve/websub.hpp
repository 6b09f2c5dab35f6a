#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

// WebSub (W3C Recommendation, 2018), the subscriber's side `serve` answers at
// /websub/<token>: the pure parts, with no I/O and no clock.
namespace podcrawl::serve {

// Hex digits of a callback token (store::k_websub_token_bytes as hex).
inline constexpr std::size_t k_websub_token_chars = 64;
// The lease assumed when a hub's verification names none (or none that reads as seconds).
inline constexpr std::int64_t k_websub_assumed_lease_seconds = 86400;
// Longest hub.challenge echoed; a longer one is no verification this subscriber answers.
inline constexpr std::size_t k_max_websub_challenge_bytes = 1024;

// How often a hub's deliveries may mark one feed urgent: k_websub_mark_burst at once, then one
// every k_websub_mark_seconds. The hub is the feed's choice, and a delivery it repeats would
// otherwise have the feed fetched again and again; deliveries past it are answered alike and
// change nothing (the fetch they would cause is under way or just done).
inline constexpr double k_websub_mark_burst = 5;
inline constexpr double k_websub_mark_seconds = 12;

// True when `token` can name a subscription: k_websub_token_chars lower-case hex digits.
bool is_websub_token(std::string_view token);

enum class HubSignature {
  valid,
  missing,        // no X-Hub-Signature, or not "method=signature"
  unknown_method, // a method other than sha1, sha256, sha384, sha512
  mismatch,       // not the HMAC of the body under the secret
};

// The hex HMAC (RFC 2104) of `body` under `secret` with the hash `method` names ("sha1",
// "sha256", "sha384", "sha512"), lower case; "" for any other method.
std::string hub_signature(std::string_view method, std::string_view body, std::string_view secret);

// Check a delivery's X-Hub-Signature ("method=signature", W3C WebSub section 8.1) against the
// HMAC of the raw body under the subscription's secret. The hex signature is read in either
// case and compared in time that does not depend on where it differs.
HubSignature check_hub_signature(std::string_view header, std::string_view body,
                                 std::string_view secret);

// The lease a verification grants, from its hub.lease_seconds: a positive decimal integer, else
// k_websub_assumed_lease_seconds.
std::int64_t websub_lease_seconds(std::string_view text);

} // namespace podcrawl::serve

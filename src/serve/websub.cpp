#include "podcrawl/serve/websub.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>

#include "podcrawl/core/ascii.hpp"
#include "podcrawl/core/hash.hpp"

namespace podcrawl::serve {

namespace {

const EVP_MD* digest_of(std::string_view method) {
  if (method == "sha1") {
    return EVP_sha1();
  }
  if (method == "sha256") {
    return EVP_sha256();
  }
  if (method == "sha384") {
    return EVP_sha384();
  }
  if (method == "sha512") {
    return EVP_sha512();
  }
  return nullptr;
}

} // namespace

bool is_websub_token(std::string_view token) {
  return token.size() == k_websub_token_chars &&
         std::all_of(token.begin(), token.end(),
                     [](char c) { return core::is_ascii_digit(c) || (c >= 'a' && c <= 'f'); });
}

std::string hub_signature(std::string_view method, std::string_view body, std::string_view secret) {
  const EVP_MD* digest = digest_of(method);
  if (digest == nullptr) {
    return {};
  }
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (HMAC(digest, secret.data(), static_cast<int>(secret.size()),
           reinterpret_cast<const unsigned char*>(body.data()), body.size(), mac,
           &length) == nullptr) {
    return {};
  }
  return core::hex(std::string_view(reinterpret_cast<const char*>(mac), length));
}

HubSignature check_hub_signature(std::string_view header, std::string_view body,
                                 std::string_view secret) {
  const std::string value(core::trim(header));
  const std::size_t equals = value.find('=');
  if (equals == std::string::npos) {
    return HubSignature::missing;
  }
  const std::string method =
      core::ascii_lower(core::trim(std::string_view(value).substr(0, equals)));
  const std::string given =
      core::ascii_lower(core::trim(std::string_view(value).substr(equals + 1)));
  const std::string expected = hub_signature(method, body, secret);
  if (expected.empty()) {
    return HubSignature::unknown_method;
  }
  if (given.size() != expected.size() ||
      CRYPTO_memcmp(given.data(), expected.data(), expected.size()) != 0) {
    return HubSignature::mismatch;
  }
  return HubSignature::valid;
}

std::int64_t websub_lease_seconds(std::string_view text) {
  text = core::trim(text);
  if (text.empty() || text.size() > 12 ||
      !std::all_of(text.begin(), text.end(), [](char c) { return core::is_ascii_digit(c); })) {
    return k_websub_assumed_lease_seconds;
  }
  const std::int64_t seconds = std::stoll(std::string(text));
  return seconds > 0 ? seconds : k_websub_assumed_lease_seconds;
}

} // namespace podcrawl::serve

#include "podcrawl/net/url.hpp"

#include <arpa/inet.h>
#include <unicode/uidna.h>

#include <algorithm>
#include <array>
#include <memory>

#include "podcrawl/core/ascii.hpp"

namespace podcrawl::net {
namespace {

// Longest host name after IDN conversion (RFC 1035 limit plus a trailing dot).
constexpr std::size_t k_max_host_length = 254;
constexpr int k_max_port = 65535;

struct UidnaDeleter {
  void operator()(UIDNA* idna) const { uidna_close(idna); }
};

using core::is_ascii_alpha;
using core::is_ascii_digit;
using core::is_hex_digit;

// Leading and trailing C0 controls and spaces are not part of a URL; tabs and line breaks
// inside are dropped as browsers do, so "java\nscript:" cannot hide a scheme.
std::string clean_text(std::string_view text) {
  auto is_trimmed = [](char c) { return static_cast<unsigned char>(c) <= 0x20; };
  while (!text.empty() && is_trimmed(text.front())) {
    text.remove_prefix(1);
  }
  while (!text.empty() && is_trimmed(text.back())) {
    text.remove_suffix(1);
  }
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c != '\t' && c != '\n' && c != '\r') {
      out += c;
    }
  }
  return out;
}

bool is_valid_scheme(std::string_view scheme) {
  if (scheme.empty() || !is_ascii_alpha(scheme.front())) {
    return false;
  }
  return std::all_of(scheme.begin(), scheme.end(), [](char c) {
    return is_ascii_alpha(c) || is_ascii_digit(c) || c == '+' || c == '-' || c == '.';
  });
}

// The five parts of a URI reference (RFC 3986 appendix B); absent parts are nullopt.
struct Reference {
  std::optional<std::string_view> scheme;
  std::optional<std::string_view> authority;
  std::string_view path;
  std::optional<std::string_view> query;
  std::optional<std::string_view> fragment;
};

Reference split_reference(std::string_view text) {
  Reference ref;
  if (auto hash = text.find('#'); hash != std::string_view::npos) {
    ref.fragment = text.substr(hash + 1);
    text = text.substr(0, hash);
  }
  if (auto question = text.find('?'); question != std::string_view::npos) {
    ref.query = text.substr(question + 1);
    text = text.substr(0, question);
  }
  if (auto colon = text.find(':'); colon != std::string_view::npos) {
    std::string_view candidate = text.substr(0, colon);
    if (candidate.find('/') == std::string_view::npos && is_valid_scheme(candidate)) {
      ref.scheme = candidate;
      text = text.substr(colon + 1);
    }
  }
  if (text.starts_with("//")) {
    text.remove_prefix(2);
    auto slash = text.find('/');
    ref.authority = text.substr(0, slash);
    text = slash == std::string_view::npos ? std::string_view{} : text.substr(slash);
  }
  ref.path = text;
  return ref;
}

// Percent-encode bytes that may not appear raw in a path or query: controls, space,
// non-ASCII and the characters RFC 3986 excludes. Existing escapes are kept, upper-cased.
std::string encode_component(std::string_view text) {
  static constexpr std::string_view k_unsafe = "\"<>\\^`{|}";
  static constexpr std::array<char, 16> k_hex = {'0', '1', '2', '3', '4', '5', '6', '7',
                                                 '8', '9', 'A', 'B', 'C', 'D', 'E', 'F'};
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    auto byte = static_cast<unsigned char>(text[i]);
    if (byte == '%' && i + 2 < text.size() && is_hex_digit(text[i + 1]) &&
        is_hex_digit(text[i + 2])) {
      out += '%';
      out += core::ascii_upper(text[i + 1]);
      out += core::ascii_upper(text[i + 2]);
      i += 2;
    } else if (byte <= 0x20 || byte >= 0x7F || byte == '%' ||
               k_unsafe.find(static_cast<char>(byte)) != std::string_view::npos) {
      out += '%';
      out += k_hex[byte >> 4];
      out += k_hex[byte & 0x0F];
    } else {
      out += static_cast<char>(byte);
    }
  }
  return out;
}

std::optional<std::string> idn_to_ascii(std::string_view host) {
  static const std::unique_ptr<UIDNA, UidnaDeleter> k_idna = [] {
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<UIDNA, UidnaDeleter> idna(uidna_openUTS46(
        UIDNA_NONTRANSITIONAL_TO_ASCII | UIDNA_CHECK_BIDI | UIDNA_CHECK_CONTEXTJ, &status));
    return U_SUCCESS(status) ? std::move(idna) : nullptr;
  }();
  if (!k_idna) {
    return std::nullopt;
  }
  std::array<char, k_max_host_length + 1> buffer{};
  UIDNAInfo info = UIDNA_INFO_INITIALIZER;
  UErrorCode status = U_ZERO_ERROR;
  int32_t length =
      uidna_nameToASCII_UTF8(k_idna.get(), host.data(), static_cast<int32_t>(host.size()),
                             buffer.data(), static_cast<int32_t>(buffer.size()), &info, &status);
  if (U_FAILURE(status) || info.errors != 0 || length <= 0 ||
      static_cast<std::size_t>(length) > k_max_host_length) {
    return std::nullopt;
  }
  return std::string(buffer.data(), static_cast<std::size_t>(length));
}

bool is_host_char(char c) {
  static constexpr std::string_view k_allowed = "-._~!$&'()*+,;=%";
  return is_ascii_alpha(c) || is_ascii_digit(c) || k_allowed.find(c) != std::string_view::npos;
}

// Return the host in canonical form, or nullopt when it is not a valid host.
std::optional<std::string> canonical_host(std::string_view host) {
  if (host.empty()) {
    return std::nullopt;
  }
  if (host.front() == '[') {
    if (host.size() < 3 || host.back() != ']') {
      return std::nullopt;
    }
    std::string inner = core::ascii_lower(host.substr(1, host.size() - 2));
    std::array<unsigned char, 16> bytes{};
    if (inet_pton(AF_INET6, inner.c_str(), bytes.data()) != 1) {
      return std::nullopt;
    }
    return inner;
  }
  bool ascii = std::all_of(host.begin(), host.end(),
                           [](char c) { return static_cast<unsigned char>(c) < 0x80; });
  if (!ascii) {
    // IDN mapping can yield ASCII that is no host character ("：" becomes ":", controls
    // pass through): the result must pass the same check as an ASCII host.
    auto converted = idn_to_ascii(host);
    if (!converted || !std::all_of(converted->begin(), converted->end(), is_host_char)) {
      return std::nullopt;
    }
    return converted;
  }
  if (host.size() > k_max_host_length || !std::all_of(host.begin(), host.end(), is_host_char)) {
    return std::nullopt;
  }
  return core::ascii_lower(host);
}

std::optional<int> parse_port(std::string_view digits) {
  if (digits.empty() || digits.size() > 5 ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return is_ascii_digit(c); })) {
    return std::nullopt;
  }
  int port = 0;
  for (char c : digits) {
    port = port * 10 + (c - '0');
  }
  if (port > k_max_port) {
    return std::nullopt;
  }
  return port;
}

// Fill userinfo, host and port from an authority; false when it is malformed.
bool parse_authority(std::string_view authority, Url& url) {
  if (auto at = authority.rfind('@'); at != std::string_view::npos) {
    url.userinfo = encode_component(authority.substr(0, at));
    authority = authority.substr(at + 1);
  }
  std::string_view host = authority;
  std::string_view port;
  auto bracket = authority.rfind(']');
  auto colon = authority.rfind(':');
  if (colon != std::string_view::npos && (bracket == std::string_view::npos || colon > bracket)) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
  }
  if (!port.empty()) {
    url.port = parse_port(port);
    if (!url.port) {
      return false;
    }
  }
  auto canonical = canonical_host(host);
  if (!canonical) {
    return false;
  }
  url.host = std::move(*canonical);
  return true;
}

std::string merge_paths(const Url& base, std::string_view reference_path) {
  auto slash = base.path.rfind('/');
  std::string merged =
      slash == std::string::npos ? std::string("/") : base.path.substr(0, slash + 1);
  merged += reference_path;
  return merged;
}

std::string build_reference(std::string_view scheme, std::string_view authority,
                            std::string_view path, std::optional<std::string_view> query,
                            std::optional<std::string_view> fragment) {
  std::string out;
  out.append(scheme).append("://").append(authority).append(path);
  if (query) {
    out.append("?").append(*query);
  }
  if (fragment) {
    out.append("#").append(*fragment);
  }
  return out;
}

std::string authority_of(const Url& url) {
  std::string out;
  if (!url.userinfo.empty()) {
    out.append(url.userinfo).append("@");
  }
  if (url.host.find(':') != std::string::npos) {
    out.append("[").append(url.host).append("]");
  } else {
    out.append(url.host);
  }
  if (url.port) {
    out.append(":").append(std::to_string(*url.port));
  }
  return out;
}

} // namespace

std::string remove_dot_segments(std::string_view path) {
  std::string input(path);
  std::string output;
  std::string_view in = input;
  while (!in.empty()) {
    if (in.starts_with("../")) {
      in.remove_prefix(3);
    } else if (in.starts_with("./")) {
      in.remove_prefix(2);
    } else if (in.starts_with("/./")) {
      in.remove_prefix(2);
    } else if (in == "/.") {
      in = "/";
    } else if (in.starts_with("/../") || in == "/..") {
      in = in.size() == 3 ? std::string_view("/") : in.substr(3);
      auto last = output.rfind('/');
      output.erase(last == std::string::npos ? 0 : last);
    } else if (in == "." || in == "..") {
      in = {};
    } else {
      auto next = in.find('/', 1);
      output.append(in.substr(0, next));
      in = next == std::string_view::npos ? std::string_view{} : in.substr(next);
    }
  }
  return output;
}

std::optional<Url> parse_url(std::string_view text) {
  std::string cleaned = clean_text(text);
  if (cleaned.empty() || cleaned.size() > k_max_url_length) {
    return std::nullopt;
  }
  Reference ref = split_reference(cleaned);
  if (!ref.scheme || !ref.authority) {
    return std::nullopt;
  }
  Url url;
  url.scheme = core::ascii_lower(*ref.scheme);
  if (!parse_authority(*ref.authority, url)) {
    return std::nullopt;
  }
  url.path = encode_component(remove_dot_segments(ref.path));
  if (url.path.empty()) {
    url.path.push_back('/'); // not `= "/"`: GCC 12's -Wrestrict false positive in Release
  }
  if (ref.query) {
    url.has_query = true;
    url.query = encode_component(*ref.query);
  }
  if (ref.fragment) {
    url.fragment = encode_component(*ref.fragment);
  }
  return url;
}

std::string to_string(const Url& url) {
  std::string out = url.scheme + "://" + authority_of(url) + url.path;
  if (url.has_query) {
    out.append("?").append(url.query);
  }
  if (!url.fragment.empty()) {
    out.append("#").append(url.fragment);
  }
  return out;
}

std::optional<std::string> normalize_feed_url(std::string_view text) {
  auto url = parse_url(text);
  if (!url || (url->scheme != "http" && url->scheme != "https")) {
    return std::nullopt;
  }
  if (url->port && ((url->scheme == "http" && *url->port == 80) ||
                    (url->scheme == "https" && *url->port == 443))) {
    url->port.reset();
  }
  url->fragment.clear();
  std::string normalized = to_string(*url);
  if (normalized.size() > k_max_feed_url_length) {
    return std::nullopt;
  }
  return normalized;
}

std::string resolve(std::string_view base, std::string_view reference) {
  std::string cleaned = clean_text(reference);
  if (cleaned.empty()) {
    return {};
  }
  auto base_url = parse_url(base);
  if (!base_url) {
    return cleaned;
  }
  Reference ref = split_reference(cleaned);
  std::string target;
  if (ref.scheme) {
    auto absolute = parse_url(cleaned);
    return absolute ? to_string(*absolute) : cleaned;
  }
  if (ref.authority) {
    target = build_reference(base_url->scheme, *ref.authority, ref.path, ref.query, ref.fragment);
  } else {
    std::string path;
    std::optional<std::string_view> query = ref.query;
    std::string base_query = base_url->query;
    if (ref.path.empty()) {
      path = base_url->path;
      if (!query && base_url->has_query) {
        query = base_query;
      }
    } else if (ref.path.front() == '/') {
      path = std::string(ref.path);
    } else {
      path = merge_paths(*base_url, ref.path);
    }
    target = build_reference(base_url->scheme, authority_of(*base_url), path, query, ref.fragment);
  }
  auto resolved = parse_url(target);
  return resolved ? to_string(*resolved) : target;
}

bool is_http_url(std::string_view text) {
  auto url = parse_url(text);
  return url && (url->scheme == "http" || url->scheme == "https");
}

std::string redact(std::string_view url) {
  if (auto parsed = parse_url(url); parsed && !parsed->userinfo.empty()) {
    parsed->userinfo.clear();
    return to_string(*parsed);
  }
  // Text that is not a URL may still carry credentials before an '@'; cut them out.
  std::string text(url);
  auto start = text.find("://");
  if (start == std::string::npos) {
    return text;
  }
  start += 3;
  auto end = text.find_first_of("/?#", start);
  auto at = text.rfind('@', end == std::string::npos ? std::string::npos : end);
  if (at != std::string::npos && at >= start) {
    text.erase(start, at + 1 - start);
  }
  return text;
}

} // namespace podcrawl::net

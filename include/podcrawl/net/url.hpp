#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace podcrawl::net {

// Longest URL text accepted, in bytes after trimming; longer text is not a URL.
inline constexpr std::size_t k_max_url_length = 8192;
// Longest feed URL, in bytes once normalized: the crawl list keeps feed URLs in a unique index,
// whose entries PostgreSQL bounds at about 2,700 bytes.
inline constexpr std::size_t k_max_feed_url_length = 2048;

// An absolute URL split into its parts. Only hierarchical URLs (scheme://host/...) parse.
struct Url {
  std::string scheme; // lower case
  std::string userinfo;
  std::string host; // lower case, IDN as punycode (xn--), IPv6 without brackets
  std::optional<int> port;
  std::string path;  // starts with '/' (empty path becomes "/")
  std::string query; // without '?'; empty when absent
  bool has_query = false;
  std::string fragment; // without '#'
};

// Parse an absolute URL; surrounding whitespace is trimmed. nullopt when it is not one.
std::optional<Url> parse_url(std::string_view text);

// Serialize a URL. The host is bracketed when it is an IPv6 address.
std::string to_string(const Url& url);

// Return the canonical form used for the crawl list: lower-case scheme and host, IDN to
// punycode, default port dropped, fragment dropped, empty path as "/". Only http and https
// are accepted, up to k_max_feed_url_length; nullopt for anything else.
std::optional<std::string> normalize_feed_url(std::string_view text);

// Resolve a reference (absolute, scheme-relative, absolute-path or relative) against a base
// URL per RFC 3986. Returns the reference trimmed and unchanged when base is not a URL;
// empty when the reference is empty.
// A result that parses as a URL comes back serialized by to_string (so "http://g" reads
// "http://g/" and spaces are percent-encoded); any other absolute reference (mailto:, data:)
// comes back trimmed and otherwise unchanged, so callers must still check its scheme.
std::string resolve(std::string_view base, std::string_view reference);

// True when the URL is absolute http or https.
bool is_http_url(std::string_view text);

// The URL with any user:password removed, for logs.
std::string redact(std::string_view url);

// Return the path with "." and ".." segments removed (RFC 3986 section 5.2.4).
std::string remove_dot_segments(std::string_view path);

} // namespace podcrawl::net

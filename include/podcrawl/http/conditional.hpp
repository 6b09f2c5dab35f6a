#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "podcrawl/http/server.hpp"

namespace podcrawl::http {

// Return a strong entity tag for body, quotes included: the 64-bit hash of the bytes
// (core::word_hash_64) and their length, in hex ("\"c0162973dfc3e570-53c5\""). Equal bytes
// give equal tags on every machine and run. It costs ~0.2 us per KB: compute it once per
// rendered body, not per request.
std::string strong_etag(std::string_view body);

// Whether an If-None-Match value matches etag (quotes included, "W/" allowed) by the weak
// comparison RFC 9110 section 13.1.2 asks for: "*" matches anything, and any entity tag of
// the list matches when its opaque part equals etag's, weak or not. A malformed list matches
// nothing from its first malformed element on. Linear in the value's length.
bool etag_matches(std::string_view if_none_match, std::string_view etag);

// Format as an IMF-fixdate (RFC 9110 section 5.6.7), "Sun, 06 Nov 1994 08:49:37 GMT". Times
// before 1970 or after 9999 are clamped to those years.
std::string http_date(std::int64_t unix_seconds);

// Parse an HTTP date in any of the three forms RFC 9110 section 5.6.7 names: IMF-fixdate, RFC
// 850 ("Sunday, 06-Nov-94 08:49:37 GMT"; a two-digit year below 70 is 20xx, else 19xx) and
// asctime ("Sun Nov  6 08:49:37 1994"). Surrounding spaces are allowed, the weekday is not
// checked against the date. Returns nullopt for anything else, an impossible date included.
std::optional<std::int64_t> parse_http_date(std::string_view text);

// Whether a GET or HEAD request may be answered 304 Not Modified for a representation with
// this etag and last_modified time (Unix seconds; negative when unknown). If-None-Match, when
// present, decides alone (etag_matches); otherwise If-Modified-Since, when it is a valid date,
// is compared with last_modified. Any other method: false (RFC 9110 sections 13.1.2, 13.1.3).
bool not_modified(const Request& request, std::string_view etag, std::int64_t last_modified);

} // namespace podcrawl::http

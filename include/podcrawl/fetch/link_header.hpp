#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace podcrawl::fetch {

// Most Link header field values of one response kept for reading; the header block's own bound
// (k_max_header_bytes) limits their bytes.
inline constexpr std::size_t k_max_link_headers = 32;

// What a response's Link headers (RFC 8288) say of WebSub: the hub to subscribe at and the
// topic's own address.
struct WebSubLinks {
  std::string hub;  // the first target with the relation type "hub"; "" when none
  std::string self; // the first with "self"
};

// Read Link header field values (each may hold several link-values, separated by commas) for
// rel="hub" and rel="self". A rel parameter lists relation types separated by spaces, compared
// case-insensitively; a link-value with an anchor parameter describes another resource and is
// skipped. Targets are resolved against base_url (the response's URL); only http(s) targets
// count. Malformed link-values are skipped, never thrown.
WebSubLinks websub_links(const std::vector<std::string>& values, std::string_view base_url);

} // namespace podcrawl::fetch

#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace podcrawl::feed {

struct OpmlEntry {
  std::string url;   // xmlUrl as written (not yet normalized)
  std::string title; // text or title attribute; may be empty
};

// Read every outline with an xmlUrl, nested outlines included, in document order.
// Throws core::UsageError when the bytes are not OPML.
std::vector<OpmlEntry> parse_opml(std::string_view bytes);

// Write an OPML 2.0 document listing the entries as rss outlines.
std::string write_opml(const std::vector<OpmlEntry>& entries, std::string_view title);

} // namespace podcrawl::feed

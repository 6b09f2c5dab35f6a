#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace podcrawl::html {

// Feed links returned from one page at most.
inline constexpr std::size_t k_max_feed_links = 32;

// Return the absolute URLs of the feeds an HTML page advertises with
// <link rel="alternate" type="application/rss+xml|atom+xml" href="…">, in document order.
// Only http(s) URLs are returned, each once, at most k_max_feed_links of them. The page is read
// as sanitize() reads HTML: at most k_max_input_bytes of it (sanitize.hpp), its nesting and
// attributes bounded.
std::vector<std::string> find_feed_links(std::string_view html, std::string_view base_url);

} // namespace podcrawl::html

// URL text of any shape, as "REFERENCE" or "BASE\0REFERENCE". Besides not crashing, the URL
// functions keep these promises, checked here:
// - a normalized feed URL normalizes to itself (the crawl list's canonical form is stable);
// - a parsed URL serializes to text that parses back to the same serialization;
// - against a base that is a URL, resolve returns a URL that parses already in to_string's
//   form (a base that is not one leaves the reference as it was).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "podcrawl/net/url.hpp"

namespace {

namespace net = podcrawl::net;

void check(bool holds) {
  if (!holds) {
    __builtin_trap();
  }
}

// True when the text parses and serializes back to itself.
bool is_serialized_url(const std::string& text) {
  auto url = net::parse_url(text);
  return url && net::to_string(*url) == text;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string input(reinterpret_cast<const char*>(data), size);
  std::string base = "https://feeds.example.com/show/feed.xml?x=1";
  std::string reference = input;
  if (auto nul = input.find('\0'); nul != std::string::npos) {
    base = input.substr(0, nul);
    reference = input.substr(nul + 1);
  }

  if (auto normalized = net::normalize_feed_url(reference)) {
    auto again = net::normalize_feed_url(*normalized);
    check(again && *again == *normalized);
    check(net::is_http_url(*normalized));
  }
  if (auto url = net::parse_url(reference)) {
    std::string text = net::to_string(*url);
    if (text.size() <= net::k_max_url_length) {
      check(is_serialized_url(text));
    }
  }
  std::string resolved = net::resolve(base, reference);
  if (net::parse_url(base) && net::parse_url(resolved)) {
    check(is_serialized_url(resolved));
  }
  (void)net::redact(reference);
  return 0;
}

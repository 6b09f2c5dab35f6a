// Feed bytes of any shape: parse_feed must return a value (never throw or crash) and the
// show it returns must serialize to the SPEC's JSON, which needs valid UTF-8 throughout.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "podcrawl/feed/json.hpp"
#include "podcrawl/feed/parser.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  podcrawl::feed::ParseOptions options;
  options.feed_url = "https://feeds.example.com/show/feed.xml";
  podcrawl::feed::ParseResult result = podcrawl::feed::parse_feed(bytes, options);
  if (result.outcome == podcrawl::feed::ParseOutcome::ok) {
    // dump() throws on invalid UTF-8: the parser promises UTF-8 output.
    (void)podcrawl::feed::to_json(result.show).dump();
  }
  return 0;
}

// HTML of any shape, after one byte that sets the summary length. sanitize must not crash,
// and what it returns, parsed again the way a browser would, holds only allowlisted HTML
// elements, no event handler or style attributes and only http(s)/mailto URLs. When the
// reading without the parser accepts the input, it gives what the parser's path gives.
// plain_text returns at most the code points asked for.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "html_internal.hpp"
#include "podcrawl/html/sanitize.hpp"
#include "support/active_content.hpp"

namespace {

constexpr std::string_view k_base = "https://example.com/show/episode-1";

std::size_t count_code_points(std::string_view utf8) {
  return static_cast<std::size_t>(std::count_if(utf8.begin(), utf8.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) {
    return 0;
  }
  std::size_t max_chars = data[0];
  std::string html(reinterpret_cast<const char*>(data) + 1, size - 1);

  std::string sanitized = podcrawl::html::sanitize(html, k_base);
  if (!podcrawl::testing::active_content(sanitized).empty()) {
    __builtin_trap();
  }
  if (auto read = podcrawl::html::internal::sanitize_well_formed(html, k_base);
      read && *read != podcrawl::html::internal::sanitize_parsed(html, k_base)) {
    __builtin_trap();
  }
  std::string text = podcrawl::html::plain_text(html, max_chars);
  if (count_code_points(text) > max_chars) {
    __builtin_trap();
  }
  return 0;
}

// Date text of any shape: parse_date returns a value or nullopt, never crashes, overflows
// or reads past its input.
#include <cstddef>
#include <cstdint>
#include <string>

#include "dates_internal.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // A copy of exactly the input, so reading past its end is caught by AddressSanitizer.
  std::string text(reinterpret_cast<const char*>(data), size);
  (void)podcrawl::feed::internal::parse_date(std::string_view(text));
  return 0;
}

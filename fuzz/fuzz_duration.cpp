// Duration text of any shape: parse_duration returns nullopt or a value within
// [0, k_max_duration_seconds], as its contract says.
#include <cstddef>
#include <cstdint>
#include <string>

#include "duration_internal.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  auto seconds = podcrawl::feed::internal::parse_duration(std::string_view(text));
  if (seconds && (*seconds < 0 || *seconds > podcrawl::feed::internal::k_max_duration_seconds)) {
    __builtin_trap();
  }
  return 0;
}

#include "podcrawl/core/ascii.hpp"

#include <algorithm>

namespace podcrawl::core {

std::string ascii_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    c = ascii_lower(c);
  }
  return out;
}

bool equals_ignoring_ascii_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return ascii_lower(x) == ascii_lower(y);
         });
}

std::string_view trim(std::string_view text, std::string_view set) {
  const auto first = text.find_first_not_of(set);
  if (first == std::string_view::npos) {
    return text.substr(text.size());
  }
  return text.substr(first, text.find_last_not_of(set) - first + 1);
}

} // namespace podcrawl::core

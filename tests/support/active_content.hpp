#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace podcrawl::testing {

// Parse HTML the way a browser would and return every problem found in the tree: elements
// outside the sanitizer's allowlist or outside the HTML namespace, event handler, style and
// other script-bearing attributes, and href/src/cite values that are not http(s) or mailto.
// Empty when the HTML is inert.
std::vector<std::string> active_content(std::string_view html);

} // namespace podcrawl::testing

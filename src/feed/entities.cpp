#include <algorithm>
#include <array>

#include "recovery_internal.hpp"

namespace podcrawl::feed {
namespace {

struct NamedReference {
  std::string_view name;
  std::u32string_view characters;
};

// HTML's named character references, sorted by name.
constexpr NamedReference k_html_references[] = {
#include "html_references.inc"
};

} // namespace

std::u32string_view html_entity(std::string_view name) {
  const auto found = std::lower_bound(
      std::begin(k_html_references), std::end(k_html_references), name,
      [](const NamedReference& entry, std::string_view wanted) { return entry.name < wanted; });
  if (found == std::end(k_html_references) || found->name != name) {
    return {};
  }
  return found->characters;
}

} // namespace podcrawl::feed

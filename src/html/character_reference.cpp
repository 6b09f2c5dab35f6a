#include "podcrawl/html/character_reference.hpp"

#include <algorithm>
#include <iterator>

#include "podcrawl/core/ascii.hpp"

namespace podcrawl::html {
namespace {

struct NamedReference {
  std::string_view name;
  std::u32string_view characters;
};

// The HTML Standard's named character references, with their ';', sorted by name byte by byte.
constexpr NamedReference k_named_references[] = {
#include "html_references.inc"
};

// The longest name of the table ("CounterClockwiseContourIntegral"): a longer run of letters
// and digits is no name, and is not read to its end.
constexpr std::size_t k_longest_name =
    std::max_element(std::begin(k_named_references), std::end(k_named_references),
                     [](const NamedReference& a, const NamedReference& b) {
                       return a.name.size() < b.name.size();
                     })
        ->name.size();

// The characters of a name of the table, or empty.
std::u32string_view characters_of(std::string_view name) {
  const auto found = std::lower_bound(
      std::begin(k_named_references), std::end(k_named_references), name,
      [](const NamedReference& entry, std::string_view wanted) { return entry.name < wanted; });
  if (found == std::end(k_named_references) || found->name != name) {
    return {};
  }
  return found->characters;
}

// The named reference at text[at] == '&'.
std::optional<CharacterReference> read_named(std::string_view text, std::size_t at,
                                             const ReferenceRules& rules) {
  const std::size_t start = at + 1;
  std::size_t end = start;
  while (end < text.size() && core::is_ascii_alnum(text[end]) && end - start <= k_longest_name) {
    ++end;
  }
  if (end == start || end - start > k_longest_name || end == text.size() || text[end] != ';') {
    return std::nullopt;
  }
  const std::string_view name = text.substr(start, end - start);
  if (rules.names &&
      std::find(rules.names->begin(), rules.names->end(), name) == rules.names->end()) {
    return std::nullopt;
  }
  const std::u32string_view characters = characters_of(name);
  if (characters.empty()) {
    return std::nullopt;
  }
  return CharacterReference{
      .length = end + 1 - at, .characters = characters, .number = std::nullopt};
}

// The numeric reference at text[at] == '&', text[at + 1] == '#'.
std::optional<CharacterReference> read_numeric(std::string_view text, std::size_t at,
                                               std::size_t max_digits) {
  std::size_t i = at + 2;
  const bool hex = i < text.size() && (text[i] == 'x' || text[i] == 'X');
  i += hex ? 1 : 0;
  const std::size_t first_digit = i;
  char32_t number = 0;
  while (i < text.size() && i - first_digit < max_digits &&
         (hex ? core::is_hex_digit(text[i]) : core::is_ascii_digit(text[i]))) {
    const char c = core::ascii_lower(text[i]);
    const auto digit = static_cast<char32_t>(core::is_ascii_digit(c) ? c - '0' : c - 'a' + 10);
    number = std::min<char32_t>(number * (hex ? 16 : 10) + digit, k_past_last_code_point);
    ++i;
  }
  if (i == first_digit || i == text.size() || text[i] != ';') {
    return std::nullopt;
  }
  return CharacterReference{.length = i + 1 - at, .characters = {}, .number = number};
}

} // namespace

std::optional<CharacterReference> read_character_reference(std::string_view text, std::size_t at,
                                                           const ReferenceRules& rules) {
  if (text[at] != '&' || at + 1 == text.size()) {
    return std::nullopt;
  }
  if (text[at + 1] == '#') {
    return read_numeric(text, at, rules.max_digits);
  }
  return read_named(text, at, rules);
}

} // namespace podcrawl::html

#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>

// HTML character references ("&eacute;", "&#233;", "&#xE9;") read from text: one reading of
// their syntax and one table of names (the HTML Standard's) for every reader of references.
// Each caller says which references it accepts and decides what a number that names no
// character becomes.
namespace podcrawl::html {

// Digits of a numeric reference read by default: enough for U+10FFFF in decimal (1114111).
inline constexpr std::size_t k_max_reference_digits = 7;
// One past the last code point: a numeric reference's number saturates here.
inline constexpr char32_t k_past_last_code_point = 0x110000;

// Which references read_character_reference reads.
struct ReferenceRules {
  // The only names read (case-sensitive, without '&' and ';', each one of the HTML Standard's
  // table); when not set, every name of the table.
  std::optional<std::span<const std::string_view>> names;
  // Most digits of a numeric reference, after "&#" or "&#x".
  std::size_t max_digits = k_max_reference_digits;
};

// A character reference read from text.
struct CharacterReference {
  // Bytes from the '&' through the ';'.
  std::size_t length = 0;
  // A named reference's code points, from the table: one, or two for a few names
  // ("&NotEqualTilde;" is U+2242 U+0338). Empty for a numeric reference.
  std::u32string_view characters;
  // A numeric reference's number, at most k_past_last_code_point, and not checked: zero, a
  // surrogate, a control or a noncharacter is the caller's to take, refuse or replace (see
  // names_character). nullopt for a named reference.
  std::optional<char32_t> number;
};

// Read the reference that starts with the '&' at text[at]: '&', a name the rules accept, ';';
// or "&#", 1 to rules.max_digits decimal digits, ';'; or "&#x" (or "&#X"), 1 to
// rules.max_digits hexadecimal digits, ';'. nullopt when none starts there: a name outside the
// rules or the table, a name or number without its ';' (the legacy names that HTML also reads
// without one, such as "&copy", are not read), "&#" without digits, more digits than allowed, or
// the text ending first. `at` must be inside text.
std::optional<CharacterReference> read_character_reference(std::string_view text, std::size_t at,
                                                           const ReferenceRules& rules);

// Whether a numeric reference's number names a character: not zero, not a surrogate, at most
// U+10FFFF. HTML reads any other number as U+FFFD.
constexpr bool names_character(char32_t number) {
  return number != 0 && number < k_past_last_code_point && !(number >= 0xD800 && number <= 0xDFFF);
}

} // namespace podcrawl::html

#include "podcrawl/html/character_reference.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace podcrawl::html {
namespace {

constexpr ReferenceRules k_every_name{.names = std::nullopt, .max_digits = k_max_reference_digits};

struct Accepted {
  std::string text;
  std::size_t at = 0;
  std::size_t length = 0;
  std::u32string characters;      // a named reference's
  std::optional<char32_t> number; // a numeric reference's
};

TEST(ReadCharacterReference, ReadsNamesOfTheTableAndNumbersWithTheirSemicolon) {
  const std::vector<Accepted> table = {
      {"&amp;", 0, 5, U"&", std::nullopt},
      {"&AMP;", 0, 5, U"&", std::nullopt}, // a name of its own in the table
      {"&eacute;", 0, 8, U"\u00e9", std::nullopt},
      {"&nbsp;", 0, 6, U"\u00a0", std::nullopt},
      {"&NotEqualTilde;", 0, 15, U"\u2242\u0338", std::nullopt},
      {"&fjlig;", 0, 7, U"fj", std::nullopt},
      {"&CounterClockwiseContourIntegral;", 0, 33, U"\u2233", std::nullopt}, // the longest
      {"Q&amp;A", 1, 5, U"&", std::nullopt},
      {"&lt;&gt;", 4, 4, U">", std::nullopt},
      {"&#233;", 0, 6, U"", 233},
      {"&#xE9;", 0, 6, U"", 233},
      {"&#XE9;", 0, 6, U"", 233},
      {"&#xe9;", 0, 6, U"", 233},
      {"&#65;&#66;", 5, 5, U"", 66},
      {"&#0000065;", 0, 10, U"", 65},  // seven digits
      {"&#x0000041;", 0, 11, U"", 65}, // seven hexadecimal digits
      {"&#x1F399;", 0, 9, U"", 0x1F399},
      {"&#1114111;", 0, 10, U"", 0x10FFFF},
      {"&#x10FFFF;", 0, 10, U"", 0x10FFFF},
      // Numbers that name no character are read; the caller decides (see names_character).
      {"&#0;", 0, 4, U"", 0},
      {"&#x0;", 0, 5, U"", 0},
      {"&#xD800;", 0, 8, U"", 0xD800},
      {"&#xDFFF;", 0, 8, U"", 0xDFFF},
      {"&#1;", 0, 4, U"", 1},
      {"&#128;", 0, 6, U"", 128},
      {"&#xFFFE;", 0, 8, U"", 0xFFFE},
      {"&#x110000;", 0, 10, U"", k_past_last_code_point},
      {"&#1114112;", 0, 10, U"", k_past_last_code_point},
      {"&#9999999;", 0, 10, U"", k_past_last_code_point}, // saturated
      {"&#xFFFFFFF;", 0, 11, U"", k_past_last_code_point},
  };
  for (const Accepted& row : table) {
    SCOPED_TRACE(row.text);
    const std::optional<CharacterReference> reference =
        read_character_reference(row.text, row.at, k_every_name);
    ASSERT_TRUE(reference.has_value());
    EXPECT_EQ(reference->length, row.length);
    EXPECT_EQ(reference->characters, row.characters);
    EXPECT_EQ(reference->number, row.number);
  }
}

TEST(ReadCharacterReference, RefusesWhatIsNoReference) {
  const std::vector<std::string> table = {
      "&",
      "&;",
      "& amp;",
      "&amp",       // the end of the text before the ';'
      "&amp x",     // no ';'
      "&copy",      // a legacy name HTML also reads without its ';'
      "&copy text", // the same inside text
      "&notit;",    // "&not" followed by more letters
      "&nosuch;",   // no such name
      "&Eacute ;",  // a space before the ';'
      "&eacute-;",  // not a letter or digit
      "&CounterClockwiseContourIntegralX;",
      "&CounterClockwiseContourIntegralCounterClockwiseContourIntegral;",
      "&#;", // no digits
      "&#x;",
      "&#X;",
      "&#",
      "&#x",
      "&#65", // no ';'
      "&#x41",
      "&#65 ;",
      "&#12a;", // not a decimal digit
      "&#xG;",  // not a hexadecimal digit
      "&#-1;",
      "&#+1;",
      "&# 65;",
      "&#00000065;",             // eight digits
      "&#x00000041;",            // eight hexadecimal digits
      "&#99999999999999999999;", // far too many digits
      "&#x41x;",
  };
  for (const std::string& text : table) {
    SCOPED_TRACE(text);
    EXPECT_FALSE(read_character_reference(text, 0, k_every_name).has_value());
  }
  EXPECT_FALSE(read_character_reference("x", 0, k_every_name).has_value()); // not at an '&'
}

TEST(ReadCharacterReference, ReadsOnlyTheNamesItIsGiven) {
  static constexpr std::array<std::string_view, 2> k_names = {"amp", "nbsp"};
  constexpr ReferenceRules k_rules{.names = k_names, .max_digits = k_max_reference_digits};
  EXPECT_EQ(read_character_reference("&amp;", 0, k_rules)->characters, U"&");
  EXPECT_EQ(read_character_reference("&nbsp;", 0, k_rules)->characters, U"\u00a0");
  EXPECT_FALSE(read_character_reference("&lt;", 0, k_rules).has_value());
  EXPECT_FALSE(read_character_reference("&AMP;", 0, k_rules).has_value());
  EXPECT_FALSE(read_character_reference("&eacute;", 0, k_rules).has_value());
  // Numbers are read whatever the names.
  EXPECT_EQ(read_character_reference("&#60;", 0, k_rules)->number, U'<');
  // A name given that is not in the table is still no reference.
  constexpr std::array<std::string_view, 1> k_unknown = {"nosuch"};
  EXPECT_FALSE(read_character_reference("&nosuch;", 0, {.names = k_unknown, .max_digits = 7}));
  // No names at all: numbers only.
  EXPECT_FALSE(read_character_reference(
      "&amp;", 0,
      {.names = std::span<const std::string_view>{}, .max_digits = k_max_reference_digits}));
}

TEST(ReadCharacterReference, ReadsAsManyDigitsAsItIsAllowed) {
  const ReferenceRules three{.names = std::nullopt, .max_digits = 3};
  EXPECT_EQ(read_character_reference("&#255;", 0, three)->number, 255U);
  EXPECT_EQ(read_character_reference("&#x3A9;", 0, three)->number, 0x3A9U);
  EXPECT_FALSE(read_character_reference("&#1000;", 0, three));
  EXPECT_FALSE(read_character_reference("&#x1000;", 0, three));

  const ReferenceRules many{.names = std::nullopt, .max_digits = 40};
  const std::string zeros(30, '0');
  EXPECT_EQ(read_character_reference("&#" + zeros + "65;", 0, many)->number, 65U);
  EXPECT_EQ(read_character_reference("&#x" + zeros + "41;", 0, many)->number, 65U);
  EXPECT_EQ(read_character_reference("&#" + std::string(38, '9') + ";", 0, many)->number,
            k_past_last_code_point);
  EXPECT_EQ(read_character_reference("&#x" + std::string(38, 'f') + ";", 0, many)->number,
            k_past_last_code_point);
}

TEST(NamesCharacter, RefusesZeroSurrogatesAndNumbersPastUnicode) {
  const std::vector<std::pair<char32_t, bool>> table = {
      {0, false},      {1, true},        {0x7F, true},      {0x80, true},
      {0xD7FF, true},  {0xD800, false},  {0xDBFF, false},   {0xDC00, false},
      {0xDFFF, false}, {0xE000, true},   {0xFFFE, true},    {0xFFFF, true},
      {0x10000, true}, {0x10FFFF, true}, {0x110000, false}, {k_past_last_code_point, false},
  };
  for (const auto& [number, names] : table) {
    EXPECT_EQ(names_character(number), names) << static_cast<std::uint32_t>(number);
  }
}

struct GeneratedReference {
  std::string_view name;
  std::u32string_view characters;
};

constexpr GeneratedReference k_generated[] = {
#include "html_references.inc"
};

TEST(ReadCharacterReference, ReadsEveryNameOfTheGeneratedTable) {
  EXPECT_EQ(std::size(k_generated), 2125U);
  for (const auto& entry : k_generated) {
    const std::string text = "&" + std::string(entry.name) + ";";
    const std::optional<CharacterReference> reference =
        read_character_reference(text, 0, k_every_name);
    ASSERT_TRUE(reference.has_value()) << entry.name;
    EXPECT_EQ(reference->characters, entry.characters) << entry.name;
    EXPECT_EQ(reference->length, text.size()) << entry.name;
  }
}

} // namespace
} // namespace podcrawl::html

#include "podcrawl/core/ascii.hpp"

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

namespace podcrawl::core {
namespace {

TEST(Ascii, ClassesTakeOnlyTheirAsciiCharacters) {
  // character, alpha, digit, alnum, hex digit
  const std::vector<std::tuple<char, bool, bool, bool, bool>> table = {
      {'a', true, false, true, true},      {'f', true, false, true, true},
      {'g', true, false, true, false},     {'Z', true, false, true, false},
      {'F', true, false, true, true},      {'0', false, true, true, true},
      {'9', false, true, true, true},      {'@', false, false, false, false},
      {'[', false, false, false, false},   {'`', false, false, false, false},
      {'{', false, false, false, false},   {'/', false, false, false, false},
      {':', false, false, false, false},   {' ', false, false, false, false},
      {'\0', false, false, false, false},  {'\xC3', false, false, false, false},
      {'\xE9', false, false, false, false}};
  for (const auto& [c, alpha, digit, alnum, hex] : table) {
    SCOPED_TRACE(static_cast<int>(static_cast<unsigned char>(c)));
    EXPECT_EQ(is_ascii_alpha(c), alpha);
    EXPECT_EQ(is_ascii_digit(c), digit);
    EXPECT_EQ(is_ascii_alnum(c), alnum);
    EXPECT_EQ(is_hex_digit(c), hex);
  }
}

TEST(Ascii, CaseChangesAsciiLettersAlone) {
  const std::vector<std::tuple<std::string, std::string>> table = {
      {"", ""},
      {"Hello, World 42", "hello, world 42"},
      {"@[`{", "@[`{"},
      {"ÉCOLE Straße", "École straße"}, // bytes of UTF-8 letters stay as they are
      {std::string("A\0B", 3), std::string("a\0b", 3)}};
  for (const auto& [text, lowered] : table) {
    EXPECT_EQ(ascii_lower(text), lowered) << text;
  }
  EXPECT_EQ(ascii_lower('Q'), 'q');
  EXPECT_EQ(ascii_upper('q'), 'Q');
  EXPECT_EQ(ascii_upper('1'), '1');
  EXPECT_EQ(ascii_lower('\xC9'), '\xC9');
}

TEST(Ascii, ComparesIgnoringAsciiCaseOnly) {
  const std::vector<std::tuple<std::string, std::string, bool>> table = {
      {"", "", true},         {"Content-Type", "content-type", true},
      {"GZIP", "gzip", true}, {"gzip", "gzip ", false},
      {"É", "é", false}, // not ASCII: different bytes
      {"a@", "A`", false}};
  for (const auto& [a, b, equal] : table) {
    EXPECT_EQ(equals_ignoring_ascii_case(a, b), equal) << a << " / " << b;
  }
}

TEST(Ascii, TrimsTheGivenSetFromBothEnds) {
  const std::vector<std::tuple<std::string, std::string_view, std::string>> table = {
      {"", k_ascii_space, ""},
      {"   ", k_ascii_space, ""},
      {" \t\n\v\f\rword\r\n", k_ascii_space, "word"},
      {"  two words  ", k_ascii_space, "two words"},
      {"\vword\v", k_html_space, "\vword\v"}, // HTML has no vertical tab among its spaces
      {"\fword\n", k_html_space, "word"},
      {" \tgzip;q=0.5\t ", k_http_space, "gzip;q=0.5"},
      {"\ngzip\n", k_http_space, "\ngzip\n"}, // HTTP's OWS is space and tab only
      {"\xC2\xA0word\xC2\xA0", k_ascii_space, "\xC2\xA0word\xC2\xA0"}, // no-break space stays
      {"--x--", "-", "x"}};
  for (const auto& [text, set, trimmed] : table) {
    EXPECT_EQ(trim(text, set), trimmed) << '"' << text << '"';
  }
}

} // namespace
} // namespace podcrawl::core

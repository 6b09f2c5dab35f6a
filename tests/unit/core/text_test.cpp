#include "podcrawl/core/text.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace podcrawl::core {
namespace {

TEST(Utf8, DecodesWellFormedSequencesAndRefusesTheRest) {
  // bytes, code point, length (0: not a well-formed sequence)
  const std::vector<std::tuple<std::string, char32_t, std::size_t>> table = {
      {"A", U'A', 1},
      {"\x7F", 0x7F, 1},
      {"\xC3\xA9", U'é', 2},
      {"\xDF\xBF", 0x7FF, 2},
      {"\xE0\xA0\x80", 0x800, 3},
      {"\xE2\x82\xAC", U'€', 3},
      {"\xEF\xBF\xBD", 0xFFFD, 3},
      {"\xF0\x9F\x8E\x99", 0x1F399, 4},
      {"\xF4\x8F\xBF\xBF", 0x10FFFF, 4},
      {"\x80", 0, 0},             // a continuation byte alone
      {"\xC0\x80", 0, 0},         // overlong NUL
      {"\xC1\xBF", 0, 0},         // overlong
      {"\xE0\x9F\xBF", 0, 0},     // overlong, three bytes
      {"\xF0\x8F\xBF\xBF", 0, 0}, // overlong, four bytes
      {"\xED\xA0\x80", 0, 0},     // a surrogate
      {"\xF4\x90\x80\x80", 0, 0}, // past U+10FFFF
      {"\xF5\x80\x80\x80", 0, 0}, // no such lead byte
      {"\xFF", 0, 0},
      {"\xC3", 0, 0},     // cut short
      {"\xE2\x82", 0, 0}, // cut short
      {"\xC3(", 0, 0},    // not followed by a continuation byte
      {"\xE2\x28\xA1", 0, 0}};
  for (const auto& [bytes, code, length] : table) {
    SCOPED_TRACE(testing::PrintToString(bytes));
    const auto [decoded, decoded_length] = decode_utf8(bytes, 0);
    EXPECT_EQ(decoded_length, length);
    if (length != 0) {
      EXPECT_EQ(decoded, code);
    }
    EXPECT_EQ(is_valid_utf8(bytes), length == bytes.size());
  }
  // At an offset inside a longer text.
  EXPECT_EQ(decode_utf8("ab\xC3\xA9", 2), (std::pair<char32_t, std::size_t>{U'é', 2}));
}

TEST(Utf8, ValidatesWholeTextsAcrossTheAsciiFastPath) {
  const std::vector<std::tuple<std::string, bool>> table = {
      {"", true},
      {"plain ASCII text, longer than eight bytes", true},
      {"سلام — Привет — こんにちは — 🎙", true},
      {"twelve bytes\xC3\xA9 then more ASCII after it", true},
      {"twelve bytes\xC3 then more ASCII after it", false},
      {"sixteen bytes...\x80", false},
      {"0123456789abcdef\xED\xBF\xBF", false},
      {std::string("nul\0inside", 10), true}};
  for (const auto& [text, valid] : table) {
    EXPECT_EQ(is_valid_utf8(text), valid) << testing::PrintToString(text);
  }
}

TEST(Utf8, AppendsEachCodePointAsDecodeReadsItBack) {
  for (const char32_t code : {U'\0', U'A', U'\x7F', U'\x80', U'\u07FF', U'\u0800', U'\uD7FF',
                              U'\uE000', U'\uFFFF', U'\U00010000', U'\U0010FFFF'}) {
    std::string out = "x";
    core::append_utf8(out, code);
    ASSERT_GT(out.size(), 1u) << static_cast<std::uint32_t>(code);
    EXPECT_EQ(core::decode_utf8(out, 1), std::make_pair(code, out.size() - 1))
        << static_cast<std::uint32_t>(code);
  }
  // Surrogates and values past U+10FFFF have no UTF-8: nothing is appended.
  for (const char32_t code :
       {char32_t{0xD800}, char32_t{0xDFFF}, char32_t{0x110000}, char32_t{0xFFFFFFFF}}) {
    std::string out = "x";
    core::append_utf8(out, code);
    EXPECT_EQ(out, "x") << static_cast<std::uint32_t>(code);
  }
}

TEST(Utf8, APrefixNeverSplitsASequence) {
  const std::string text = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x8E\x99"; // a é € 🎙
  // max bytes, prefix
  const std::vector<std::tuple<std::size_t, std::string>> table = {{0, ""},
                                                                   {1, "a"},
                                                                   {2, "a"},
                                                                   {3, "a\xC3\xA9"},
                                                                   {4, "a\xC3\xA9"},
                                                                   {5, "a\xC3\xA9"},
                                                                   {6, "a\xC3\xA9\xE2\x82\xAC"},
                                                                   {9, "a\xC3\xA9\xE2\x82\xAC"},
                                                                   {10, text},
                                                                   {100, text}};
  for (const auto& [max_bytes, prefix] : table) {
    EXPECT_EQ(utf8_prefix(text, max_bytes), prefix) << max_bytes;
  }
}

} // namespace
} // namespace podcrawl::core

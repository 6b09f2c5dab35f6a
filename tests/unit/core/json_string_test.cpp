#include "podcrawl/core/json_string.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace podcrawl::core {
namespace {

std::string escaped(std::string_view text, std::string_view short_escapes) {
  std::string out = "[";
  EXPECT_TRUE(append_json_escaped(out, text, short_escapes)) << text;
  return out;
}

TEST(AppendJsonEscaped, EscapesQuotesBackslashesAndControlCharactersOnly) {
  // text, with every short escape, with none
  const std::vector<std::tuple<std::string, std::string, std::string>> table = {
      {"", "", ""},
      {"plain text", "plain text", "plain text"},
      {"say \"hi\"", "say \\\"hi\\\"", "say \\\"hi\\\""},
      {"C:\\dir\\", "C:\\\\dir\\\\", "C:\\\\dir\\\\"},
      {"\b\t\n\f\r", "\\b\\t\\n\\f\\r", "\\u0008\\u0009\\u000a\\u000c\\u000d"},
      {std::string("nul \0 end", 9), "nul \\u0000 end", "nul \\u0000 end"},
      {"\x01\x0b\x1b\x1f", "\\u0001\\u000b\\u001b\\u001f", "\\u0001\\u000b\\u001b\\u001f"},
      // Nothing else is escaped: not DEL, '/', the characters HTML escapes, or non-ASCII.
      {"\x7f / <script> & ' >", "\x7f / <script> & ' >", "\x7f / <script> & ' >"},
      {"caf\u00e9 \u20ac \U0001f399 \u0645", "caf\u00e9 \u20ac \U0001f399 \u0645",
       "caf\u00e9 \u20ac \U0001f399 \u0645"},
      {"line\u2028paragraph\u2029", "line\u2028paragraph\u2029", "line\u2028paragraph\u2029"},
  };
  for (const auto& [text, short_forms, unicode] : table) {
    EXPECT_EQ(escaped(text, k_json_short_escapes), "[" + short_forms) << text;
    EXPECT_EQ(escaped(text, k_json_unicode_escapes), "[" + unicode) << text;
  }
  // Only the listed controls take their short form.
  EXPECT_EQ(escaped("a\tb\nc\rd\be\ff", "\t\n"), "[a\\tb\\nc\\u000dd\\u0008e\\u000cf");
}

TEST(AppendJsonEscaped, WritesWhatNlohmannDumpWritesInsideTheQuotes) {
  std::string every_ascii;
  for (int c = 0; c < 0x80; ++c) {
    every_ascii += static_cast<char>(c);
  }
  for (const std::string& text :
       {every_ascii, std::string("\u00e9\u2028\u2029\U0001f399 \"q\" \\")}) {
    std::string out = "\"";
    ASSERT_TRUE(append_json_escaped(out, text, k_json_short_escapes));
    out += '"';
    EXPECT_EQ(out, nlohmann::json(text).dump());
  }
}

TEST(AppendJsonEscaped, CopiesInvalidUtf8AndSaysSo) {
  const std::vector<std::pair<std::string, std::string>> table = {
      {"\xff", "\xff"},
      {"a\xc3", "a\xc3"},                  // cut short
      {"\xed\xa0\x80", "\xed\xa0\x80"},    // a surrogate
      {"\xc0\xaf\"\n", "\xc0\xaf\\\"\\n"}, // escaping goes on after it
      {"ok \xc3\xa9 then \x80", "ok \xc3\xa9 then \x80"},
  };
  for (const auto& [text, expected] : table) {
    std::string out;
    EXPECT_FALSE(append_json_escaped(out, text, k_json_short_escapes)) << text;
    EXPECT_EQ(out, expected);
  }
}

} // namespace
} // namespace podcrawl::core

// The text the store writes: storable UTF-8, and the plain text of notes that search reads.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "store_internal.hpp"

namespace podcrawl::store {
namespace {

using internal::bounded_text;
using internal::id_array;
using internal::integer_array;
using internal::k_max_search_notes_bytes;
using internal::search_notes;
using internal::storable_text;

constexpr std::string_view k_replacement = "\xEF\xBF\xBD";

TEST(StorableText, KeepsWellFormedUtf8AndReplacesEveryBadByte) {
  const std::string r(k_replacement);
  const std::vector<std::pair<std::string, std::string>> table = {
      {"", ""},
      {"plain ASCII, \t\r\n\x01\x7F controls kept", "plain ASCII, \t\r\n\x01\x7F controls kept"},
      {"caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x8E\x99 \xF4\x8F\xBF\xBF", // up to U+10FFFF
       "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x8E\x99 \xF4\x8F\xBF\xBF"},
      {"\xEF\xBF\xBE noncharacters \xEF\xB7\x90 kept",
       "\xEF\xBF\xBE noncharacters \xEF\xB7\x90 kept"},
      {std::string("nul\0dropped\0", 12), "nuldropped"},
      {"\x80 stray", r + " stray"},
      {"\xFF\xFE", r + r},
      {"\xC0\x80 overlong", r + r + " overlong"},
      {"\xE0\x9F\xBF overlong", r + r + r + " overlong"},
      {"\xF0\x8F\xBF\xBF overlong", r + r + r + r + " overlong"},
      {"\xED\xA0\x80 surrogate", r + r + r + " surrogate"},
      {"\xF4\x90\x80\x80 past U+10FFFF", r + r + r + r + " past U+10FFFF"},
      {"\xF5\x80\x80\x80", r + r + r + r},
      {"cut \xE2\x82", "cut " + r + r},
      {"cut \xF0\x9F\x8E", "cut " + r + r + r},
      {"\xC3(", r + "("},
      {"\xE2\x28\xA1", r + "(" + r},
      {std::string("bad \xC3\0\xA9", 7), "bad " + r + r},
  };
  for (const auto& [input, expected] : table) {
    EXPECT_EQ(storable_text(input), expected) << testing::PrintToString(input);
  }
}

TEST(BoundedText, CutsStorableTextAtACharacter) {
  EXPECT_EQ(bounded_text("caf\xC3\xA9", 4), "caf");
  EXPECT_EQ(bounded_text("caf\xC3\xA9", 5), "caf\xC3\xA9");
  EXPECT_EQ(bounded_text("ab\xFF", 4), "ab");
  EXPECT_EQ(bounded_text("ab\xFF", 5), "ab" + std::string(k_replacement));
}

TEST(SearchNotes, DecodesTheReferencesASanitizerWrites) {
  const std::vector<std::pair<std::string, std::string>> table = {
      {"Tom &amp; Jerry &lt;3 &gt; &quot;cheese&quot; &apos;n&apos;",
       "Tom & Jerry <3 > \"cheese\" 'n'"},
      {"caf&#233; caf&#xE9; caf&#XE9; &#x1F399;", "caf\u00e9 caf\u00e9 caf\u00e9 \U0001F399"},
      {"&#0000065;&#x0000041;&#1114111;", "AA\U0010FFFF"}, // seven digits
      // "&nbsp;" separates words as a space does; a number for a space or U+00A0 is as written.
      {"a&nbsp;&nbsp;b", "a b"},
      {"a&#32;b", "a b"},
      {"a&#160;b", "a\u00a0b"},
      {"<p>one</p><p>two&nbsp;</p>", "one two"},
      // Other names, names in another case, numbers that name no character, and references
      // without their ';' or with too many digits stay as they are.
      {"&eacute; &copy; &AMP; &Amp;", "&eacute; &copy; &AMP; &Amp;"},
      {"&#0; &#xD800; &#x110000; &#1114112;", "&#0; &#xD800; &#x110000; &#1114112;"},
      {"&#; &#x; &#12a; &amp &#65", "&#; &#x; &#12a; &amp &#65"},
      {"&#00000065; &#x00000041;", "&#00000065; &#x00000041;"},
      // Controls and noncharacters named by a number are decoded.
      {"&#1;&#xFFFE;", "\x01\xEF\xBF\xBE"},
  };
  for (const auto& [input, expected] : table) {
    EXPECT_EQ(search_notes(input, k_max_search_notes_bytes), expected) << input;
  }
}

TEST(IntegerArray, ReadsWhatPostgreSQLWritesNullsIncluded) {
  using Values = std::vector<std::optional<std::int64_t>>;
  EXPECT_EQ(integer_array("{20,NULL,-86400}"), (Values{20, std::nullopt, -86400}));
  EXPECT_EQ(integer_array("{}"), Values{});
  EXPECT_EQ(integer_array("{9223372036854775807}"), Values{INT64_MAX});
  // Not integers, or not an array at all.
  EXPECT_EQ(integer_array("{1.5,x,,99999999999999999999}"),
            (Values{std::nullopt, std::nullopt, std::nullopt, std::nullopt}));
  EXPECT_EQ(integer_array(""), Values{});
  EXPECT_EQ(integer_array("20"), Values{});
  EXPECT_EQ(integer_array("{1,2"), Values{});
  // What id_array writes reads back.
  const std::vector<std::int64_t> ids{3, 1, 4000000000};
  EXPECT_EQ(integer_array(id_array(ids)), (Values{3, 1, 4000000000}));
}

} // namespace
} // namespace podcrawl::store

// Feed text normalization: NFC, control characters, whitespace. Most text is already clean
// and takes a shortcut; every row must give the same result either way.
#include "text_internal.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace podcrawl::feed {
namespace {

using internal::clean_block;
using internal::clean_line;

struct Case {
  std::string input;
  std::string line;  // clean_line
  std::string block; // clean_block
};

const std::vector<Case> k_cases = {
    {"plain ASCII", "plain ASCII", "plain ASCII"},
    {"  two\tlines\r\nhere  ", "two lines here", "two\tlines\r\nhere"},
    {"already NFC: caf\u00e9 \u00c5ngstr\u00f6m", "already NFC: caf\u00e9 \u00c5ngstr\u00f6m",
     "already NFC: caf\u00e9 \u00c5ngstr\u00f6m"},
    {"decomposed: cafe\u0301", "decomposed: caf\u00e9", "decomposed: caf\u00e9"},
    {"Hangul jamo: \u1100\u1161", "Hangul jamo: \uac00", "Hangul jamo: \uac00"},
    {"\u65e5\u672c\u8a9e \u0627\u0644\u0639\u0631\u0628\u064a\u0629 \U0001f399",
     "\u65e5\u672c\u8a9e \u0627\u0644\u0639\u0631\u0628\u064a\u0629 \U0001f399",
     "\u65e5\u672c\u8a9e \u0627\u0644\u0639\u0631\u0628\u064a\u0629 \U0001f399"},
    {std::string("nul\0bell\aesc\x1b"
                 "del\x7f"
                 "end",
                 20),
     "nulbellescdelend", "nulbellescdelend"},
    // C1 controls read as Windows-1252, as browsers read them; its five undefined ones dropped.
    {"C1 \xc2\x85next \xc2\x9fline\xc2\x81", "C1 \u2026next \u0178line",
     "C1 \u2026next \u0178line"},
    {"nonchar \xef\xbf\xbe\xef\xbf\xbfgone", "nonchar gone", "nonchar gone"},
    {"kept \xef\xbf\xbd and \xc2\xa0", "kept \xef\xbf\xbd and \xc2\xa0",
     "kept \xef\xbf\xbd and \xc2\xa0"},
    {"invalid \xff byte", "invalid \xef\xbf\xbd byte", "invalid \xef\xbf\xbd byte"},
    {"truncated \xe2\x82", "truncated \xef\xbf\xbd", "truncated \xef\xbf\xbd"},
    {"surrogate \xed\xa0\x80!", "surrogate \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd!",
     "surrogate \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd!"},
};

TEST(CleanText, NormalizesToNfcWithoutControlCharacters) {
  for (const Case& test : k_cases) {
    SCOPED_TRACE(test.input);
    EXPECT_EQ(clean_line(test.input), test.line);
    EXPECT_EQ(clean_block(test.input), test.block);
  }
}

} // namespace
} // namespace podcrawl::feed

// Text as the publisher meant it: C1 references, mojibake repaired where it is unambiguous
// (and left alone where the text is real Latin-1), references left by double escaping.
#include "fidelity_internal.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "text_internal.hpp"

namespace podcrawl::feed {
namespace {

using internal::decode_references;
using internal::markup_block;
using internal::numeric_reference_character;
using internal::plain_line;
using internal::repair_mojibake;
using internal::windows_1252_c1;

struct Case {
  std::string input;
  std::string expected;
};

// Mojibake as feeds carry it: UTF-8 read once (or twice) as Windows-1252 or as Latin-1.
const std::vector<Case> k_repaired = {
    {"don\u00e2\u20ac\u2122t", "don\u2019t"},                             // donâ€™t
    {"\u00e2\u20ac\u0153Quoted\u00e2\u20ac\u009d", "\u201cQuoted\u201d"}, // â€œ…â€ + C1 9D
    {"Caf\u00c3\u00a9 cr\u00c3\u00a8me", "Caf\u00e9 cr\u00e8me"},         // CafÃ© crÃ¨me
    {"\u00c3\u00a9t\u00c3\u00a9", "\u00e9t\u00e9"},                       // Ã©tÃ©
    {"Stra\u00c3\u0178e", "Stra\u00dfe"},                                 // StraÃŸe
    {"M\u00c3\u00bcnchen", "M\u00fcnchen"},                               // MÃ¼nchen
    {"\u00c5\u0081\u00c3\u00b3d\u00c5\u00ba", "\u0141\u00f3d\u017a"},     // Latin-1 read: Łódź
    {"\u00d8\u00a7\u00d9\u201e\u00d8\u00b9\u00d8\u00b1\u00d8\u00a8\u00d9\u0160\u00d8\u00a9",
     "\u0627\u0644\u0639\u0631\u0628\u064a\u0629"}, // Ø§Ù„Ø¹Ø±Ø¨ÙŠØ© (العربية)
    {"\u00d9\u0081\u00d8\u00a7\u00d8\u00b1\u00d8\u00b3\u00db\u0152",
     "\u0641\u0627\u0631\u0633\u06cc"}, // فارسی, with the undefined byte 0x81 as U+0081
    {"\u00d0\u0178\u00d1\u20ac\u00d0\u00b8\u00d0\u00b2\u00d0\u00b5\u00d1\u201a",
     "\u041f\u0440\u0438\u0432\u0435\u0442"},                       // Привет
    {"\u00e6\u2014\u00a5\u00e6\u0153\u00ac", "\u65e5\u672c"},       // 日本
    {"\u00f0\u0178\u017d\u2122 Episode", "\U0001f399 Episode"},     // 🎙
    {"\u00c3\u00a2\u00e2\u201a\u00ac\u00e2\u201e\u00a2", "\u2019"}, // read twice
    {"Price: \u00c2\u00a35 \u00e2\u20ac\u201c cheap", "Price: \u00a35 \u2013 cheap"}, // Â£5 â€“
    {"Rom\u00c3\u00a2n\u00c4\u0192 \u00c8\u2122i", "Rom\u00e2n\u0103 \u0219i"}, // Română și
    {"Vi\u00e1\u00bb\u2021t", "Vi\u1ec7t"},                                     // Việt
};

// Real text that merely looks like it could be mojibake.
const std::vector<std::string> k_left_alone = {
    "Caf\u00e9 \u00e0 la cr\u00e8me",            // Latin-1 letters, no UTF-8 inside
    "\u00bfQu\u00e9 pas\u00f3? \u00a1Ol\u00e9!", // Spanish punctuation
    "\u201eGru\u00df\u201c",                     // ß“ would read as N'Ko
    "CAF\u00c9\u2026",                           // É… would read as U+0245
    "PAR\u00cd\u201d",                           // Í” would read as a combining mark
    "IRM\u00c3\u201d",                           // Ã” after a capital, at a word's end
    "S\u00c3O PAULO \u2013 \u00a92024",          // Portuguese capitals
    "\u00c5ngstr\u00f6m \u00d8resund \u00c6ble", // Nordic capitals
    "na\u00efve \u00bd \u00b0C \u00b1 \u00b5s",  // symbols
    "\u0627\u0644\u0639\u0631\u0628\u064a\u0629 and English", // real Arabic
    "\u65e5\u672c\u8a9e",                                     // real Japanese
    "ASCII only, nothing to do",
};

TEST(RepairMojibake, DecodesTextMisreadUpstream) {
  for (const Case& row : k_repaired) {
    EXPECT_EQ(repair_mojibake(row.input), row.expected) << row.input;
  }
}

TEST(RepairMojibake, LeavesRealTextAlone) {
  for (const std::string& text : k_left_alone) {
    EXPECT_EQ(repair_mojibake(text), text);
  }
  const std::string invalid = "\xc3\x83\xc2\xa9 \xff";
  EXPECT_EQ(repair_mojibake(invalid), invalid);
}

TEST(NumericReference, ReadsEveryFormAsHtmlDoes) {
  const std::vector<std::pair<std::string, std::string>> table = {
      {"&#8217;", "\u2019"},
      {"&#x2019;", "\u2019"},
      {"&#X2019;", "\u2019"},
      {"&#0065;", "A"},
      {"&#150;", "\u2013"}, // C1 as Windows-1252
      {"&#x80;", "\u20ac"}, // €
      {"&#x81;", "\ufffd"}, // undefined in Windows-1252
      {"&#0;", "\ufffd"},
      {"&#xD800;", "\ufffd"},
      {"&#x110000;", "\ufffd"},
      {"&#99999999999999999999;", "\ufffd"},
      // A number is read to the end of the reference's bound, 32 bytes after the '&'.
      {"&#" + std::string(29, '0') + "65;", "A"},
      {"&#x" + std::string(28, '0') + "41;", "A"},
      {"&#" + std::string(30, '0') + "65;", "&#" + std::string(30, '0') + "65;"},
      {"&#x" + std::string(29, '0') + "41;", "&#x" + std::string(29, '0') + "41;"},
      {"&#", "&#"},
      {"&#;", "&#;"},
      {"&#x;", "&#x;"},
      {"&#12a;", "&#12a;"},
      {"&#65", "&#65"},
  };
  for (const auto& [input, expected] : table) {
    EXPECT_EQ(decode_references(input), expected) << input;
  }
  EXPECT_EQ(numeric_reference_character(0x2019), U'\u2019');
  EXPECT_EQ(numeric_reference_character(0x96), U'\u2013');
  EXPECT_EQ(numeric_reference_character(0x8d), U'\ufffd');
  EXPECT_EQ(numeric_reference_character(0), U'\ufffd');
  EXPECT_EQ(numeric_reference_character(0xdfff), U'\ufffd');
  EXPECT_EQ(numeric_reference_character(0x110000), U'\ufffd');
  EXPECT_EQ(numeric_reference_character(0x10ffff), 0x10ffffU);
}

TEST(Windows1252, ReadsEveryC1Byte) {
  EXPECT_EQ(windows_1252_c1(0x80), U'\u20ac');
  EXPECT_EQ(windows_1252_c1(0x96), U'\u2013');
  EXPECT_EQ(windows_1252_c1(0x9f), U'\u0178');
  for (const char32_t undefined : {0x81, 0x8d, 0x8f, 0x90, 0x9d}) {
    EXPECT_EQ(windows_1252_c1(undefined), 0U);
  }
  EXPECT_EQ(windows_1252_c1(U'A'), U'A');
  EXPECT_EQ(windows_1252_c1(0xa0), 0xa0U);
}

TEST(DecodeReferences, DecodesWhatWasEscapedTwice) {
  EXPECT_EQ(decode_references("It&#8217;s"), "It\u2019s");
  EXPECT_EQ(decode_references("Tom &amp; Jerry"), "Tom & Jerry");
  EXPECT_EQ(decode_references("caf&eacute; &#x1F399; &#150;"), "caf\u00e9 \U0001f399 \u2013");
  EXPECT_EQ(decode_references("&NotEqualTilde;"), "\u2242\u0338");
  EXPECT_EQ(decode_references("AT&T, R&D; &nosuch; & &; &#;"), "AT&T, R&D; &nosuch; & &; &#;");
  EXPECT_EQ(decode_references("trailing &"), "trailing &");
  // Names are case-sensitive and need their ';'; "&AMP;" is a name of its own.
  EXPECT_EQ(decode_references("&AMP; &Amp; &amp &copy &copy;"), "& &Amp; &amp &copy \u00a9");
  EXPECT_EQ(decode_references("&CounterClockwiseContourIntegral;"), "\u2233");
}

TEST(PlainLine, RepairsCleansAndDecodesOnce) {
  EXPECT_EQ(plain_line("  It&amp;#8217;s   here "), "It&#8217;s here"); // one level only
  EXPECT_EQ(plain_line("It&#8217;s"), "It\u2019s");
  EXPECT_EQ(plain_line("don\u00e2\u20ac\u2122t\tstop"), "don\u2019t stop");
  EXPECT_EQ(plain_line("&#150; dash \xc2\x96 too"), "\u2013 dash \u2013 too");
  EXPECT_EQ(plain_line("no &#0; nul"), "no \ufffd nul");
  EXPECT_EQ(plain_line("decomposed cafe&#769;"), "decomposed caf\u00e9"); // NFC after decoding
}

TEST(MarkupBlock, RepairsButKeepsEscaping) {
  EXPECT_EQ(markup_block("<p>don\u00e2\u20ac\u2122t &amp;#8217;</p>\n"),
            "<p>don\u2019t &amp;#8217;</p>");
}

} // namespace
} // namespace podcrawl::feed

// Reading a document's bytes: the Encoding Standard's labels, ICU's converters for the rest,
// EBCDIC declarations, and detection when the label is missing or wrong. The expected texts
// were written with Python's codecs, independently of ICU.
#include "charset_internal.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace podcrawl::feed {
namespace {

using internal::decode_document;
using internal::decoder_for;
using internal::DecoderKind;

struct Family {
  std::string label;
  std::string bytes;
  std::string utf8;
};

// One row per family of ASCII-compatible encodings (EBCDIC has its own test).
const std::vector<Family> k_families = {
    {"windows-1252", std::string("don\x92t \x93\x94 \x80", 10),
     "don\xe2\x80\x99t \xe2\x80\x9c\xe2\x80\x9d \xe2\x82\xac"},     // don’t “” €
    {"iso-8859-1", std::string("don\x92t", 5), "don\xe2\x80\x99t"}, // don’t
    {"us-ascii", std::string("\x96", 1), "\xe2\x80\x93"},           // –
    {"iso-8859-2", std::string("\xb1\xe6", 2), "\xc4\x85\xc4\x87"}, // ąć
    {"iso-8859-6", std::string("\xc7\xe4", 2), "\xd8\xa7\xd9\x84"}, // ال
    {"windows-1256", std::string("\xc7\xe1\xda\xd1\xc8\xed\xc9", 7),
     "\xd8\xa7\xd9\x84\xd8\xb9\xd8\xb1\xd8\xa8\xd9\x8a\xd8\xa9"},                 // العربية
    {"iso-8859-7", std::string("\xe1\xe2", 2), "\xce\xb1\xce\xb2"},               // αβ
    {"iso-8859-8", std::string("\xf9\xec", 2), "\xd7\xa9\xd7\x9c"},               // של
    {"windows-1255", std::string("\xf9\xec", 2), "\xd7\xa9\xd7\x9c"},             // של
    {"windows-1251", std::string("\xcf\xf0\xe8", 3), "\xd0\x9f\xd1\x80\xd0\xb8"}, // При
    {"koi8-r", std::string("\xf0\xd2\xc9", 3), "\xd0\x9f\xd1\x80\xd0\xb8"},       // При
    {"koi8-u", std::string("\xa4", 1), "\xd1\x94"},                               // є
    {"ibm866", std::string("\x8f\xe0", 2), "\xd0\x9f\xd1\x80"},                   // Пр
    {"macintosh", std::string("\x8e", 1), "\xc3\xa9"},                            // é
    {"x-mac-cyrillic", std::string("\x8f", 1), "\xd0\x9f"},                       // П
    {"iso-8859-16", std::string("\xaa\xba", 2), "\xc8\x98\xc8\x99"},              // Șș
    {"windows-874", std::string("\xa1", 1), "\xe0\xb8\x81"},                      // ก
    {"windows-1254", std::string("\xfe\xf0", 2), "\xc5\x9f\xc4\x9f"},             // şğ
    {"shift_jis", std::string("\x93\xfa\x96{", 4), "\xe6\x97\xa5\xe6\x9c\xac"},   // 日本
    {"euc-jp", std::string("\xc6\xfc\xcb\xdc", 4), "\xe6\x97\xa5\xe6\x9c\xac"},   // 日本
    {"iso-2022-jp", std::string("\x1b$BF|K\x5c\x1b(B", 10), "\xe6\x97\xa5\xe6\x9c\xac"}, // 日本
    {"gbk", std::string("\xc8\xd5\xb1\xbe", 4), "\xe6\x97\xa5\xe6\x9c\xac"},             // 日本
    {"gb18030",
     std::string("\x81"
                 "0\x81"
                 "0",
                 4),
     "\xc2\x80"},                                                             // U+0080
    {"big5", std::string("\xa4\xe9\xa5\xbb", 4), "\xe6\x97\xa5\xe6\x9c\xac"}, // 日本
    {"euc-kr",
     std::string("\xc7\xd1\x81"
                 "A",
                 4),
     "\xed\x95\x9c\xea\xb0\x82"}, // 한갂
};

std::string document_in(const std::string& label, const std::string& text) {
  return "<?xml version=\"1.0\" encoding=\"" + label + "\"?><t>" + text + "</t>";
}

TEST(DecoderFor, ReadsLabelsAsTheEncodingStandardDoes) {
  struct Row {
    std::string label;
    DecoderKind kind;
    std::string icu_name;
  };
  const std::vector<Row> rows = {
      {"latin1", DecoderKind::windows_1252, ""},
      {" ISO_8859-1:1987 ", DecoderKind::windows_1252, ""},
      {"US-ASCII", DecoderKind::windows_1252, ""},
      {"unicode-1-1-utf-8", DecoderKind::utf8, ""},
      {"utf-16", DecoderKind::utf16le, ""},
      {"iso-8859-16", DecoderKind::iso_8859_16, ""},
      {"x-user-defined", DecoderKind::user_defined, ""},
      {"iso-2022-kr", DecoderKind::replacement, ""},
      {"hz-gb-2312", DecoderKind::replacement, ""},
      {"x-gbk", DecoderKind::icu, "gb18030"},
      {"big5", DecoderKind::icu, "big5-hkscs"},
      {"ks_c_5601-1987", DecoderKind::icu, "windows-949"},
      {"sjis", DecoderKind::icu, "windows-31j"},
      {"koi8-ru", DecoderKind::icu, "KOI8-U"},
      {"x-mac-ukrainian", DecoderKind::icu, "x-mac-cyrillic"},
      {"visual", DecoderKind::icu, "ISO-8859-8"},
      {"IBM037", DecoderKind::icu, "ibm037"},           // EBCDIC, from ICU
      {"x-mac-greek", DecoderKind::icu, "x-mac-greek"}, // from ICU
  };
  for (const Row& row : rows) {
    const auto decoder = decoder_for(row.label);
    ASSERT_TRUE(decoder) << row.label;
    EXPECT_EQ(decoder->kind, row.kind) << row.label;
    EXPECT_EQ(decoder->icu_name, row.icu_name) << row.label;
  }
  EXPECT_FALSE(decoder_for("no-such-encoding"));
  EXPECT_FALSE(decoder_for(""));
}

TEST(DecodeDocument, ReadsEveryEncodingFamily) {
  for (const Family& family : k_families) {
    EXPECT_EQ(decode_document(document_in(family.label, family.bytes), ""),
              document_in(family.label, family.utf8))
        << family.label;
    // The same label as the Content-Type's charset, with no declaration.
    EXPECT_EQ(decode_document("<t>" + family.bytes + "</t>", "text/xml; charset=" + family.label),
              "<t>" + family.utf8 + "</t>")
        << family.label;
  }
}

TEST(DecodeDocument, ReadsTheEncodingsOfTheStandardThatIcuLacks) {
  EXPECT_EQ(decode_document(document_in("x-user-defined", "a\x80\xff"), ""),
            document_in("x-user-defined", "a\xef\x9e\x80\xef\x9f\xbf"));
  EXPECT_EQ(decode_document(document_in("windows-1252", "\x81\x8d"), ""),
            document_in("windows-1252", "\xc2\x81\xc2\x8d")); // undefined bytes as C1
  // ISO-2022-KR and its like can hide markup from a reader that does not know them.
  EXPECT_EQ(decode_document(document_in("iso-2022-kr", "x"), ""), "\xef\xbf\xbd");
}

TEST(DecodeDocument, ReadsAnEbcdicDeclaration) {
  // '<?xml version="1.0" encoding="IBM037"?><rss><channel><title>Café [news]</title>...'
  const std::string ebcdic(
      "\x4c\x6f\xa7\x94\x93\x40\xa5\x85\x99\xa2\x89\x96\x95\x7e\x7f\xf1\x4b\xf0\x7f\x40\x85\x95"
      "\x83\x96\x84\x89\x95\x87\x7e\x7f\xc9\xc2\xd4\xf0\xf3\xf7\x7f\x6f\x6e\x4c\x99\xa2\xa2\x6e"
      "\x4c\x83\x88\x81\x95\x95\x85\x93\x6e\x4c\xa3\x89\xa3\x93\x85\x6e\xc3\x81\x86\x51\x40\xba"
      "\x95\x85\xa6\xa2\xbb\x4c\x61\xa3\x89\xa3\x93\x85\x6e\x4c\x61\x83\x88\x81\x95\x95\x85\x93"
      "\x6e\x4c\x61\x99\xa2\xa2\x6e",
      95);
  EXPECT_EQ(decode_document(ebcdic, ""),
            "<?xml version=\"1.0\" encoding=\"IBM037\"?><rss><channel><title>Caf\xc3\xa9 "
            "[news]</title></channel></rss>");
}

TEST(DecodeDocument, DetectsWhenTheDeclaredEncodingDoesNotFit) {
  // Declared UTF-8, written in windows-1251: malformed as UTF-8, so the detector decides.
  const std::string russian =
      "\xcd\xee\xe2\xee\xf1\xf2\xe8 \xe8 \xf1\xee\xe1\xfb\xf2\xe8\xff \xe4\xed\xff: "
      "\xef\xee\xeb\xe8\xf2\xe8\xea\xe0, \xfd\xea\xee\xed\xee\xec\xe8\xea\xe0 \xe8 "
      "\xea\xf3\xeb\xfc\xf2\xf3\xf0\xe0 \xe2 \xed\xe0\xf8\xe5\xe9 \xef\xf0\xee\xe3\xf0\xe0\xec\xec"
      "\xe5 \xea\xe0\xe6\xe4\xfb\xe9 \xe4\xe5\xed\xfc.";
  const std::string decoded = decode_document(document_in("utf-8", russian), "");
  EXPECT_NE(decoded.find("\xd0\x9d\xd0\xbe\xd0\xb2\xd0\xbe\xd1\x81\xd1\x82\xd0\xb8"),
            std::string::npos)
      << decoded; // Новости
  // An unknown label on well-formed UTF-8 is UTF-8.
  EXPECT_EQ(decode_document(document_in("x-no-such", "caf\xc3\xa9"), ""),
            document_in("x-no-such", "caf\xc3\xa9"));
  // An unknown declared label gives way to the Content-Type's.
  EXPECT_EQ(decode_document(document_in("x-no-such", "\xe9"), "text/xml; charset=iso-8859-2"),
            document_in("x-no-such", "\xc3\xa9"));
}

} // namespace
} // namespace podcrawl::feed

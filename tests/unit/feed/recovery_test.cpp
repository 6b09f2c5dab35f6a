#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "charset_internal.hpp"
#include "recovery_internal.hpp"

namespace podcrawl::feed {
namespace {

using internal::charset_from_content_type;
using internal::declared_charset;
using internal::decode_document;
using internal::limit_attributes;
using internal::repair_entities;
using internal::skip_leading_junk;
using internal::strip_doctype;

struct RepairCase {
  std::string_view input;
  std::string_view expected;
};

constexpr RepairCase k_entity_repairs[] = {
    {"a &amp; b", "a &amp; b"},
    {"a & b", "a &amp; b"},
    {"R&D", "R&amp;D"},
    {"&eacute;", "&#233;"},
    {"&nbsp;&mdash;&hellip;", "&#160;&#8212;&#8230;"},
    {"&Eacute;", "&#201;"},
    {"&#233; &#xE9;", "&#233; &#xE9;"},
    {"&#0;", "&#xFFFD;"},
    {"&#xD800;", "&#xFFFD;"},
    {"&#1;", "&#xFFFD;"},
    {"&#x110000; &#1114112; &#99999999999999999999;", "&#xFFFD; &#xFFFD; &#xFFFD;"},
    {"&#X41; &#x10FFFF;", "&#x41; &#x10FFFF;"},
    {"&#; &#x; &#12a;", "&amp;#; &amp;#x; &amp;#12a;"},
    {"&zeta;&Zeta;&hbar;", "&#950;&#918;&#8463;"},
    {"&NotEqualTilde;", "&#8770;&#824;"},
    {"&bogus;", "&amp;bogus;"},
    {"&nbsp", "&amp;nbsp"},
    {"<a href=\"?x=1&y=2\">", "<a href=\"?x=1&amp;y=2\">"},
    {"<![CDATA[a & b &nbsp;]]>", "<![CDATA[a & b &nbsp;]]>"},
    {"<!-- a & b -->", "<!-- a & b -->"},
    {"&lt;&gt;&quot;&apos;", "&lt;&gt;&quot;&apos;"},
    // XML's names are case-sensitive: "&AMP;" is one of HTML's, written as a number.
    {"&AMP; &Amp; &LT;", "&#38; &amp;Amp; &#60;"},
    {"&copy &CounterClockwiseContourIntegral;", "&amp;copy &#8755;"},
    {"&#x1f399; &#65", "&#x1f399; &amp;#65"},
};

TEST(RepairEntities, ReadsANumberToTheEndOfTheReferencesBound) {
  // The ';' must come within 32 bytes of the '&', however many digits that leaves.
  const std::string decimal = "&#" + std::string(29, '0') + "65;";
  const std::string hex = "&#x" + std::string(28, '0') + "41;";
  EXPECT_EQ(repair_entities(decimal), decimal);
  EXPECT_EQ(repair_entities(hex), hex);
  EXPECT_EQ(repair_entities("&#X" + std::string(28, '0') + "41;"), hex);
  const std::string longer = "#" + std::string(30, '0') + "65;";
  EXPECT_EQ(repair_entities("&" + longer), "&amp;" + longer);
  const std::string too_long_zero = "#" + std::string(32, '0') + ";";
  EXPECT_EQ(repair_entities("&" + too_long_zero), "&amp;" + too_long_zero);
}

TEST(RepairEntities, RewritesHtmlReferencesAndEscapesBareAmpersands) {
  for (const RepairCase& row : k_entity_repairs) {
    SCOPED_TRACE(std::string(row.input));
    EXPECT_EQ(repair_entities(std::string(row.input)), row.expected);
  }
}

TEST(StripDoctype, RemovesTheDeclarationAndItsInternalSubset) {
  std::string stripped = strip_doctype(
      "<?xml version=\"1.0\"?><!-- c --><!DOCTYPE rss [<!ENTITY x \"]>\"> <!ENTITY y 'a>'>]>"
      "<rss/>");
  EXPECT_EQ(stripped, "<?xml version=\"1.0\"?><!-- c --><rss/>");
}

TEST(StripDoctype, LeavesDocumentsWithoutDoctypeAlone) {
  EXPECT_EQ(strip_doctype("<rss><![CDATA[<!DOCTYPE x>]]></rss>"),
            "<rss><![CDATA[<!DOCTYPE x>]]></rss>");
}

// `count` attributes n0="v" n1="v"..., each after a space.
std::string numbered_attributes(std::size_t first, std::size_t count) {
  std::string out;
  for (std::size_t i = first; i < first + count; ++i) {
    out += " n" + std::to_string(i) + "=\"v\"";
  }
  return out;
}

constexpr RepairCase k_attributes_left_alone[] = {
    {"<rss version=\"2.0\" xmlns:itunes='x'><channel/></rss>",
     "<rss version=\"2.0\" xmlns:itunes='x'><channel/></rss>"},
    {"<x a=\"1>2\" b = \"3\"/>", "<x a=\"1>2\" b = \"3\"/>"},
    {"<t>a \"quoted\" < text</t>", "<t>a \"quoted\" < text</t>"},
    {"<![CDATA[<x a=\"<\">]]>", "<![CDATA[<x a=\"<\">]]>"},
    {"<!-- <x a=\"<\"> -->", "<!-- <x a=\"<\"> -->"},
    {"<?pi <x a=\"<\"> ?>", "<?pi <x a=\"<\"> ?>"},
    {"<x a=unquoted b=\"<\">", "<x a=unquoted b=\"<\">"},
};

constexpr RepairCase k_attributes_rewritten[] = {
    {"<x a=\"1<2\"/>", "<x a=\"1&lt;2\"/>"},
    {"<x a='<y b=\"1\">'>", "<x a='&lt;y b=\"1\">'>"},
    {"<t>\"</t><x a=\"<\" b=\"<\">", "<t>\"</t><x a=\"&lt;\" b=\"&lt;\">"},
};

TEST(LimitAttributes, LeavesOrdinaryMarkupAlone) {
  for (const RepairCase& row : k_attributes_left_alone) {
    SCOPED_TRACE(std::string(row.input));
    EXPECT_EQ(limit_attributes(std::string(row.input)), row.expected);
  }
}

TEST(LimitAttributes, EscapesLessThanInsideAttributeValues) {
  // A '<' in a value made libxml2 start a tag there, one the attribute count never saw.
  for (const RepairCase& row : k_attributes_rewritten) {
    SCOPED_TRACE(std::string(row.input));
    EXPECT_EQ(limit_attributes(std::string(row.input)), row.expected);
  }
}

TEST(LimitAttributes, KeepsTheFirst256AttributesOfATag) {
  // libxml2 spent 24 s on one start tag with 100,000 attributes.
  const std::string kept = numbered_attributes(0, 256);
  EXPECT_EQ(limit_attributes("<x" + kept + numbered_attributes(256, 1000) + "/><y a=\"1\"/>"),
            "<x" + kept + "/><y a=\"1\"/>");
  EXPECT_EQ(limit_attributes("<x" + kept + "><y" + kept + numbered_attributes(256, 1) + ">"),
            "<x" + kept + "><y" + kept + ">");
  EXPECT_EQ(limit_attributes("<x" + kept + ">"), "<x" + kept + ">");
}

TEST(SkipLeadingJunk, RewritesTheDeclarationToUtf8) {
  std::string document = skip_leading_junk("  junk<?xml version='1.0' encoding='latin1'?><rss/>");
  EXPECT_EQ(document, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss/>");
  EXPECT_EQ(skip_leading_junk("\n\n<rss/>"), "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss/>");
}

TEST(CharsetFromContentType, ReadsTheCharsetParameter) {
  EXPECT_EQ(charset_from_content_type("text/xml; charset=Windows-1256"), "windows-1256");
  EXPECT_EQ(charset_from_content_type("application/rss+xml;charset=\"utf-8\"; x=y"), "utf-8");
  EXPECT_EQ(charset_from_content_type("application/rss+xml"), "");
  EXPECT_EQ(charset_from_content_type(""), "");
}

TEST(DeclaredEncoding, ReadsTheXmlDeclaration) {
  EXPECT_EQ(declared_charset("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><rss/>"),
            "iso-8859-1");
  EXPECT_EQ(declared_charset("\xef\xbb\xbf<?xml version='1.0' encoding='utf-8' ?>"), "utf-8");
  EXPECT_EQ(declared_charset("<?xml version=\"1.0\"?><rss encoding=\"x\"/>"), "");
  EXPECT_EQ(declared_charset("<rss/>"), "");
}

TEST(DecodeDocument, ReadsLatin1DeclaredAsIso88591) {
  EXPECT_EQ(decode_document("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><t>caf\xe9</t>", ""),
            "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><t>caf\xc3\xa9</t>");
}

TEST(DecodeDocument, PrefersTheDeclarationOverTheContentType) {
  EXPECT_EQ(decode_document("<?xml version=\"1.0\" encoding=\"windows-1252\"?><t>\x93</t>",
                            "text/xml; charset=utf-8"),
            "<?xml version=\"1.0\" encoding=\"windows-1252\"?><t>\xe2\x80\x9c</t>");
}

TEST(DecodeDocument, KeepsValidUtf8WithoutAnyLabel) {
  std::string utf8 = "<t>\xd9\x85\xd8\xb1\xd8\xad\xd8\xa8\xd8\xa7</t>";
  EXPECT_EQ(decode_document(utf8, ""), utf8);
}

TEST(DecodeDocument, DetectsAnUnlabelledLegacyCharset) {
  // Invalid as UTF-8 and unlabelled: the detector decides, and the result is valid UTF-8.
  std::string latin1 =
      "<rss><channel><title>Not\xed"
      "cias do Brasil e do mundo: pol\xedtica, economia, "
      "educa\xe7\xe3o, sa\xfa"
      "de e tecnologia. Informa\xe7\xe3o \xe9 tudo.</title></channel></rss>";
  std::string decoded = decode_document(latin1, "");
  EXPECT_NE(decoded.find("Not\xc3\xad"
                         "cias"),
            std::string::npos);
  EXPECT_NE(decoded.find("educa\xc3\xa7\xc3\xa3o"), std::string::npos);
}

} // namespace
} // namespace podcrawl::feed

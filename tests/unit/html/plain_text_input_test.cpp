// sanitize() writes input that the HTML parser would read as plain text without parsing it;
// the result must be what parsing gives, for that input and for input that only looks plain.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "html_internal.hpp"
#include "podcrawl/html/sanitize.hpp"

namespace podcrawl::html {
namespace {

const std::string k_base = "https://example.com/show/episode-1";

struct Case {
  std::string input;
  std::string expected;
};

// Plain text: written without a parse.
const std::vector<Case> k_plain_cases = {
    {"", ""},
    {"   \n\t ", ""},
    {"Just words.", "Just words."},
    {"  padded  ", "padded"},
    {"line one\nline two\n\nafter a blank line", "line one<br>line two<br><br>after a blank line"},
    {"tab\tand form\ffeed", "tab\tand form\ffeed"},
    {"Q & A, 5 > 3, \"quoted\" and 'single'", "Q &amp; A, 5 > 3, \"quoted\" and 'single'"},
    {"ends with &", "ends with &amp;"},
    {"caf\u00e9, \u65e5\u672c\u8a9e, \u0627\u0644\u0639\u0631\u0628\u064a\u0629, \U0001f399",
     "caf\u00e9, \u65e5\u672c\u8a9e, \u0627\u0644\u0639\u0631\u0628\u064a\u0629, \U0001f399"},
    {"a]]>b --> c", "a]]>b --> c"},
};

// Input that looks close to plain text but needs the parser: references, tags, characters
// the parser rewrites or reports, malformed UTF-8.
const std::vector<std::string> k_parsed_inputs = {
    "caf&eacute; &amp; more",
    "Q&A",
    "&#233;t&#xE9;",
    "&notit; and &not",
    "a < b",
    "a <b>bold</b>",
    "<!-- comment -->text",
    "carriage\r\nreturn\rlone",
    std::string("nul\0byte", 8),
    "bell\a and escape\x1b",
    "del\x7f",
    "c1 \xc2\x85 next line",
    "noncharacter \xef\xb7\x90 and \xef\xbf\xbe",
    "\xef\xbb\xbf"
    "byte order mark",
    "invalid \xff byte",
    "truncated \xe2\x82",
    "overlong \xc0\xaf",
    "surrogate \xed\xa0\x80",
};

TEST(SanitizePlainText, WritesPlainTextAsTheParserReadsIt) {
  for (const Case& test : k_plain_cases) {
    SCOPED_TRACE(test.input);
    EXPECT_EQ(sanitize(test.input, k_base), test.expected);
    EXPECT_EQ(internal::sanitize_parsed(test.input, k_base), test.expected);
  }
}

TEST(SanitizePlainText, GivesTheParsedResultForInputThatIsNotPlainText) {
  for (const std::string& input : k_parsed_inputs) {
    SCOPED_TRACE(input);
    EXPECT_EQ(sanitize(input, k_base), internal::sanitize_parsed(input, k_base));
  }
}

TEST(SanitizePlainText, CutsOversizedPlainTextLikeTheParser) {
  std::string input(k_max_input_bytes + 10, 'x');
  std::string result = sanitize(input, k_base);
  EXPECT_EQ(result, internal::sanitize_parsed(input, k_base));
  EXPECT_EQ(result.size(), k_max_input_bytes);
}

} // namespace
} // namespace podcrawl::html

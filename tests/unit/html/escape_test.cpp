#include "podcrawl/html/escape.hpp"

#include <gtest/gtest.h>

namespace podcrawl::html {
namespace {

TEST(Escaped, ReplacesOnlyTheCharactersOfItsContext) {
  const std::string_view text = R"(a & b < c > d "e" 'f')";
  const struct {
    std::string_view characters;
    const char* expected;
  } cases[] = {
      {k_escape_html_text, R"(a &amp; b &lt; c > d "e" 'f')"},
      {k_escape_text, R"(a &amp; b &lt; c &gt; d "e" 'f')"},
      {k_escape_attribute, R"(a &amp; b &lt; c &gt; d &quot;e&quot; 'f')"},
      {k_escape_xml, "a &amp; b &lt; c &gt; d &quot;e&quot; &apos;f&apos;"},
      {"", R"(a & b < c > d "e" 'f')"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(escaped(text, c.characters), c.expected) << c.characters;
  }
}

TEST(Escaped, CopiesEveryOtherByteUnchanged) {
  const std::string text = "مرحبا\t\n\xff bytes";
  EXPECT_EQ(escaped(text, k_escape_xml), text);
  // Listing a character that has no entity changes nothing.
  EXPECT_EQ(escaped("x=y", "="), "x=y");
}

TEST(AppendEscaped, AppendsToWhatIsThere) {
  std::string out = "<p>";
  append_escaped(out, "1 < 2", k_escape_html_text);
  EXPECT_EQ(out, "<p>1 &lt; 2");
}

} // namespace
} // namespace podcrawl::html

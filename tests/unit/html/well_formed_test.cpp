// sanitize() reads well-formed HTML without the HTML parser; for every input it accepts, the
// result must be what parsing gives, and input the parser would build differently must be
// left to the parser.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "html_internal.hpp"
#include "podcrawl/html/sanitize.hpp"

namespace podcrawl::html {
namespace {

const std::string k_base = "https://example.com/show/episode-1";

// Read without the parser, with the parser's result.
const std::vector<std::string> k_accepted = {
    "<p>In this episode we talk about <b>parsers</b>.</p>",
    "<p>Links:</p><ul><li><a href=\"https://example.org/a\">The article</a></li>"
    "<li><a href='/notes'>Notes &amp; transcript</a> &mdash; say hi</li></ul>",
    "<P CLASS=\"intro\" Title=\"Hi\">Upper case</P>",
    "<p>Unclosed paragraph at the end",
    "<ul><li>one</li><li>two<ul><li>nested</li></ul></li></ul>",
    "<dl><dt>term</dt><dd>definition</dd><dt>next</dt><dd>more</dd></dl>",
    "<b><p>bold paragraph</p></b>",
    "<span><div>block in a span</div></span>",
    "<h1><b>x</b></h1><h2>y</h2>",
    "<p>line<br>break<br/>and<br />more</p>",
    // A comment is no tag, even when it holds what reads like one with a quote left open.
    "<!-- <a title=\"x -->\n<p>y</p>",
    // Images are dropped, read or parsed.
    "<p><img src=\"cover.jpg\" alt=\"cover\" width=\"300\" height=\"300\"> caption</p>",
    "<p><img alt=\"no source\"> text</p>",
    "<p><img src=\"javascript:alert(1)\"> text</p>",
    "<figure><img src=\"a.png\"><figcaption>caption</figcaption></figure>",
    "<hr><p>after a rule</p><hr/>",
    "<p><a href=\"javascript:alert(1)\" onclick=\"x()\">bad link</a></p>",
    "<p><a href=https://example.org/unquoted/>unquoted</a></p>",
    "<p><a href=\"mailto:host@example.org\">mail</a></p>",
    "<p title=\"a &quot;quote&quot; &amp; &lt;tag&gt;\">attribute references</p>",
    "<p>&#233;t&#xE9; &#x1F399; &#65;&#0066;</p>",
    "<p>&#0000065;&#x0000041;&#x10FFFD;&#1114109;</p>",
    "<p>&nbsp;leading no-break space</p>",
    "  <!-- wp:paragraph -->\n<p>WordPress</p>\n<!-- /wp:paragraph -->  ",
    "<!---->empty comment<!-- a --- b ---->",
    "<p>Q & A, 5 > 3 and a lone &</p>",
    "<ol start=\"3\"><li>three</li></ol><ol start=\"x\"><li>bad start</li></ol>",
    "<blockquote cite=\"https://example.org\">quoted</blockquote>",
    "<p><b><i><u><s><code><small>deep</small></code></s></u></i></b></p>",
    "<b><b><b><b>four</b></b></b></b>",
    "<p><sup>1</sup><sub>2</sub><abbr title=\"x\">abbr</abbr><cite>c</cite><q>q</q></p>",
    "<p dir=\"rtl\" lang=\"ar\">\u0645\u0631\u062d\u0628\u0627</p>",
    "caf&eacute; &amp; more",
    "&#233;t&#xE9;\nsecond line",
    "<a href=\"x\" >spaced</a >",
    "<p><a name=\"anchor\" href=\"#frag\">fragment</a></p>",
    "<li>an item outside a list</li>",
    "<ul><li>one<div><ul><li>two</li></ul></div></li></ul>",
};

// Left to the parser: it would close, reopen or move something, or read a reference or a
// character differently.
const std::vector<std::string> k_refused = {
    "<p>one<p>two",
    "<p>para<ul><li>list</li></ul></p>",
    "<p>para<div>div</div></p>",
    "<p>para<h2>heading</h2>",
    "<p>para<hr>",
    "<ul><li>one<li>two</ul>",
    "<ul><li>one<b>bold<li>two</b></li></ul>",
    "<div><li>one<div><li>two</li></div></li></div>",
    "<dl><dt>term<dd>definition</dl>",
    "<h1>x<h2>y</h2></h1>",
    "<b>bold<i>both</b>italic</i>",
    "<a href=\"/a\">one<a href=\"/b\">two</a></a>",
    "<p>text</b></p>",
    "</p>",
    "<br></br>",
    "<p/>",
    "<table><tr><td>cell</td></tr></table>",
    "<pre>\ncode</pre>",
    "<script>alert(1)</script>",
    "<p>x</p><style>p{}</style>",
    "<iframe src=\"x\"></iframe>",
    "<svg><p>x</p></svg>",
    "<unknown>x</unknown>",
    "<p>&notit; and &not</p>",
    "<p>&amp without semicolon</p>",
    "<p>&#128; windows-1252</p>",
    "<p>&#0;</p>",
    "<p>&#xD800;</p>",
    "<p>&#13;</p>",
    "<p>&#;</p>",
    "<p>&unknownentity;</p>",
    // References the parser reads too, but not as the tags are written, or that this reading
    // leaves to it: names outside k_well_formed_references, a name in another case, a number
    // without digits, of more than seven digits, past U+10FFFF, a noncharacter or a form feed,
    // and a reference cut short by the end of the input.
    "<p>&hearts; &Eacute;</p>",
    "<p>&AMP;</p>",
    "<p>&#x;</p>",
    "<p>&#00000065;</p>",
    "<p>&#x0000041;&#x00000041;</p>",
    "<p>&#x110000;</p>",
    "<p>&#xFFFE;</p>",
    "<p>&#12;</p>",
    "<p>a &amp",
    "<p>a &#65",
    "a < b",
    "<!DOCTYPE html><p>x</p>",
    "<!-->abrupt",
    "<!--->abrupt",
    "<!-- unclosed",
    "<!-- a --!> b -->",
    "<?xml version=\"1.0\"?><p>x</p>",
    "<p class=\"a\"class=\"b\">no space between attributes</p>",
    "<p title=\"a\" title=\"b\">duplicate</p>",
    "<p title=\"<b>\">less-than in a value</p>",
    "<p title=`x`>backtick</p>",
    "<p title=a\"b>quote in an unquoted value</p>",
    "<p title=>empty unquoted value</p>",
    "<p title=\"unterminated>text",
    "<p\fclass=\"x\">form feed</p>",
    // Found by fuzz_sanitize: a form feed ends an unquoted value, starting another attribute.
    "rot<a href=0)rt\f\f\fa>x</a>",
    "<p title=\"x\"\fclass=\"y\">form feed after a value</p>",
    "<p>carriage\r\nreturn</p>",
    std::string("<p>nul\0byte</p>", 15),
    "<p>bell\a</p>",
    "<p>invalid \xff byte</p>",
    "<p>c1 \xc2\x85</p>",
    "<p>\xef\xbb\xbf"
    "bom</p>",
    "<b.x>dotted name</b.x>",
    "<a/b>slash</a>",
};

// plain_text() reads the text of HTML the reader accepts without the parser: whole, and cut
// short at a word, it must be what the parse gives.
void expect_text_as_parsed(const std::string& html) {
  ASSERT_TRUE(internal::text_well_formed(html).has_value());
  for (const std::size_t max_chars : {std::size_t{10000}, std::size_t{12}, std::size_t{3}}) {
    EXPECT_EQ(plain_text(html, max_chars), internal::plain_text_parsed(html, max_chars))
        << max_chars;
  }
}

std::string nested(std::size_t depth) {
  std::string html;
  for (std::size_t i = 0; i < depth; ++i) {
    html += "<span>";
  }
  html += "deep";
  for (std::size_t i = 0; i < depth; ++i) {
    html += "</span>";
  }
  return html;
}

TEST(SanitizeWellFormed, ReadsWellFormedHtmlAsTheParserDoes) {
  for (const std::string& input : k_accepted) {
    SCOPED_TRACE(input);
    std::optional<std::string> read = internal::sanitize_well_formed(input, k_base);
    ASSERT_TRUE(read.has_value());
    EXPECT_EQ(*read, internal::sanitize_parsed(input, k_base));
    EXPECT_EQ(sanitize(input, k_base), *read);
    expect_text_as_parsed(input);
  }
}

TEST(SanitizeWellFormed, LeavesWhatTheParserRebuildsToTheParser) {
  for (const std::string& input : k_refused) {
    SCOPED_TRACE(input);
    EXPECT_FALSE(internal::sanitize_well_formed(input, k_base).has_value());
    EXPECT_FALSE(internal::text_well_formed(input).has_value());
    EXPECT_EQ(sanitize(input, k_base), internal::sanitize_parsed(input, k_base));
  }
}

TEST(SanitizeWellFormed, LeavesDeepNestingAndLongInputToTheParser) {
  EXPECT_TRUE(internal::sanitize_well_formed(nested(internal::k_max_well_formed_depth), k_base));
  EXPECT_FALSE(
      internal::sanitize_well_formed(nested(internal::k_max_well_formed_depth + 1), k_base));
  std::string many = "<p";
  for (std::size_t i = 0; i <= internal::k_max_well_formed_attributes; ++i) {
    many += " data-a" + std::to_string(i) + "=\"x\"";
  }
  EXPECT_FALSE(internal::sanitize_well_formed(many + ">x</p>", k_base));
  std::string long_input = "<p>" + std::string(k_max_input_bytes, 'x') + "</p>";
  EXPECT_FALSE(internal::sanitize_well_formed(long_input, k_base));
}

TEST(SanitizeWellFormed, DecodesEachNamedReferenceAsTheParserDoes) {
  for (const std::string_view name : internal::k_well_formed_references) {
    std::string input =
        "<p title=\"&" + std::string(name) + ";\">a&" + std::string(name) + ";b</p>";
    SCOPED_TRACE(input);
    std::optional<std::string> read = internal::sanitize_well_formed(input, k_base);
    ASSERT_TRUE(read.has_value());
    EXPECT_EQ(*read, internal::sanitize_parsed(input, k_base));
  }
}

TEST(SanitizeWellFormed, NamesOnlyAllowlistedElementsByTheParsersNames) {
  for (const internal::WellFormedElement& element : internal::k_well_formed_elements) {
    SCOPED_TRACE(element.name);
    // Images are read only to be dropped; every other element read is allowlisted.
    EXPECT_EQ(internal::find_rule(element.tag) != nullptr, element.tag != GUMBO_TAG_IMG);
    EXPECT_EQ(element.name, gumbo_normalized_tagname(element.tag));
  }
}

// Random documents from the elements, references and attributes above, most of them
// well-formed: whatever is read without the parser must equal the parse.
TEST(SanitizeWellFormed, AgreesWithTheParserOnGeneratedDocuments) {
  std::mt19937 random(20261202);
  const std::vector<std::string> texts = {"text",  " ",     "\n", "&amp;", "&nbsp;", "&#233;",
                                          "a & b", "&lt;x", "\t", "1 > 0", "&mdash;"};
  const std::vector<std::string> attributes = {"",
                                               " href=\"https://example.org/x\"",
                                               " title='t &quot;q&quot;'",
                                               " src=a.png",
                                               " dir=rtl",
                                               " onclick=\"x()\"",
                                               " width=\"40\""};
  auto pick = [&random](const auto& list) {
    return list[std::uniform_int_distribution<std::size_t>(0, list.size() - 1)(random)];
  };
  std::size_t accepted = 0;
  for (int document = 0; document < 3000; ++document) {
    std::string html;
    std::vector<std::string_view> open;
    int steps = std::uniform_int_distribution<int>(1, 30)(random);
    for (int step = 0; step < steps; ++step) {
      int action = std::uniform_int_distribution<int>(0, 9)(random);
      if (action < 4) {
        const internal::WellFormedElement& element = pick(internal::k_well_formed_elements);
        html += "<" + std::string(element.name) + pick(attributes) + ">";
        if (element.placement != internal::Placement::void_phrasing &&
            element.placement != internal::Placement::void_block) {
          open.push_back(element.name);
        }
      } else if (action < 7 && !open.empty()) {
        html += "</" + std::string(open.back()) + ">";
        open.pop_back();
      } else {
        html += pick(texts);
      }
    }
    SCOPED_TRACE(html);
    if (std::optional<std::string> read = internal::sanitize_well_formed(html, k_base)) {
      ++accepted;
      ASSERT_EQ(*read, internal::sanitize_parsed(html, k_base));
      expect_text_as_parsed(html);
    } else {
      ASSERT_FALSE(internal::text_well_formed(html).has_value());
    }
  }
  // The generator must exercise the reader, not only its refusals.
  EXPECT_GT(accepted, 500u);
}

} // namespace
} // namespace podcrawl::html

#include "podcrawl/html/sanitize.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "support/active_content.hpp"

namespace podcrawl::html {
namespace {

const std::string k_base = "https://example.com/show/episode-1";

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::size_t count_code_points(std::string_view utf8) {
  return static_cast<std::size_t>(std::count_if(utf8.begin(), utf8.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

std::size_t count_occurrences(std::string_view text, std::string_view needle) {
  std::size_t count = 0;
  for (auto at = text.find(needle); at != std::string_view::npos;
       at = text.find(needle, at + needle.size())) {
    ++count;
  }
  return count;
}

// The browser-parse check of the test support, plus markers that must not appear even as
// text in the outputs of the vectors below.
std::vector<std::string> active_content(const std::string& output) {
  std::vector<std::string> problems = testing::active_content(output);
  std::string text = lower(output);
  for (const char* needle :
       {"<script", "javascript:", "vbscript:", "<iframe", "<object", "<embed", "<svg", "<math",
        "<style", "<base", "<meta", "<link", "<form", "<noscript", "<template"}) {
    if (text.find(needle) != std::string::npos) {
      problems.push_back(std::string("contains ") + needle);
    }
  }
  return problems;
}

TEST(HtmlSanitize, RemovesEveryKnownXssVector) {
  const std::vector<std::string> vectors = {
      "<script>alert(1)</script>",
      "<SCRIPT SRC=https://evil.example/x.js></SCRIPT>",
      "<scr<script>ipt>alert(1)</scr</script>ipt>",
      "\"><script>alert(1)</script>",
      "<img src=x onerror=alert(1)>",
      "<IMG SRC=\"x\" ONERROR=\"alert(1)\">",
      "<p onclick=\"alert(1)\">hi</p>",
      "<body onload=alert(1)><p>text</p></body>",
      "<a href=\"https://ok.example/\" onmouseover=\"alert(1)\">x</a>",
      "<a href=\"javascript:alert(1)\">x</a>",
      "<a href=\"JaVaScRiPt:alert(1)\">x</a>",
      "<a href=\"  javascript:alert(1)\">x</a>",
      "<a href=\"java\tscript:alert(1)\">x</a>",
      "<a href=\"java&#x09;script:alert(1)\">x</a>",
      "<a href=\"java&#10;script:alert(1)\">x</a>",
      "<a href=\"&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)\">x</a>",
      "<a href=\"&#x6A;avascript&colon;alert(1)\">x</a>",
      "<a href=\"\x01javascript:alert(1)\">x</a>",
      "<a href=\"vbscript:msgbox(1)\">x</a>",
      "<a href=\"data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==\">x</a>",
      "<img src=\"data:image/svg+xml,&lt;svg onload=alert(1)&gt;\">",
      "<img src=\"javascript:alert(1)\">",
      "<svg onload=alert(1)><script>alert(1)</script></svg>",
      "<svg><a xlink:href=\"javascript:alert(1)\"><text>x</text></a></svg>",
      "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
      "<math href=\"javascript:alert(1)\">click</math>",
      "<style>body{background:url(javascript:alert(1))}</style>",
      "<p style=\"background:url(javascript:alert(1))\">x</p>",
      "<table background=\"javascript:alert(1)\"><tr><td>x</td></tr></table>",
      "<iframe src=\"javascript:alert(1)\"></iframe>",
      "<iframe srcdoc=\"<script>alert(1)</script>\"></iframe>",
      "<object data=\"javascript:alert(1)\"></object>",
      "<embed src=\"javascript:alert(1)\">",
      "<base href=\"javascript:alert(1)//\">",
      "<meta http-equiv=\"refresh\" content=\"0;url=javascript:alert(1)\">",
      "<link rel=\"stylesheet\" href=\"javascript:alert(1)\">",
      "<form action=\"javascript:alert(1)\"><button formaction=\"javascript:alert(1)\">go</button>"
      "</form>",
      "<input autofocus onfocus=alert(1)>",
      "<noscript><p title=\"</noscript><img src=x onerror=alert(1)>\"></noscript>",
      "<template><script>alert(1)</script></template>",
      "<!--<img src=x onerror=alert(1)>-->",
      "<details open ontoggle=alert(1)>x</details>",
      "<video><source onerror=\"alert(1)\"></video>",
      "<xmp><img src=x onerror=alert(1)></xmp>",
      "<select><option><img src=x onerror=alert(1)></option></select>",
      "<textarea><script>alert(1)</script></textarea>",
      "<title><img src=x onerror=alert(1)></title>",
      "<div><a href=\"jav&#x0A;ascript:alert(1)\">x</a></div>",
      "<a title='&quot; onclick=&quot;alert(1)' href=\"https://ok.example/\">x</a>",
      "<blockquote cite=\"javascript:alert(1)\">q</blockquote>",
  };
  for (const auto& vector : vectors) {
    SCOPED_TRACE(vector);
    std::string output = sanitize(vector, k_base);
    SCOPED_TRACE(output);
    EXPECT_EQ(active_content(output), std::vector<std::string>{});
  }
}

TEST(HtmlSanitize, TheActiveContentCheckCatchesWhatItLooksFor) {
  // The XSS table is only as good as this check, so it must fail on unsafe markup.
  EXPECT_FALSE(active_content("<script>alert(1)</script>").empty());
  EXPECT_FALSE(active_content("<p onclick=\"x()\">a</p>").empty());
  EXPECT_FALSE(active_content("<a href=\"JAVASCRIPT:x()\">a</a>").empty());
  EXPECT_FALSE(active_content("<a href=\"data:text/html,x\">a</a>").empty());
  EXPECT_FALSE(active_content("<p style=\"color:red\">a</p>").empty());
  EXPECT_FALSE(active_content("<marquee>a</marquee>").empty());
  EXPECT_TRUE(active_content("<p>a <a href=\"https://x.example/\">b</a></p>").empty());
}

TEST(HtmlSanitize, KeepsAllowedMarkup) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"<p>Hello <b>bold</b> <strong>strong</strong> <i>i</i> <em>em</em></p>",
       "<p>Hello <b>bold</b> <strong>strong</strong> <i>i</i> <em>em</em></p>"},
      {"<ul><li>one</li><li>two</li></ul>", "<ul><li>one</li><li>two</li></ul>"},
      {"<ol start=\"3\"><li>three</li></ol>", "<ol start=\"3\"><li>three</li></ol>"},
      {"<h2>Show notes</h2><hr><p>a<br>b</p>", "<h2>Show notes</h2><hr><p>a<br>b</p>"},
      {"<blockquote>quote</blockquote><pre><code>x &lt; y</code></pre>",
       "<blockquote>quote</blockquote><pre><code>x &lt; y</code></pre>"},
      {"<table><tbody><tr><td colspan=\"2\">cell</td></tr></tbody></table>",
       "<table><tbody><tr><td colspan=\"2\">cell</td></tr></tbody></table>"},
      {"<p><abbr title=\"HyperText\">HTML</abbr> H<sub>2</sub>O x<sup>2</sup></p>",
       "<p><abbr title=\"HyperText\">HTML</abbr> H<sub>2</sub>O x<sup>2</sup></p>"},
      {"<dl><dt>term</dt><dd>definition</dd></dl>", "<dl><dt>term</dt><dd>definition</dd></dl>"},
      {"<p dir=\"rtl\" lang=\"ar\">\xd9\x85\xd8\xb1\xd8\xad\xd8\xa8\xd8\xa7</p>",
       "<p dir=\"rtl\" lang=\"ar\">\xd9\x85\xd8\xb1\xd8\xad\xd8\xa8\xd8\xa7</p>"},
  };
  for (const auto& [input, expected] : cases) {
    SCOPED_TRACE(input);
    EXPECT_EQ(sanitize(input, k_base), expected);
  }
}

TEST(HtmlSanitize, MakesLinksAbsoluteAndAddsRel) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"<a href=\"/episodes/2\">next</a>",
       "<a href=\"https://example.com/episodes/2\" rel=\"nofollow ugc noopener\">next</a>"},
      {"<a href=\"notes.html#t=30\" title=\"Notes\">notes</a>",
       "<a href=\"https://example.com/show/notes.html#t=30\" title=\"Notes\" "
       "rel=\"nofollow ugc noopener\">notes</a>"},
      {"<a href=\"HTTPS://Other.Example/x\" target=\"_blank\" rel=\"opener\">x</a>",
       "<a href=\"https://other.example/x\" rel=\"nofollow ugc noopener\">x</a>"},
      {"<a href=\"mailto:host@example.com\">mail</a>",
       "<a href=\"mailto:host@example.com\" rel=\"nofollow ugc noopener\">mail</a>"},
      {"<a href=\"javascript:alert(1)\">x</a>", "<a rel=\"nofollow ugc noopener\">x</a>"},
      {"<a>anchor</a>", "<a rel=\"nofollow ugc noopener\">anchor</a>"},
      // Images are dropped: a page loads no image from another host.
      {"<img src=\"cover.jpg\" alt=\"Cover\" width=\"300\" height=\"tall\">", ""},
      {"<p>a <img src=\"https://tracker.example/pixel.gif\"> b</p>", "<p>a  b</p>"},
      {"<a href=\"a b.mp3\">ep</a>",
       "<a href=\"https://example.com/show/a%20b.mp3\" rel=\"nofollow ugc noopener\">ep</a>"},
  };
  for (const auto& [input, expected] : cases) {
    SCOPED_TRACE(input);
    EXPECT_EQ(sanitize(input, k_base), expected);
  }
}

TEST(HtmlSanitize, DropsRelativeLinksWhenThereIsNoBase) {
  EXPECT_EQ(sanitize("<a href=\"/x\">x</a>", ""), "<a rel=\"nofollow ugc noopener\">x</a>");
  EXPECT_EQ(sanitize("<a href=\"https://a.example/\">x</a>", ""),
            "<a href=\"https://a.example/\" rel=\"nofollow ugc noopener\">x</a>");
}

TEST(HtmlSanitize, DropsDisallowedAttributes) {
  EXPECT_EQ(sanitize("<p class=\"c\" id=\"i\" style=\"color:red\" data-x=\"1\">t</p>", k_base),
            "<p>t</p>");
}

TEST(HtmlSanitize, UnwrapsUnknownElementsButKeepsTheirText) {
  std::string output = sanitize(
      "<section><custom-tag>Keep</custom-tag> <font color=red>me</font></section>", k_base);
  EXPECT_EQ(output, "Keep me");
}

TEST(HtmlSanitize, DropsCodeElementsWithTheirContent) {
  EXPECT_EQ(sanitize("<p>a</p><script>secret()</script><style>.x{}</style><p>b</p>", k_base),
            "<p>a</p><p>b</p>");
  EXPECT_EQ(sanitize("before<iframe>inside</iframe><svg><text>drawn</text></svg>after", k_base),
            "beforeafter");
}

TEST(HtmlSanitize, EscapesTextAndAttributeValues) {
  // Text escapes only what could start markup or a reference; `>` and quotes stay as written.
  EXPECT_EQ(sanitize("<p>a &lt;b&gt; \"q\" 'x' &amp; y</p>", k_base),
            "<p>a &lt;b> \"q\" 'x' &amp; y</p>");
  EXPECT_EQ(sanitize("<code>&lt;br /></code>", k_base), "<code>&lt;br /></code>");
  EXPECT_EQ(sanitize("<abbr title='say \"hi\" &lt;now&gt;'>x</abbr>", k_base),
            "<abbr title=\"say &quot;hi&quot; &lt;now&gt;\">x</abbr>");
}

// `count` attributes without values, " x0 x1 ...".
std::string valueless_attributes(std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count; ++i) {
    out += " x" + std::to_string(i);
  }
  return out;
}

TEST(HtmlSanitize, KeepsOnlyTheFirstAttributesOfATagWithTooMany) {
  // Gumbo spent 25 s on one tag with 100,000 attributes.
  const std::string filler = valueless_attributes(k_max_attributes - 1);
  EXPECT_EQ(sanitize("<abbr title=\"early\"" + filler + " lang=\"en\">x</abbr>", k_base),
            "<abbr title=\"early\">x</abbr>");
  EXPECT_EQ(sanitize("<abbr" + filler + " title=\"in\" lang=\"out\">x</abbr>", k_base),
            "<abbr title=\"in\">x</abbr>");
  EXPECT_EQ(sanitize("<p>a</p" + valueless_attributes(100'000) + "><p>b</p>", k_base),
            "<p>a</p><p>b</p>");
}

TEST(HtmlSanitize, ReadsLessThanInAQuotedValueAsText) {
  EXPECT_EQ(sanitize("<abbr title=\"a<b\">x</abbr>", k_base), "<abbr title=\"a&lt;b\">x</abbr>");
  // A comment holds no tag, even one whose quote never closes: the comment ends at "-->", as
  // the parser ends it, and the tag after it is read as one (its attributes within the count).
  const std::string output =
      sanitize("<!-- <p a=\" --><b" + valueless_attributes(1000) + ">x</b>", k_base);
  EXPECT_EQ(output, "<b>x</b>");
  EXPECT_EQ(sanitize("<!-- <a title=\"x -->\n<p>y", k_base), "<p>y</p>");
}

TEST(HtmlSanitize, TurnsPlainTextLinesIntoBreaks) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"Line one\nLine two", "Line one<br>Line two"},
      {"Tom & Jerry > 1 < 2", "Tom &amp; Jerry > 1 &lt; 2"},
      {"AT&amp;T \"quoted\"", "AT&amp;T \"quoted\""},
      {"  padded\r\nwindows  ", "padded<br>windows"},
      {"", ""},
  };
  for (const auto& [input, expected] : cases) {
    SCOPED_TRACE(input);
    EXPECT_EQ(sanitize(input, k_base), expected);
  }
}

TEST(HtmlSanitize, FlattensContentNestedBeyondTheDepthBound) {
  std::string input;
  for (std::size_t i = 0; i < k_max_depth + 50; ++i) {
    input += "<div>";
  }
  input += "deep <b>text</b>";
  std::string output = sanitize(input, k_base);
  EXPECT_EQ(count_occurrences(output, "<div>"), k_max_depth);
  EXPECT_EQ(count_occurrences(output, "</div>"), k_max_depth);
  EXPECT_NE(output.find("deep text"), std::string::npos);
  EXPECT_EQ(output.find("<b>"), std::string::npos);
}

TEST(HtmlSanitize, CutsInputNestedBeyondTheOpenTagBound) {
  // Deeply nested markup costs the parser time that grows with the square of the depth.
  std::string input;
  for (std::size_t i = 0; i < 100000; ++i) {
    input += "<span><b>";
  }
  input += "end";
  std::string output = sanitize(input, k_base);
  EXPECT_EQ(output.find("end"), std::string::npos);
  EXPECT_LE(count_occurrences(output, "<b>"), k_max_depth);
}

TEST(HtmlSanitize, CountsFormattingElementsTheParserReopens) {
  // Unclosed bold tags with distinct attributes are reopened in every later paragraph, so
  // nesting grows although each paragraph is closed.
  std::string input;
  for (std::size_t i = 0; i < k_max_open_tags * 4; ++i) {
    input += "<p><b id=\"" + std::to_string(i) + "\">x</p>";
  }
  input += "<p>end</p>";
  EXPECT_EQ(sanitize(input, k_base).find("end"), std::string::npos);
}

TEST(HtmlSanitize, KeepsLongWellFormedDocuments) {
  std::string input;
  for (std::size_t i = 0; i < k_max_open_tags * 4; ++i) {
    input += "<div><p><b id=\"" + std::to_string(i) + "\">x</b> <a href=\"/e\">e</a></p></div>";
  }
  input += "<p>end</p>";
  EXPECT_NE(sanitize(input, k_base).find("<p>end</p>"), std::string::npos);
}

TEST(HtmlSanitize, KeepsManyImplicitlyClosedParagraphs) {
  std::string input;
  for (std::size_t i = 0; i < k_max_open_tags * 2; ++i) {
    input += "<p>para";
  }
  input += "<p>last";
  std::string output = sanitize(input, k_base);
  EXPECT_NE(output.find("<p>last</p>"), std::string::npos);
  EXPECT_EQ(count_occurrences(output, "<p>"), k_max_open_tags * 2 + 1);
}

TEST(HtmlSanitize, BoundsTheInputSize) {
  std::string input = "<p>" + std::string(k_max_input_bytes * 2, 'a') + "</p>";
  std::string output = sanitize(input, k_base);
  EXPECT_LT(output.size(), k_max_input_bytes + 16);
  EXPECT_TRUE(output.starts_with("<p>aaaa"));
}

TEST(HtmlSanitize, CutsOversizedInputOnACharacterBoundary) {
  // Two-byte characters straddling the bound must not leave half a character behind.
  std::string input = "<p>a";
  while (input.size() < k_max_input_bytes + 10) {
    input += "\xd8\xa7";
  }
  std::string output = sanitize(input, k_base);
  EXPECT_EQ(output.find("\xef\xbf\xbd"), std::string::npos); // no U+FFFD replacement
}

TEST(HtmlPlainText, CollapsesWhitespaceAndSeparatesBlocks) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"<p>Hello</p><p>world</p>", "Hello world"},
      {"<p>  a \n\t b </p>", "a b"},
      {"one<br>two", "one two"},
      {"<script>var x;</script><style>p{}</style>visible", "visible"},
      {"<ul><li>a</li><li>b</li></ul>", "a b"},
      {"<b>bo</b><i>ld</i>", "bold"},
      {"x&nbsp;&nbsp;y &amp; z", "x y & z"},
      // Unicode's White_Space beyond ASCII: ideographic, em and medium mathematical spaces, the
      // line separator; a zero width space is not one.
      {"\u3000 lead\u00a0\u2003mid\u205ftrail\u2028 \u3000", "lead mid trail"},
      {"zero\u200bwidth", "zero\u200bwidth"},
      {"", ""},
  };
  for (const auto& [input, expected] : cases) {
    SCOPED_TRACE(input);
    EXPECT_EQ(plain_text(input, 1000), expected);
  }
}

TEST(HtmlPlainText, CutsAtAWordBoundaryWithAnEllipsis) {
  EXPECT_EQ(plain_text("Hello wonderful world", 21), "Hello wonderful world");
  EXPECT_EQ(plain_text("Hello wonderful world", 20), "Hello wonderful\u2026");
  EXPECT_EQ(plain_text("Hello wonderful world", 12), "Hello\u2026");
  EXPECT_EQ(plain_text("Hello wonderful world", 0), "");
  EXPECT_EQ(plain_text("Incomprehensibilities", 6), "Incom\u2026");
}

TEST(HtmlPlainText, CountsCharactersNotBytes) {
  // Ten two-byte letters and a four-byte emoji: eleven characters, 24 bytes.
  const std::string text =
      "\xd8\xa7\xd8\xa8\xd8\xaa\xd8\xab\xd8\xac \xd8\xad\xd8\xae\xd8\xaf\xd8\xb0"
      "\xf0\x9f\x8e\x99";
  EXPECT_EQ(plain_text(text, 11), text);
  EXPECT_EQ(plain_text(text, 10), "\xd8\xa7\xd8\xa8\xd8\xaa\xd8\xab\xd8\xac\u2026");
}

TEST(HtmlPlainText, CutsArabicTextOnAWordBoundary) {
  // "Welcome to the Arabic podcast"
  const std::string text =
      "\xd9\x85\xd8\xb1\xd8\xad\xd8\xa8\xd8\xa7 \xd8\xa8\xd9\x83\xd9\x85 \xd9\x81\xd9\x8a "
      "\xd8\xa7\xd9\x84\xd8\xa8\xd9\x88\xd8\xaf\xd9\x83\xd8\xa7\xd8\xb3\xd8\xaa "
      "\xd8\xa7\xd9\x84\xd8\xb9\xd8\xb1\xd8\xa8\xd9\x8a";
  // Room for 11 letters: "مرحبا بكم" (9) fits, "في" would end at 12.
  EXPECT_EQ(plain_text("<p>" + text + "</p>", 12),
            "\xd9\x85\xd8\xb1\xd8\xad\xd8\xa8\xd8\xa7 \xd8\xa8\xd9\x83\xd9\x85\u2026");
  for (std::size_t max_chars = 6; max_chars < count_code_points(text); ++max_chars) {
    SCOPED_TRACE(max_chars);
    std::string cut = plain_text(text, max_chars);
    ASSERT_TRUE(cut.ends_with("\u2026"));
    EXPECT_LE(count_code_points(cut), max_chars);
    std::string kept = cut.substr(0, cut.size() - std::string_view("\u2026").size());
    ASSERT_TRUE(text.starts_with(kept));
    EXPECT_EQ(text[kept.size()], ' '); // the next character starts a new word
  }
}

TEST(HtmlPlainText, NeverSplitsAnEmojiGrapheme) {
  // A family emoji: four people joined by zero-width joiners, seven code points.
  const std::string family =
      "\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7\xe2\x80\x8d"
      "\xf0\x9f\x91\xa6";
  const std::string text = "ab" + family + family + "cd";
  for (std::size_t max_chars = 1; max_chars <= count_code_points(text); ++max_chars) {
    SCOPED_TRACE(max_chars);
    std::string cut = plain_text(text, max_chars);
    EXPECT_LE(count_code_points(cut), max_chars);
    std::string kept = cut.ends_with("\u2026") ? cut.substr(0, cut.size() - 3) : cut;
    ASSERT_TRUE(text.starts_with(kept));
    // Every position inside the emoji touches a joiner, so a clean cut has none on either side.
    const std::string joiner = "\xe2\x80\x8d";
    EXPECT_FALSE(kept.ends_with(joiner)) << "cut inside an emoji: " << cut;
    EXPECT_FALSE(text.substr(kept.size()).starts_with(joiner)) << "cut inside an emoji: " << cut;
  }
}

} // namespace
} // namespace podcrawl::html

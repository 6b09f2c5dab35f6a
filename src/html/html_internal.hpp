#pragma once

// What the files of the html module share: the allowlist, the parse under bounds (bounds.cpp),
// reading the parser's tree (tree.cpp), the allowlist walk (sanitize.cpp), the reading of
// well-formed HTML without the parser (well_formed.cpp) and plain text (plain_text.cpp).

#include <gumbo.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace podcrawl::html::internal {

// ---- The allowlist (sanitize.cpp writes what it keeps; well_formed.cpp reads by it too)

// How an allowed attribute's value is checked before it is written out.
enum class AttributeKind { text, url, number };

struct AttributeRule {
  std::string_view name;
  AttributeKind kind = AttributeKind::text;
};

// An allowed element and the attributes it may keep, space-separated, besides the global ones.
struct TagRule {
  GumboTag tag = GUMBO_TAG_UNKNOWN;
  std::string_view attributes;
};

// Attributes any allowed element may keep.
inline constexpr std::string_view k_global_attributes = "title lang dir";

// Attributes whose value is checked; any other allowed attribute is plain text.
inline constexpr std::array k_attribute_rules = {
    AttributeRule{"href", AttributeKind::url},
    AttributeRule{"cite", AttributeKind::url},
    AttributeRule{"colspan", AttributeKind::number},
    AttributeRule{"rowspan", AttributeKind::number},
    AttributeRule{"start", AttributeKind::number},
};

// Longest number accepted in a numeric attribute.
inline constexpr std::size_t k_max_number_digits = 5;

// The elements that survive sanitizing. Headings are kept as they are.
inline constexpr std::array k_allowed_tags = {
    TagRule{GUMBO_TAG_P, ""},
    TagRule{GUMBO_TAG_BR, ""},
    TagRule{GUMBO_TAG_A, "href"},
    TagRule{GUMBO_TAG_B, ""},
    TagRule{GUMBO_TAG_STRONG, ""},
    TagRule{GUMBO_TAG_I, ""},
    TagRule{GUMBO_TAG_EM, ""},
    TagRule{GUMBO_TAG_U, ""},
    TagRule{GUMBO_TAG_S, ""},
    TagRule{GUMBO_TAG_UL, ""},
    TagRule{GUMBO_TAG_OL, "start"},
    TagRule{GUMBO_TAG_LI, ""},
    TagRule{GUMBO_TAG_BLOCKQUOTE, "cite"},
    TagRule{GUMBO_TAG_CODE, ""},
    TagRule{GUMBO_TAG_PRE, ""},
    TagRule{GUMBO_TAG_H1, ""},
    TagRule{GUMBO_TAG_H2, ""},
    TagRule{GUMBO_TAG_H3, ""},
    TagRule{GUMBO_TAG_H4, ""},
    TagRule{GUMBO_TAG_H5, ""},
    TagRule{GUMBO_TAG_H6, ""},
    TagRule{GUMBO_TAG_FIGURE, ""},
    TagRule{GUMBO_TAG_FIGCAPTION, ""},
    TagRule{GUMBO_TAG_SPAN, ""},
    TagRule{GUMBO_TAG_DIV, ""},
    TagRule{GUMBO_TAG_HR, ""},
    TagRule{GUMBO_TAG_TABLE, ""},
    TagRule{GUMBO_TAG_THEAD, ""},
    TagRule{GUMBO_TAG_TBODY, ""},
    TagRule{GUMBO_TAG_TR, ""},
    TagRule{GUMBO_TAG_TH, "colspan rowspan"},
    TagRule{GUMBO_TAG_TD, "colspan rowspan"},
    TagRule{GUMBO_TAG_SUP, ""},
    TagRule{GUMBO_TAG_SUB, ""},
    TagRule{GUMBO_TAG_SMALL, ""},
    TagRule{GUMBO_TAG_ABBR, ""},
    TagRule{GUMBO_TAG_CITE, ""},
    TagRule{GUMBO_TAG_Q, "cite"},
    TagRule{GUMBO_TAG_DL, ""},
    TagRule{GUMBO_TAG_DT, ""},
    TagRule{GUMBO_TAG_DD, ""},
};

// Elements dropped together with everything inside them: they hold code, styles, embedded
// documents, form controls or metadata, none of which is readable text.
inline constexpr std::array k_dropped_with_content = {
    GUMBO_TAG_SCRIPT,   GUMBO_TAG_STYLE,     GUMBO_TAG_TEMPLATE, GUMBO_TAG_NOSCRIPT,
    GUMBO_TAG_IFRAME,   GUMBO_TAG_FRAME,     GUMBO_TAG_FRAMESET, GUMBO_TAG_NOFRAMES,
    GUMBO_TAG_OBJECT,   GUMBO_TAG_EMBED,     GUMBO_TAG_APPLET,   GUMBO_TAG_PARAM,
    GUMBO_TAG_NOEMBED,  GUMBO_TAG_SVG,       GUMBO_TAG_MATH,     GUMBO_TAG_HEAD,
    GUMBO_TAG_TITLE,    GUMBO_TAG_TEXTAREA,  GUMBO_TAG_SELECT,   GUMBO_TAG_OPTION,
    GUMBO_TAG_DATALIST, GUMBO_TAG_BASE,      GUMBO_TAG_META,     GUMBO_TAG_LINK,
    GUMBO_TAG_FORM,     GUMBO_TAG_INPUT,     GUMBO_TAG_BUTTON,   GUMBO_TAG_KEYGEN,
    GUMBO_TAG_XMP,      GUMBO_TAG_PLAINTEXT, GUMBO_TAG_CANVAS,   GUMBO_TAG_VIDEO,
    GUMBO_TAG_AUDIO,    GUMBO_TAG_SOURCE,    GUMBO_TAG_TRACK,    GUMBO_TAG_MAP,
    GUMBO_TAG_AREA,     GUMBO_TAG_MARQUEE,
};

// Elements written without a closing tag.
inline constexpr std::array k_void_tags = {GUMBO_TAG_BR, GUMBO_TAG_HR};

// Elements that separate words: when unwrapped or turned into plain text they leave a space.
inline constexpr std::array k_block_tags = {
    GUMBO_TAG_P,          GUMBO_TAG_BR,      GUMBO_TAG_DIV,        GUMBO_TAG_LI,
    GUMBO_TAG_UL,         GUMBO_TAG_OL,      GUMBO_TAG_BLOCKQUOTE, GUMBO_TAG_PRE,
    GUMBO_TAG_H1,         GUMBO_TAG_H2,      GUMBO_TAG_H3,         GUMBO_TAG_H4,
    GUMBO_TAG_H5,         GUMBO_TAG_H6,      GUMBO_TAG_HR,         GUMBO_TAG_TABLE,
    GUMBO_TAG_TR,         GUMBO_TAG_TD,      GUMBO_TAG_TH,         GUMBO_TAG_FIGURE,
    GUMBO_TAG_FIGCAPTION, GUMBO_TAG_DL,      GUMBO_TAG_DT,         GUMBO_TAG_DD,
    GUMBO_TAG_SECTION,    GUMBO_TAG_ARTICLE, GUMBO_TAG_HEADER,     GUMBO_TAG_FOOTER,
    GUMBO_TAG_ASIDE,      GUMBO_TAG_NAV,     GUMBO_TAG_MAIN,       GUMBO_TAG_ADDRESS,
    GUMBO_TAG_BODY,
};

// ---- Small readers the files share

// True when `token` is one of the space-separated words of `list`.
inline bool has_token(std::string_view list, std::string_view token) {
  while (!list.empty()) {
    auto space = list.find(' ');
    if (list.substr(0, space) == token) {
      return true;
    }
    list = space == std::string_view::npos ? std::string_view{} : list.substr(space + 1);
  }
  return false;
}

// True for HTML's ASCII white space (core::k_html_space): space, \t, \n, \f, \r.
constexpr bool is_html_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}

// True when `tag` is one of the table's.
template <typename Table>
bool contains(const Table& table, GumboTag tag) {
  return std::find(table.begin(), table.end(), tag) != table.end();
}

// ---- The parse under bounds (bounds.cpp)

// Frees a parse, and the rewritten input its nodes may point into when there is one.
struct OutputDeleter {
  std::shared_ptr<const std::string> source;
  void operator()(GumboOutput* output) const {
    gumbo_destroy_output(&kGumboDefaultOptions, output);
  }
};
using Document = std::unique_ptr<GumboOutput, OutputDeleter>;

// Parse at most k_max_input_bytes of the HTML (cut at a UTF-8 character boundary).
// Nodes may point into `html`, which must outlive the document. Never null.
Document parse(std::string_view html);

// ---- Reading the parser's tree (tree.cpp)

// True for an element (or template) in the HTML namespace, not SVG or MathML.
bool is_html_element(const GumboNode* node);

// True for an element dropped with everything inside it: one of k_dropped_with_content, or
// any element outside the HTML namespace.
bool is_dropped_with_content(const GumboNode* node);

// Return the text under `root`, block elements surrounded by spaces, dropped elements
// skipped. Iterative, so nesting depth costs heap and not stack.
std::string collect_text(const GumboNode* root);

// ---- The allowlist walk (sanitize.cpp)

// sanitize() by way of the HTML parser, without the shortcut for well-formed HTML and plain
// text.
std::string sanitize_parsed(std::string_view html, std::string_view base_url);

// An attribute as read from a tag: lowercase name, value with references decoded.
struct Attribute {
  std::string_view name;
  std::string_view value;
};

// The allowlist rule of an element, or null when it is not allowed.
const TagRule* find_rule(GumboTag tag);

// Append the start tag of an allowed element with the attributes its rule keeps, checked and
// escaped.
void append_start_tag(std::string& out, GumboTag tag, const TagRule& rule,
                      std::span<const Attribute> attributes, std::string_view base_url);

// Return text as HTML: line breaks become <br>, carriage returns go, the rest is escaped.
std::string text_to_html(std::string_view text);

// ---- Well-formed HTML read without the parser (well_formed.cpp)

// sanitize() without the HTML parser, for HTML whose tree the parser builds exactly as the
// tags are written: only the elements of k_well_formed_elements, each closed by its own end
// tag (or open at the end), none that the parser would close implicitly or reopen, quoted or
// plain attribute values, comments, and only the character references of
// k_well_formed_references. The result equals sanitize_parsed()'s; any other input gives
// nullopt.
std::optional<std::string> sanitize_well_formed(std::string_view html, std::string_view base_url);

// The text of the HTML as collect_text reads it from the parser's tree (references decoded, a
// space at the start and end of each element of k_block_tags), for the HTML that
// sanitize_well_formed reads; nullopt for any other.
std::optional<std::string> text_well_formed(std::string_view html);

// How the HTML parser places an element of well-formed HTML (see sanitize_well_formed).
enum class Placement {
  phrasing,      // inserted where it is
  formatting,    // also kept in the parser's list of formatting elements
  anchor,        // a formatting element the parser closes when another one starts inside it
  block,         // first closes an open paragraph
  list_item,     // block; also closes an open list item of the same list
  definition,    // block; also closes an open dt or dd of the same list
  heading,       // block; also closes a heading it is written in
  void_phrasing, // no content, no end tag
  void_block,    // no content, no end tag; first closes an open paragraph
};

struct WellFormedElement {
  std::string_view name;
  GumboTag tag = GUMBO_TAG_UNKNOWN;
  Placement placement = Placement::phrasing;
};

// The allowlisted elements sanitize_well_formed reads. Tables, pre (whose first line break
// the parser drops) and everything else need the parser.
inline constexpr std::array k_well_formed_elements = {
    WellFormedElement{"a", GUMBO_TAG_A, Placement::anchor},
    WellFormedElement{"b", GUMBO_TAG_B, Placement::formatting},
    WellFormedElement{"strong", GUMBO_TAG_STRONG, Placement::formatting},
    WellFormedElement{"i", GUMBO_TAG_I, Placement::formatting},
    WellFormedElement{"em", GUMBO_TAG_EM, Placement::formatting},
    WellFormedElement{"u", GUMBO_TAG_U, Placement::formatting},
    WellFormedElement{"s", GUMBO_TAG_S, Placement::formatting},
    WellFormedElement{"code", GUMBO_TAG_CODE, Placement::formatting},
    WellFormedElement{"small", GUMBO_TAG_SMALL, Placement::formatting},
    WellFormedElement{"span", GUMBO_TAG_SPAN, Placement::phrasing},
    WellFormedElement{"sup", GUMBO_TAG_SUP, Placement::phrasing},
    WellFormedElement{"sub", GUMBO_TAG_SUB, Placement::phrasing},
    WellFormedElement{"abbr", GUMBO_TAG_ABBR, Placement::phrasing},
    WellFormedElement{"cite", GUMBO_TAG_CITE, Placement::phrasing},
    WellFormedElement{"q", GUMBO_TAG_Q, Placement::phrasing},
    WellFormedElement{"p", GUMBO_TAG_P, Placement::block},
    WellFormedElement{"div", GUMBO_TAG_DIV, Placement::block},
    WellFormedElement{"ul", GUMBO_TAG_UL, Placement::block},
    WellFormedElement{"ol", GUMBO_TAG_OL, Placement::block},
    WellFormedElement{"blockquote", GUMBO_TAG_BLOCKQUOTE, Placement::block},
    WellFormedElement{"figure", GUMBO_TAG_FIGURE, Placement::block},
    WellFormedElement{"figcaption", GUMBO_TAG_FIGCAPTION, Placement::block},
    WellFormedElement{"dl", GUMBO_TAG_DL, Placement::block},
    WellFormedElement{"li", GUMBO_TAG_LI, Placement::list_item},
    WellFormedElement{"dt", GUMBO_TAG_DT, Placement::definition},
    WellFormedElement{"dd", GUMBO_TAG_DD, Placement::definition},
    WellFormedElement{"h1", GUMBO_TAG_H1, Placement::heading},
    WellFormedElement{"h2", GUMBO_TAG_H2, Placement::heading},
    WellFormedElement{"h3", GUMBO_TAG_H3, Placement::heading},
    WellFormedElement{"h4", GUMBO_TAG_H4, Placement::heading},
    WellFormedElement{"h5", GUMBO_TAG_H5, Placement::heading},
    WellFormedElement{"h6", GUMBO_TAG_H6, Placement::heading},
    WellFormedElement{"br", GUMBO_TAG_BR, Placement::void_phrasing},
    WellFormedElement{"img", GUMBO_TAG_IMG, Placement::void_phrasing}, // read, and dropped
    WellFormedElement{"hr", GUMBO_TAG_HR, Placement::void_block},
};

// The named character references sanitize_well_formed decodes (with their semicolon); the
// parser reads each as the HTML Standard's table says (read_character_reference).
inline constexpr auto k_well_formed_references = std::to_array<std::string_view>({
    "amp",   "lt",    "gt",    "quot",  "apos",   "nbsp",   "ndash",  "mdash",
    "lsquo", "rsquo", "ldquo", "rdquo", "hellip", "bull",   "middot", "copy",
    "reg",   "trade", "laquo", "raquo", "euro",   "eacute",
});

// Elements deeper than this, and tags with more attributes, need the parser.
inline constexpr std::size_t k_max_well_formed_depth = 64;
inline constexpr std::size_t k_max_well_formed_attributes = 16;

// ---- Plain text (plain_text.cpp)

// plain_text() by way of the HTML parser, without the shortcut for well-formed HTML.
std::string plain_text_parsed(std::string_view html, std::size_t max_chars);

} // namespace podcrawl::html::internal

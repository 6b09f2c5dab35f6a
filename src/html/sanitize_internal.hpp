#pragma once

#include <gumbo.h>

#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace podcrawl::html::internal {

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
    AttributeRule{"src", AttributeKind::url},
    AttributeRule{"cite", AttributeKind::url},
    AttributeRule{"width", AttributeKind::number},
    AttributeRule{"height", AttributeKind::number},
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
    TagRule{GUMBO_TAG_IMG, "src alt width height"},
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
inline constexpr std::array k_void_tags = {GUMBO_TAG_BR, GUMBO_TAG_HR, GUMBO_TAG_IMG};

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

// Tag names that the nesting count (see nesting_cut) treats specially, space-separated.
// Void elements never stay open.
inline constexpr std::string_view k_void_names =
    "area base br col embed hr img input keygen link meta param source track wbr";
// Formatting elements: when something else closes them, the parser remembers them and opens
// them again later, up to three copies of the same tag.
inline constexpr std::string_view k_formatting_names =
    "a b big code em font i nobr s small strike strong tt u";
inline constexpr int k_max_reopened_copies = 3;

// A start tag that first closes the open elements of the listed names on top of the stack.
struct ImplicitClose {
  std::string_view name;
  std::string_view closes;
};
inline constexpr std::array k_implicit_closes = {
    ImplicitClose{"p", "p"},
    ImplicitClose{"li", "li"},
    ImplicitClose{"dt", "dt dd"},
    ImplicitClose{"dd", "dt dd"},
    ImplicitClose{"tr", "tr td th"},
    ImplicitClose{"td", "td th"},
    ImplicitClose{"th", "td th"},
    ImplicitClose{"option", "option"},
    ImplicitClose{"optgroup", "option optgroup"},
    ImplicitClose{"rt", "rt rp"},
    ImplicitClose{"rp", "rt rp"},
};

// Return where the HTML must be cut so that no more than k_max_open_tags elements are open
// at once, or npos when it need not be. It reads tags without parsing and errs towards
// counting too many.
std::size_t nesting_cut(std::string_view html);

// Return the HTML with the attributes of each tag past the first k_max_attributes dropped and
// every '<' inside a quoted attribute value written "&lt;" (which means the same there), or
// nullopt when there is neither. Tags are read the way the HTML tokenizer reads them; with no
// '<' left inside quoted values, a tag the parser finds can only start where this reading
// finds one too, or inside one of its unquoted attributes, and it reads the same attributes
// from the first space on, so none of the parser's tags escapes the count.
std::optional<std::string> bound_attributes(std::string_view html);

// Frees a parse, and the rewritten input its nodes may point into when there is one.
struct OutputDeleter {
  std::shared_ptr<const std::string> source;
  void operator()(GumboOutput* output) const {
    gumbo_destroy_output(&kGumboDefaultOptions, output);
  }
};
using Document = std::unique_ptr<GumboOutput, OutputDeleter>;

// sanitize() by way of the HTML parser, without the shortcut for input that is plain text.
std::string sanitize_parsed(std::string_view html, std::string_view base_url);

// Parse at most k_max_input_bytes of the HTML (cut at a UTF-8 character boundary).
// Nodes may point into `html`, which must outlive the document. Never null.
Document parse(std::string_view html);

} // namespace podcrawl::html::internal

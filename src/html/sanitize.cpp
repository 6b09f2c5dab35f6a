#include "podcrawl/html/sanitize.hpp"

#include <unicode/brkiter.h>
#include <unicode/locid.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "podcrawl/core/ascii.hpp"
#include "podcrawl/core/text.hpp"
#include "podcrawl/html/escape.hpp"
#include "podcrawl/net/url.hpp"
#include "sanitize_internal.hpp"

namespace podcrawl::html {
namespace internal {

namespace {

// True when `token` is one of the space-separated words of `list`.
bool has_token(std::string_view list, std::string_view token) {
  while (!list.empty()) {
    auto space = list.find(' ');
    if (list.substr(0, space) == token) {
      return true;
    }
    list = space == std::string_view::npos ? std::string_view{} : list.substr(space + 1);
  }
  return false;
}

// Estimates the parser's stack of open elements from tags alone: implicit closing of
// paragraphs, list items and cells, end tags closing inline elements along the way, and
// formatting elements the parser reopens after something else closed them.
class OpenElementCounter {
public:
  std::size_t count() const { return m_open.size() + m_reopened_total; }

  void start(std::string name, std::string key) {
    if (has_token(k_void_names, name)) {
      return;
    }
    auto rule = std::find_if(k_implicit_closes.begin(), k_implicit_closes.end(),
                             [&name](const ImplicitClose& close) { return close.name == name; });
    while (rule != k_implicit_closes.end() && !m_open.empty() &&
           has_token(rule->closes, m_open.back().name)) {
      close_top();
    }
    m_open.push_back({std::move(name), std::move(key)});
  }

  void end(std::string_view name) {
    for (auto open = m_open.rbegin(); open != m_open.rend(); ++open) {
      if (open->name == name) {
        auto below = std::next(open).base();
        while (m_open.end() - below > 1) {
          close_top();
        }
        m_open.pop_back();
        return;
      }
      if (!has_token(k_formatting_names, open->name) && !is_implicitly_closed(open->name)) {
        break;
      }
    }
    // An end tag with nothing open to match ends a reopened formatting element, if any.
    for (auto reopened = m_reopened.begin(); reopened != m_reopened.end(); ++reopened) {
      if (reopened->first.name == name) {
        if (--reopened->second == 0) {
          m_reopened.erase(reopened);
        }
        --m_reopened_total;
        return;
      }
    }
  }

private:
  struct Element {
    std::string name;
    std::string key; // the start tag's text, attributes included
    bool operator<(const Element& other) const { return key < other.key; }
  };

  static bool is_implicitly_closed(std::string_view name) {
    return std::any_of(k_implicit_closes.begin(), k_implicit_closes.end(),
                       [name](const ImplicitClose& close) { return close.name == name; });
  }

  void close_top() {
    Element& top = m_open.back();
    if (has_token(k_formatting_names, top.name)) {
      int& copies = m_reopened[top];
      if (copies < k_max_reopened_copies) {
        ++copies;
        ++m_reopened_total;
      }
    }
    m_open.pop_back();
  }

  std::vector<Element> m_open;
  std::map<Element, int> m_reopened;
  std::size_t m_reopened_total = 0;
};

} // namespace

std::size_t nesting_cut(std::string_view html) {
  constexpr std::size_t k_max_name_length = 32;
  constexpr std::size_t k_max_key_length = 256;
  OpenElementCounter counter;
  for (std::size_t i = html.find('<'); i != std::string_view::npos; i = html.find('<', i)) {
    std::size_t start = i++;
    bool closing = i < html.size() && html[i] == '/';
    i += closing ? 1 : 0;
    if (i >= html.size() || !core::is_ascii_alpha(html[i])) {
      continue;
    }
    std::size_t name_end = std::min(html.find_first_of(" \t\n\r\f/>", i), html.size());
    std::string name = core::ascii_lower(html.substr(i, std::min(name_end - i, k_max_name_length)));
    if (closing) {
      counter.end(name);
      continue;
    }
    std::size_t tag_end = std::min(html.find('>', i), html.size());
    std::string key =
        core::ascii_lower(html.substr(start, std::min(tag_end - start, k_max_key_length)));
    counter.start(std::move(name), std::move(key));
    if (counter.count() > k_max_open_tags) {
      return start;
    }
  }
  return std::string_view::npos;
}

namespace {

bool is_tag_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

// Rewrites tags for bound_attributes: `out` receives html[copied, at) before each change.
class AttributeBounder {
public:
  explicit AttributeBounder(std::string_view html) : m_html(html) {}

  std::optional<std::string> run() {
    for (std::size_t at = m_html.find('<'); at != std::string_view::npos;
         at = m_html.find('<', at)) {
      std::size_t name = at + 1 + (at + 1 < m_html.size() && m_html[at + 1] == '/' ? 1 : 0);
      bool alpha = name < m_html.size() && ((m_html[name] >= 'a' && m_html[name] <= 'z') ||
                                            (m_html[name] >= 'A' && m_html[name] <= 'Z'));
      at = alpha ? read_tag(name) : at + 1;
    }
    if (!m_changed) {
      return std::nullopt;
    }
    m_out.append(m_html.substr(m_copied));
    return std::move(m_out);
  }

private:
  // Read the tag whose name starts at `at`; return where it ends (at its '>' or the end).
  std::size_t read_tag(std::size_t at) {
    const std::size_t size = m_html.size();
    std::size_t i = skip_name(at, "/>");
    std::size_t count = 0;
    std::size_t excess = std::string_view::npos; // where the first dropped attribute starts
    while (i < size && m_html[i] != '>') {
      if (is_tag_space(m_html[i]) || m_html[i] == '/') {
        ++i;
        continue;
      }
      if (++count == k_max_attributes + 1) {
        excess = i;
      }
      i = skip_name(i + 1, "/>="); // the first character may be '='
      std::size_t after = i;
      while (after < size && is_tag_space(m_html[after])) {
        ++after;
      }
      if (after == size || m_html[after] != '=') {
        i = after;
        continue;
      }
      i = after + 1;
      while (i < size && is_tag_space(m_html[i])) {
        ++i;
      }
      if (i < size && (m_html[i] == '"' || m_html[i] == '\'')) {
        std::size_t close = std::min(m_html.find(m_html[i], i + 1), size);
        if (excess == std::string_view::npos) {
          escape_less_than(i + 1, close);
        }
        i = close == size ? size : close + 1;
      } else {
        i = skip_name(i, ">");
      }
    }
    if (excess != std::string_view::npos) {
      m_out.append(m_html.substr(m_copied, excess - m_copied));
      m_copied = i;
      m_changed = true;
    }
    return i;
  }

  // Past the run of characters from `at` that are neither space nor one of `stops`.
  std::size_t skip_name(std::size_t at, std::string_view stops) const {
    while (at < m_html.size() && !is_tag_space(m_html[at]) &&
           stops.find(m_html[at]) == std::string_view::npos) {
      ++at;
    }
    return at;
  }

  void escape_less_than(std::size_t begin, std::size_t end) {
    for (std::size_t lt = m_html.find('<', begin); lt < end; lt = m_html.find('<', lt + 1)) {
      m_out.append(m_html.substr(m_copied, lt - m_copied)).append("&lt;");
      m_copied = lt + 1;
      m_changed = true;
    }
  }

  std::string_view m_html;
  std::string m_out;
  std::size_t m_copied = 0; // m_html[m_copied, ...) is not in m_out yet
  bool m_changed = false;
};

} // namespace

std::optional<std::string> bound_attributes(std::string_view html) {
  return AttributeBounder(html).run();
}

Document parse(std::string_view html) {
  html = core::utf8_prefix(html, k_max_input_bytes);
  std::shared_ptr<const std::string> bounded;
  if (std::optional<std::string> rewritten = bound_attributes(html)) {
    bounded = std::make_shared<const std::string>(std::move(*rewritten));
    html = *bounded;
  }
  html = html.substr(0, nesting_cut(html));
  GumboOptions options = kGumboDefaultOptions;
  options.max_errors = 0; // parse errors are of no use here; do not spend memory on them
  Document document(gumbo_parse_with_options(&options, html.data(), html.size()),
                    OutputDeleter{bounded});
  if (!document) {
    throw std::bad_alloc();
  }
  return document;
}

} // namespace internal

namespace {

using internal::AttributeKind;
using internal::find_rule;
using internal::has_token;
using internal::TagRule;
using internal::text_to_html;

constexpr std::string_view k_ellipsis = "\u2026";

template <typename Table>
bool contains(const Table& table, GumboTag tag) {
  return std::find(table.begin(), table.end(), tag) != table.end();
}

AttributeKind attribute_kind(std::string_view name) {
  for (const auto& rule : internal::k_attribute_rules) {
    if (rule.name == name) {
      return rule.kind;
    }
  }
  return AttributeKind::text;
}

bool is_ascii_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

// True when the text contains something a parser would read as a tag, comment or doctype.
bool has_markup(std::string_view text) {
  for (std::size_t i = 0; i + 1 < text.size(); ++i) {
    char next = text[i + 1];
    bool alpha = (next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z');
    if (text[i] == '<' && (alpha || next == '/' || next == '!' || next == '?')) {
      return true;
    }
  }
  return false;
}

bool is_html_element(const GumboNode* node) {
  return (node->type == GUMBO_NODE_ELEMENT || node->type == GUMBO_NODE_TEMPLATE) &&
         node->v.element.tag_namespace == GUMBO_NAMESPACE_HTML;
}

bool is_dropped_with_content(const GumboNode* node) {
  if (node->type != GUMBO_NODE_ELEMENT && node->type != GUMBO_NODE_TEMPLATE) {
    return false;
  }
  return !is_html_element(node) || contains(internal::k_dropped_with_content, node->v.element.tag);
}

// Return the text under `root`, block elements surrounded by spaces, dropped elements
// skipped. Iterative, so nesting depth costs heap and not stack.
std::string collect_text(const GumboNode* root) {
  std::string text;
  // A null entry stands for the end of a block element.
  std::vector<const GumboNode*> stack = {root};
  while (!stack.empty()) {
    const GumboNode* node = stack.back();
    stack.pop_back();
    if (node == nullptr) {
      text += ' ';
      continue;
    }
    if (node->type == GUMBO_NODE_TEXT || node->type == GUMBO_NODE_WHITESPACE ||
        node->type == GUMBO_NODE_CDATA) {
      text += node->v.text.text;
      continue;
    }
    if ((node->type != GUMBO_NODE_ELEMENT && node->type != GUMBO_NODE_TEMPLATE) ||
        is_dropped_with_content(node)) {
      continue;
    }
    if (contains(internal::k_block_tags, node->v.element.tag)) {
      text += ' ';
      stack.push_back(nullptr);
    }
    const GumboVector& children = node->v.element.children;
    for (unsigned int i = children.length; i > 0; --i) {
      stack.push_back(static_cast<const GumboNode*>(children.data[i - 1]));
    }
  }
  return text;
}

const GumboNode* find_child(const GumboNode* parent, GumboTag tag) {
  const GumboVector& children = parent->v.element.children;
  for (unsigned int i = 0; i < children.length; ++i) {
    const auto* child = static_cast<const GumboNode*>(children.data[i]);
    if (child->type == GUMBO_NODE_ELEMENT && child->v.element.tag == tag) {
      return child;
    }
  }
  return nullptr;
}

// Resolve a URL attribute and keep it only when it is http(s), or mailto where allowed.
std::optional<std::string> safe_url(std::string_view value, std::string_view base_url,
                                    bool allow_mailto) {
  // Control characters never belong in a link, and browsers skip some of them when reading
  // a scheme; a value carrying one (or the replacement character the parser put there) goes.
  bool has_control = std::any_of(value.begin(), value.end(), [](char c) {
    auto byte = static_cast<unsigned char>(c);
    return (byte < 0x20 && !is_ascii_space(c)) || byte == 0x7F;
  });
  if (has_control || value.find("\xEF\xBF\xBD") != std::string_view::npos) {
    return std::nullopt;
  }
  std::string resolved = net::resolve(base_url, value);
  if (auto url = net::parse_url(resolved);
      url && (url->scheme == "http" || url->scheme == "https")) {
    return net::to_string(*url);
  }
  if (allow_mailto && resolved.size() > 7 &&
      core::ascii_lower(resolved.substr(0, 7)) == "mailto:") {
    return "mailto:" + resolved.substr(7);
  }
  return std::nullopt;
}

bool is_small_number(std::string_view value) {
  return !value.empty() && value.size() <= internal::k_max_number_digits &&
         std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Writes the allowed part of a document tree as HTML.
class Writer {
public:
  explicit Writer(std::string_view base_url) : m_base_url(base_url) {}

  void write_children(const GumboNode* parent, std::size_t depth) {
    const GumboVector& children = parent->v.element.children;
    for (unsigned int i = 0; i < children.length; ++i) {
      write_node(static_cast<const GumboNode*>(children.data[i]), depth);
    }
  }

  std::string take() { return std::string(core::trim(m_out, core::k_html_space)); }

private:
  void write_node(const GumboNode* node, std::size_t depth) {
    switch (node->type) {
      case GUMBO_NODE_TEXT:
      case GUMBO_NODE_WHITESPACE:
      case GUMBO_NODE_CDATA:
        append_escaped(m_out, node->v.text.text, k_escape_html_text);
        break;
      case GUMBO_NODE_ELEMENT:
      case GUMBO_NODE_TEMPLATE:
        write_element(node, depth);
        break;
      default:
        break; // comments and the document node carry nothing to show
    }
  }

  void write_element(const GumboNode* node, std::size_t depth) {
    if (is_dropped_with_content(node)) {
      return;
    }
    if (depth >= k_max_depth) {
      append_escaped(m_out, collect_text(node), k_escape_html_text);
      return;
    }
    const GumboElement& element = node->v.element;
    const TagRule* rule = find_rule(element.tag);
    if (rule == nullptr) {
      write_children(node, depth + 1);
      if (contains(internal::k_block_tags, element.tag)) {
        m_out += '\n';
      }
      return;
    }
    write_open_tag(element, *rule);
    if (!contains(internal::k_void_tags, element.tag)) {
      write_children(node, depth + 1);
      m_out.append("</").append(gumbo_normalized_tagname(element.tag)).append(">");
    }
  }

  // Write the start tag with its allowed attributes.
  void write_open_tag(const GumboElement& element, const TagRule& rule) {
    m_attributes.clear();
    for (unsigned int i = 0; i < element.attributes.length; ++i) {
      const auto* attribute = static_cast<const GumboAttribute*>(element.attributes.data[i]);
      m_attributes.push_back({attribute->name, attribute->value});
    }
    internal::append_start_tag(m_out, element.tag, rule, m_attributes, m_base_url);
  }

  std::string_view m_base_url;
  std::string m_out;
  std::vector<internal::Attribute> m_attributes;
};

std::string plain_text_to_html(const GumboNode* root) {
  return text_to_html(core::trim(collect_text(root), core::k_html_space));
}

// Text whose runs of white space (Unicode's White_Space) are each one space, with none at either
// end, and its length in code points. Read in UTF-8: a page summarizes dozens of descriptions.
// Ill-formed UTF-8 becomes U+FFFD, one for each maximal subpart, as icu::UnicodeString::fromUTF8
// reads it.
struct Collapsed {
  std::string text;
  std::size_t chars = 0;
};

Collapsed collapse_whitespace(std::string_view utf8) {
  Collapsed collapsed;
  collapsed.text.reserve(utf8.size());
  const auto* bytes = reinterpret_cast<const uint8_t*>(utf8.data());
  const auto length = static_cast<int32_t>(std::min<std::size_t>(utf8.size(), INT32_MAX));
  bool pending_space = false;
  for (int32_t i = 0; i < length;) {
    const int32_t start = i;
    UChar32 c = bytes[i];
    if (c < 0x80) {
      ++i;
    } else {
      U8_NEXT(bytes, i, length, c);
    }
    const bool white =
        c < 0x80 ? c == ' ' || (c >= '\t' && c <= '\r') : c >= 0 && u_isUWhiteSpace(c);
    if (white) {
      pending_space = true;
      continue;
    }
    if (pending_space && !collapsed.text.empty()) {
      collapsed.text += ' ';
      ++collapsed.chars;
    }
    pending_space = false;
    if (c < 0) {
      collapsed.text += "\xEF\xBF\xBD";
    } else {
      collapsed.text.append(
          utf8.substr(static_cast<std::size_t>(start), static_cast<std::size_t>(i - start)));
    }
    ++collapsed.chars;
  }
  return collapsed;
}

// Return the last boundary of `kind` at or before `limit`, or 0 when there is none. Each
// thread keeps one iterator of each kind: making one costs more than a page of text.
int32_t boundary_before(const icu::UnicodeString& text, int32_t limit,
                        icu::BreakIterator* (*create)(const icu::Locale&, UErrorCode&)) {
  thread_local std::unique_ptr<icu::BreakIterator> word_iterator;
  thread_local std::unique_ptr<icu::BreakIterator> character_iterator;
  std::unique_ptr<icu::BreakIterator>& iterator =
      create == &icu::BreakIterator::createWordInstance ? word_iterator : character_iterator;
  if (!iterator) {
    UErrorCode status = U_ZERO_ERROR;
    iterator.reset(create(icu::Locale::getRoot(), status));
    if (U_FAILURE(status)) {
      iterator.reset();
    }
    if (!iterator) {
      return 0;
    }
  }
  iterator->setText(text);
  if (iterator->isBoundary(limit)) {
    return limit;
  }
  int32_t boundary = iterator->preceding(limit);
  return boundary == icu::BreakIterator::DONE ? 0 : boundary;
}

// The text, its white space collapsed, cut to at most max_chars characters with an ellipsis.
std::string shortened(const std::string& text_of_html, std::size_t max_chars) {
  Collapsed collapsed = collapse_whitespace(text_of_html);
  if (collapsed.chars <= max_chars) {
    return std::move(collapsed.text);
  }
  if (max_chars == 0) {
    return {};
  }
  // Leave room for the ellipsis, then back off to a word boundary; a single word longer than
  // the room is cut at a grapheme boundary instead.
  icu::UnicodeString text = icu::UnicodeString::fromUTF8(collapsed.text);
  int32_t limit = text.moveIndex32(0, static_cast<int32_t>(max_chars - 1));
  int32_t cut = boundary_before(text, limit, &icu::BreakIterator::createWordInstance);
  while (cut > 0 && u_isUWhiteSpace(text.char32At(cut - 1))) {
    --cut;
  }
  if (cut == 0) {
    cut = boundary_before(text, limit, &icu::BreakIterator::createCharacterInstance);
  }
  text.truncate(cut);
  std::string out;
  text.toUTF8String(out);
  return out.append(k_ellipsis);
}

} // namespace

namespace internal {

const TagRule* find_rule(GumboTag tag) {
  const auto& rules = k_allowed_tags;
  auto found = std::find_if(rules.begin(), rules.end(),
                            [tag](const TagRule& rule) { return rule.tag == tag; });
  return found == rules.end() ? nullptr : &*found;
}

std::string text_to_html(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '\n') {
      out += "<br>";
    } else if (c != '\r') {
      append_escaped(out, std::string_view(&c, 1), k_escape_html_text);
    }
  }
  return out;
}

bool is_literal_code_point(char32_t code) {
  bool noncharacter = (code >= 0xfdd0 && code <= 0xfdef) || (code & 0xfffeu) == 0xfffeu;
  if (code < 0x80) {
    return (code >= 0x20 && code != 0x7f) || code == '\t' || code == '\n' || code == '\f';
  }
  return code > 0x9f && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) && !noncharacter &&
         code != 0xfeff;
}

std::size_t literal_character_length(std::string_view text, std::size_t at) {
  auto byte = static_cast<unsigned char>(text[at]);
  if (byte < 0x80) {
    return is_literal_code_point(byte) ? 1 : 0;
  }
  auto [code, length] = core::decode_utf8(text, at);
  return length != 0 && is_literal_code_point(code) ? length : 0;
}

void append_start_tag(std::string& out, GumboTag tag, const TagRule& rule,
                      std::span<const Attribute> attributes, std::string_view base_url) {
  out.append("<").append(gumbo_normalized_tagname(tag));
  for (const Attribute& attribute : attributes) {
    std::string_view name = attribute.name;
    if (!has_token(rule.attributes, name) && !has_token(k_global_attributes, name)) {
      continue;
    }
    std::optional<std::string> value;
    switch (attribute_kind(name)) {
      case AttributeKind::url:
        value = safe_url(attribute.value, base_url, name == "href");
        break;
      case AttributeKind::number:
        if (is_small_number(attribute.value)) {
          value = std::string(attribute.value);
        }
        break;
      case AttributeKind::text:
        value = std::string(attribute.value);
        break;
    }
    if (!value) {
      continue;
    }
    out.append(" ").append(name).append("=\"");
    append_escaped(out, *value, k_escape_attribute);
    out += '"';
  }
  if (tag == GUMBO_TAG_A) {
    out.append(" rel=\"").append(k_link_rel).append("\"");
  }
  out += '>';
}

std::string sanitize_parsed(std::string_view html, std::string_view base_url) {
  Document document = parse(html);
  const GumboNode* root = document->root;
  if (!has_markup(html)) {
    return plain_text_to_html(root);
  }
  Writer writer(base_url);
  if (const GumboNode* body = find_child(root, GUMBO_TAG_BODY)) {
    writer.write_children(body, 0);
  }
  return writer.take();
}

} // namespace internal

std::string sanitize(std::string_view html, std::string_view base_url) {
  if (std::optional<std::string> sanitized = internal::sanitize_well_formed(html, base_url)) {
    return std::move(*sanitized);
  }
  return internal::sanitize_parsed(html, base_url);
}

std::string internal::plain_text_parsed(std::string_view html, std::size_t max_chars) {
  internal::Document document = internal::parse(html);
  return shortened(collect_text(document->root), max_chars);
}

std::string plain_text(std::string_view html, std::size_t max_chars) {
  if (std::optional<std::string> text = internal::text_well_formed(html)) {
    return shortened(*text, max_chars);
  }
  return internal::plain_text_parsed(html, max_chars);
}

std::vector<std::string> find_feed_links(std::string_view html, std::string_view base_url) {
  internal::Document document = internal::parse(html);
  std::vector<std::string> links;
  std::vector<const GumboNode*> stack = {document->root};
  while (!stack.empty() && links.size() < k_max_feed_links) {
    const GumboNode* node = stack.back();
    stack.pop_back();
    if (node->type != GUMBO_NODE_ELEMENT && node->type != GUMBO_NODE_TEMPLATE) {
      continue;
    }
    const GumboElement& element = node->v.element;
    for (unsigned int i = element.children.length; i > 0; --i) {
      stack.push_back(static_cast<const GumboNode*>(element.children.data[i - 1]));
    }
    if (element.tag != GUMBO_TAG_LINK || !is_html_element(node)) {
      continue;
    }
    const GumboAttribute* rel = gumbo_get_attribute(&element.attributes, "rel");
    const GumboAttribute* type = gumbo_get_attribute(&element.attributes, "type");
    const GumboAttribute* href = gumbo_get_attribute(&element.attributes, "href");
    if (rel == nullptr || type == nullptr || href == nullptr) {
      continue;
    }
    std::string rel_words = core::ascii_lower(rel->value);
    std::replace_if(rel_words.begin(), rel_words.end(), is_ascii_space, ' ');
    std::string media_type = core::ascii_lower(type->value);
    std::string_view essence = core::trim(
        std::string_view(media_type).substr(0, media_type.find(';')), core::k_html_space);
    if (!has_token(rel_words, "alternate") ||
        (essence != "application/rss+xml" && essence != "application/atom+xml")) {
      continue;
    }
    auto url = net::parse_url(net::resolve(base_url, href->value));
    if (!url || (url->scheme != "http" && url->scheme != "https")) {
      continue;
    }
    std::string absolute = net::to_string(*url);
    if (std::find(links.begin(), links.end(), absolute) == links.end()) {
      links.push_back(std::move(absolute));
    }
  }
  return links;
}

} // namespace podcrawl::html

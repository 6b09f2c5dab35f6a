// Sanitizing, and reading the text of, HTML without the HTML parser, for the show notes most
// feeds carry: paragraphs, lists, links and emphasis, every element closed where it was opened. For
// such input the parser's tree is the tags as written, so writing the allowlisted tags while
// reading gives the same result as parsing and walking the tree. Whatever could make the parser
// build something else (an implicit close, a reopened formatting element, a reference it reads
// leniently, a character it rewrites) makes this reading give up, and sanitize() parses instead.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "html_internal.hpp"
#include "podcrawl/core/ascii.hpp"
#include "podcrawl/core/text.hpp"
#include "podcrawl/html/character_reference.hpp"
#include "podcrawl/html/escape.hpp"
#include "podcrawl/html/sanitize.hpp"

namespace podcrawl::html::internal {
namespace {

constexpr std::size_t k_max_name_length = 16;

// Space inside a tag; carriage return and form feed are left to the parser.
bool is_tag_space(char c) {
  return c == ' ' || c == '\t' || c == '\n';
}

bool is_block_level(Placement placement) {
  return placement != Placement::phrasing && placement != Placement::formatting &&
         placement != Placement::anchor;
}

bool separates_words(GumboTag tag) {
  return contains(k_block_tags, tag);
}

// True for a code point the HTML parser reads as itself without a report: not NUL, carriage
// return or another control (tab, line feed and form feed aside), not a surrogate, a
// noncharacter or a byte order mark.
bool is_literal_code_point(char32_t code) {
  bool noncharacter = (code >= 0xfdd0 && code <= 0xfdef) || (code & 0xfffeu) == 0xfffeu;
  if (code < 0x80) {
    return (code >= 0x20 && code != 0x7f) || code == '\t' || code == '\n' || code == '\f';
  }
  return code > 0x9f && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) && !noncharacter &&
         code != 0xfeff;
}

// The length of the character at text[at] when it is well-formed UTF-8 and a literal code
// point, else 0.
std::size_t literal_character_length(std::string_view text, std::size_t at) {
  auto byte = static_cast<unsigned char>(text[at]);
  if (byte < 0x80) {
    return is_literal_code_point(byte) ? 1 : 0;
  }
  auto [code, length] = core::decode_utf8(text, at);
  return length != 0 && is_literal_code_point(code) ? length : 0;
}

// What the reader writes: the sanitized HTML, or the text as the parser's tree holds it.
enum class Output { html, text };

class WellFormedReader {
public:
  WellFormedReader(std::string_view html, std::string_view base_url, Output output)
      : m_html(html), m_base_url(base_url), m_output(output) {}

  std::optional<std::string> run() {
    if (m_html.size() > k_max_input_bytes) {
      return std::nullopt;
    }
    // Without a '<' there is no tag or comment (any other '<' gives up): the text is written
    // as plain text, line breaks kept.
    m_plain = m_output == Output::text || m_html.find('<') == std::string_view::npos;
    while (m_at < m_html.size()) {
      bool read = m_html[m_at] == '<' ? read_markup() : read_text();
      if (!read) {
        return std::nullopt;
      }
    }
    if (m_output == Output::text) {
      // An element left open ends with the input: a block one still separates what follows.
      m_out.append(static_cast<std::size_t>(std::count_if(
                       m_open.begin(), m_open.end(),
                       [](const WellFormedElement* open) { return separates_words(open->tag); })),
                   ' ');
      return std::move(m_out);
    }
    if (m_plain) {
      return text_to_html(core::trim(m_out, core::k_html_space));
    }
    for (auto open = m_open.rbegin(); open != m_open.rend(); ++open) {
      m_out.append("</").append((*open)->name).append(">");
    }
    return std::string(core::trim(m_out, core::k_html_space));
  }

private:
  // Append the text from m_at up to the next '<' to m_out, references decoded (and escaped
  // unless the input is plain text).
  bool read_text() {
    while (m_at < m_html.size() && m_html[m_at] != '<') {
      if (m_html[m_at] == '&') {
        if (!read_reference(m_at, m_scratch)) {
          return false;
        }
        if (m_plain) {
          m_out += m_scratch;
        } else {
          append_escaped(m_out, m_scratch, k_escape_html_text);
        }
        continue;
      }
      std::size_t length = plain_ascii_run(m_at);
      if (length == 0) {
        length = literal_character_length(m_html, m_at);
        if (length == 0) {
          return false;
        }
      }
      m_out.append(m_html.substr(m_at, length));
      m_at += length;
    }
    return true;
  }

  // The length of the run from `at` of ASCII characters read as themselves in text.
  std::size_t plain_ascii_run(std::size_t at) const {
    std::size_t end = at;
    while (end < m_html.size()) {
      char c = m_html[end];
      bool plain = (c >= 0x20 && c < 0x7f && c != '<' && c != '&') || c == '\n' || c == '\t';
      if (!plain) {
        break;
      }
      ++end;
    }
    return end - at;
  }

  // Read the '&' at `at` into `decoded` (replacing what is there) and move `at` past it: an
  // '&' that starts no reference is itself; a reference must be one of
  // k_well_formed_references or a numeric one for a literal code point other than a form feed,
  // each with its semicolon.
  bool read_reference(std::size_t& at, std::string& decoded) const {
    decoded.clear();
    std::size_t start = at + 1;
    if (start == m_html.size() || (!core::is_ascii_alnum(m_html[start]) && m_html[start] != '#')) {
      decoded += '&';
      ++at;
      return true;
    }
    constexpr ReferenceRules k_rules{.names = k_well_formed_references,
                                     .max_digits = k_max_reference_digits};
    const std::optional<CharacterReference> reference =
        read_character_reference(m_html, at, k_rules);
    if (!reference) {
      return false;
    }
    if (reference->number) {
      const char32_t code = *reference->number;
      if (!is_literal_code_point(code) || code == '\f') {
        return false;
      }
      core::append_utf8(decoded, code);
    } else {
      for (const char32_t code : reference->characters) {
        core::append_utf8(decoded, code);
      }
    }
    at += reference->length;
    return true;
  }

  bool read_markup() {
    std::size_t next = m_at + 1;
    if (next < m_html.size() && m_html[next] == '!') {
      return read_comment();
    }
    if (next < m_html.size() && m_html[next] == '/') {
      return read_end_tag();
    }
    return read_start_tag();
  }

  // <!-- ... -->, ending where the parser ends it: at the first "-->", unless "--!>" or the
  // end of the input comes first, or the comment is closed abruptly ("<!-->", "<!--->").
  bool read_comment() {
    std::string_view rest = m_html.substr(m_at);
    if (!rest.starts_with("<!--")) {
      return false;
    }
    std::string_view body = rest.substr(4);
    if (body.starts_with(">") || body.starts_with("->")) {
      return false;
    }
    std::size_t end = body.find("-->");
    std::size_t bang = body.find("--!>");
    if (end == std::string_view::npos || bang < end) {
      return false;
    }
    m_at += 4 + end + 3;
    return true;
  }

  const WellFormedElement* read_name(std::size_t& at) {
    std::size_t start = at;
    while (at < m_html.size() && core::is_ascii_alnum(m_html[at]) &&
           at - start <= k_max_name_length) {
      ++at;
    }
    if (at == start || at - start > k_max_name_length || !core::is_ascii_alpha(m_html[start])) {
      return nullptr;
    }
    std::array<char, k_max_name_length> name{};
    std::transform(m_html.begin() + static_cast<std::ptrdiff_t>(start),
                   m_html.begin() + static_cast<std::ptrdiff_t>(at), name.begin(),
                   [](char c) { return core::ascii_lower(c); });
    std::string_view lowered(name.data(), at - start);
    auto found = std::find_if(k_well_formed_elements.begin(), k_well_formed_elements.end(),
                              [lowered](const WellFormedElement& e) { return e.name == lowered; });
    return found == k_well_formed_elements.end() ? nullptr : &*found;
  }

  bool read_end_tag() {
    std::size_t at = m_at + 2;
    const WellFormedElement* element = read_name(at);
    while (at < m_html.size() && is_tag_space(m_html[at])) {
      ++at;
    }
    if (element == nullptr || at == m_html.size() || m_html[at] != '>' || m_open.empty() ||
        m_open.back() != element) {
      return false;
    }
    m_open.pop_back();
    write_end_tag(*element);
    m_at = at + 1;
    return true;
  }

  bool read_start_tag() {
    std::size_t at = m_at + 1;
    const WellFormedElement* element = read_name(at);
    if (element == nullptr || !read_attributes(at)) {
      return false;
    }
    bool self_closing = m_html[at] == '/';
    at += self_closing ? 2 : 1;
    bool is_void = element->placement == Placement::void_phrasing ||
                   element->placement == Placement::void_block;
    if ((self_closing && !is_void) || !placed_as_written(*element)) {
      return false;
    }
    const TagRule* rule = find_rule(element->tag);
    if (rule == nullptr && is_void) {
      m_at = at; // an element the allowlist drops with nothing inside (an image): no output
      return true;
    }
    if (rule == nullptr) {
      return false;
    }
    write_start_tag(*element, *rule);
    if (is_void) {
      write_end_tag(*element);
    } else {
      if (m_open.size() >= k_max_well_formed_depth) {
        return false;
      }
      m_open.push_back(element);
    }
    m_at = at;
    return true;
  }

  // Read the attributes from `at` up to the tag's "/>" or ">", where `at` is left. Values
  // are decoded into m_values, which is reserved so that m_attributes can point into it.
  bool read_attributes(std::size_t& at) {
    m_attributes.clear();
    m_values.clear();
    m_values.reserve(k_max_well_formed_attributes);
    while (true) {
      bool spaced = false;
      while (at < m_html.size() && is_tag_space(m_html[at])) {
        ++at;
        spaced = true;
      }
      if (at == m_html.size()) {
        return false;
      }
      if (m_html[at] == '>') {
        return true;
      }
      if (m_html[at] == '/') {
        return at + 1 < m_html.size() && m_html[at + 1] == '>';
      }
      if (!spaced || m_attributes.size() == k_max_well_formed_attributes || !read_attribute(at)) {
        return false;
      }
    }
  }

  bool read_attribute(std::size_t& at) {
    std::size_t start = at;
    while (at < m_html.size() && (core::is_ascii_alnum(m_html[at]) || m_html[at] == '-' ||
                                  m_html[at] == '_' || m_html[at] == ':' || m_html[at] == '.')) {
      ++at;
    }
    if (at == start || !core::is_ascii_alpha(m_html[start]) || at - start > k_max_name_length) {
      return false;
    }
    std::array<char, k_max_name_length> name{};
    std::transform(m_html.begin() + static_cast<std::ptrdiff_t>(start),
                   m_html.begin() + static_cast<std::ptrdiff_t>(at), name.begin(),
                   [](char c) { return core::ascii_lower(c); });
    m_names[m_attributes.size()].assign(name.data(), at - start);
    std::string_view lowered = m_names[m_attributes.size()];
    bool duplicate = std::any_of(m_attributes.begin(), m_attributes.end(),
                                 [lowered](const Attribute& seen) { return seen.name == lowered; });
    if (duplicate) {
      return false;
    }
    std::size_t after = at;
    while (after < m_html.size() && is_tag_space(m_html[after])) {
      ++after;
    }
    m_values.emplace_back();
    if (after == m_html.size() || m_html[after] != '=') {
      m_attributes.push_back({lowered, m_values.back()});
      return true;
    }
    at = after + 1;
    while (at < m_html.size() && is_tag_space(m_html[at])) {
      ++at;
    }
    if (at == m_html.size() || !read_value(at, m_values.back())) {
      return false;
    }
    m_attributes.push_back({lowered, m_values.back()});
    return true;
  }

  // A quoted value must be followed by space, "/>" or ">"; an unquoted one holds none of the
  // characters the tokenizer reports there.
  bool read_value(std::size_t& at, std::string& value) {
    char quote = m_html[at];
    bool quoted = quote == '"' || quote == '\'';
    at += quoted ? 1 : 0;
    while (true) {
      if (at == m_html.size()) {
        return false;
      }
      char c = m_html[at];
      if (quoted && c == quote) {
        ++at;
        return at < m_html.size() &&
               (is_tag_space(m_html[at]) || m_html[at] == '>' || m_html[at] == '/');
      }
      if (!quoted && (is_tag_space(c) || c == '>')) {
        return !value.empty();
      }
      // A form feed ends an unquoted value for the tokenizer; this reading leaves it to it.
      if (c == '<' || (!quoted && (c == '"' || c == '\'' || c == '=' || c == '`' || c == '\f'))) {
        return false;
      }
      if (c == '&') {
        if (!read_reference(at, m_scratch)) {
          return false;
        }
        value += m_scratch;
        continue;
      }
      std::size_t length = literal_character_length(m_html, at);
      if (length == 0) {
        return false;
      }
      value.append(m_html.substr(at, length));
      at += length;
    }
  }

  // The text of the parser's tree has a space at the start and the end of each element that
  // separates words.
  void write_start_tag(const WellFormedElement& element, const TagRule& rule) {
    if (m_output == Output::html) {
      append_start_tag(m_out, element.tag, rule, m_attributes, m_base_url);
    } else if (separates_words(element.tag)) {
      m_out += ' ';
    }
  }

  void write_end_tag(const WellFormedElement& element) {
    bool is_void =
        element.placement == Placement::void_phrasing || element.placement == Placement::void_block;
    if (m_output == Output::text) {
      if (separates_words(element.tag)) {
        m_out += ' ';
      }
    } else if (!is_void) {
      m_out.append("</").append(element.name).append(">");
    }
  }

  // True when the parser puts the element where it is written, as a child of the element on
  // top of m_open, without closing anything first.
  bool placed_as_written(const WellFormedElement& element) const {
    auto is_open = [this](std::string_view name) {
      return std::any_of(m_open.begin(), m_open.end(),
                         [name](const WellFormedElement* open) { return open->name == name; });
    };
    switch (element.placement) {
      case Placement::phrasing:
      case Placement::formatting:
      case Placement::void_phrasing:
        return true;
      case Placement::anchor:
        return !is_open("a");
      case Placement::block:
      case Placement::void_block:
        return !is_open("p");
      case Placement::heading:
        return !is_open("p") && (m_open.empty() || m_open.back()->placement != Placement::heading);
      case Placement::list_item:
        return !is_open("p") && !closes_on_the_way({"li"});
      case Placement::definition:
        return !is_open("p") && !closes_on_the_way({"dt", "dd"});
    }
    return false;
  }

  // True when, going down from the top of m_open past phrasing elements, div and p, one of
  // `names` comes before any other block-level element: the parser would close it.
  bool closes_on_the_way(std::initializer_list<std::string_view> names) const {
    for (auto open = m_open.rbegin(); open != m_open.rend(); ++open) {
      std::string_view name = (*open)->name;
      if (std::find(names.begin(), names.end(), name) != names.end()) {
        return true;
      }
      if (is_block_level((*open)->placement) && name != "div" && name != "p") {
        return false;
      }
    }
    return false;
  }

  std::string_view m_html;
  std::string_view m_base_url;
  Output m_output;
  std::size_t m_at = 0;
  bool m_plain = false;
  std::string m_out;
  std::string m_scratch;
  std::vector<const WellFormedElement*> m_open;
  std::array<std::string, k_max_well_formed_attributes> m_names;
  std::vector<std::string> m_values;
  std::vector<Attribute> m_attributes;
};

} // namespace

std::optional<std::string> sanitize_well_formed(std::string_view html, std::string_view base_url) {
  return WellFormedReader(html, base_url, Output::html).run();
}

std::optional<std::string> text_well_formed(std::string_view html) {
  return WellFormedReader(html, {}, Output::text).run();
}

} // namespace podcrawl::html::internal

// The allowlist sanitizer's walk over the parser's tree, and sanitize(), which takes the
// reading of well-formed HTML when it can.
#include "podcrawl/html/sanitize.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "html_internal.hpp"
#include "podcrawl/core/ascii.hpp"
#include "podcrawl/html/escape.hpp"
#include "podcrawl/net/url.hpp"

namespace podcrawl::html::internal {
namespace {

AttributeKind attribute_kind(std::string_view name) {
  for (const auto& rule : k_attribute_rules) {
    if (rule.name == name) {
      return rule.kind;
    }
  }
  return AttributeKind::text;
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
    return (byte < 0x20 && !is_html_space(c)) || byte == 0x7F;
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
  return !value.empty() && value.size() <= k_max_number_digits &&
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
      if (contains(k_block_tags, element.tag)) {
        m_out += '\n';
      }
      return;
    }
    write_open_tag(element, *rule);
    if (!contains(k_void_tags, element.tag)) {
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
    append_start_tag(m_out, element.tag, rule, m_attributes, m_base_url);
  }

  std::string_view m_base_url;
  std::string m_out;
  std::vector<Attribute> m_attributes;
};

std::string plain_text_to_html(const GumboNode* root) {
  return text_to_html(core::trim(collect_text(root), core::k_html_space));
}

} // namespace

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

} // namespace podcrawl::html::internal

namespace podcrawl::html {

std::string sanitize(std::string_view html, std::string_view base_url) {
  if (std::optional<std::string> sanitized = internal::sanitize_well_formed(html, base_url)) {
    return std::move(*sanitized);
  }
  return internal::sanitize_parsed(html, base_url);
}

} // namespace podcrawl::html

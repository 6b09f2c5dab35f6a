// HTML of any shape, after one byte that sets the summary length. sanitize must not crash,
// and what it returns, parsed again the way a browser would, holds only allowlisted HTML
// elements, no event handler or style attributes and only http(s)/mailto URLs. When the
// reading without the parser accepts the input, it gives what the parser's path gives.
// plain_text returns at most the code points asked for.
#include <gumbo.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "podcrawl/html/sanitize.hpp"
#include "sanitize_internal.hpp"

namespace {

constexpr std::string_view k_base = "https://example.com/show/episode-1";

struct GumboOutputDeleter {
  void operator()(GumboOutput* output) const {
    gumbo_destroy_output(&kGumboDefaultOptions, output);
  }
};

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](char c) {
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  });
  return out;
}

std::size_t count_code_points(std::string_view utf8) {
  return static_cast<std::size_t>(std::count_if(utf8.begin(), utf8.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

bool is_safe_attribute(std::string_view name, std::string_view value) {
  if (name.starts_with("on") || name == "style" || name == "srcdoc" || name == "formaction" ||
      name == "action" || name == "data" || name == "background") {
    return false;
  }
  if (name == "href" || name == "src" || name == "cite") {
    return value.starts_with("http://") || value.starts_with("https://") ||
           value.starts_with("mailto:");
  }
  return true;
}

// True when the HTML, parsed as a browser would, carries no active content.
bool is_inert(const std::string& html) {
  static const std::set<std::string, std::less<>> k_allowed_tags = {
      "html", "head", "body",  "p",     "br",    "a",     "b",          "strong", "i",
      "em",   "u",    "s",     "ul",    "ol",    "li",    "blockquote", "code",   "pre",
      "h1",   "h2",   "h3",    "h4",    "h5",    "h6",    "img",        "figure", "figcaption",
      "span", "div",  "hr",    "table", "thead", "tbody", "tr",         "th",     "td",
      "sup",  "sub",  "small", "abbr",  "cite",  "q",     "dl",         "dt",     "dd"};
  std::unique_ptr<GumboOutput, GumboOutputDeleter> document(
      gumbo_parse_with_options(&kGumboDefaultOptions, html.data(), html.size()));
  std::vector<const GumboNode*> stack = {document->root};
  while (!stack.empty()) {
    const GumboNode* node = stack.back();
    stack.pop_back();
    if (node->type != GUMBO_NODE_ELEMENT && node->type != GUMBO_NODE_TEMPLATE) {
      continue;
    }
    const GumboElement& element = node->v.element;
    if (element.tag_namespace != GUMBO_NAMESPACE_HTML || element.tag == GUMBO_TAG_UNKNOWN ||
        !k_allowed_tags.contains(std::string_view(gumbo_normalized_tagname(element.tag)))) {
      return false;
    }
    for (unsigned int i = 0; i < element.attributes.length; ++i) {
      const auto* attribute = static_cast<const GumboAttribute*>(element.attributes.data[i]);
      if (!is_safe_attribute(lower(attribute->name), lower(attribute->value))) {
        return false;
      }
    }
    for (unsigned int i = 0; i < element.children.length; ++i) {
      stack.push_back(static_cast<const GumboNode*>(element.children.data[i]));
    }
  }
  return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) {
    return 0;
  }
  std::size_t max_chars = data[0];
  std::string html(reinterpret_cast<const char*>(data) + 1, size - 1);

  std::string sanitized = podcrawl::html::sanitize(html, k_base);
  if (!is_inert(sanitized)) {
    __builtin_trap();
  }
  if (auto read = podcrawl::html::internal::sanitize_well_formed(html, k_base);
      read && *read != podcrawl::html::internal::sanitize_parsed(html, k_base)) {
    __builtin_trap();
  }
  std::string text = podcrawl::html::plain_text(html, max_chars);
  if (count_code_points(text) > max_chars) {
    __builtin_trap();
  }
  return 0;
}

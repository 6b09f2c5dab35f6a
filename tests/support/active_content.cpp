#include "active_content.hpp"

#include <gumbo.h>

#include <algorithm>
#include <memory>
#include <set>

namespace podcrawl::testing {
namespace {

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

bool is_script_attribute(const std::string& name) {
  return name.starts_with("on") || name == "style" || name == "srcdoc" || name == "formaction" ||
         name == "action" || name == "data" || name == "background";
}

bool is_safe_url(const std::string& value) {
  return value.starts_with("http://") || value.starts_with("https://") ||
         value.starts_with("mailto:");
}

} // namespace

std::vector<std::string> active_content(std::string_view html) {
  static const std::set<std::string, std::less<>> k_allowed_tags = {
      "html", "head", "body",  "p",     "br",    "a",     "b",          "strong", "i",
      "em",   "u",    "s",     "ul",    "ol",    "li",    "blockquote", "code",   "pre",
      "h1",   "h2",   "h3",    "h4",    "h5",    "h6",    "img",        "figure", "figcaption",
      "span", "div",  "hr",    "table", "thead", "tbody", "tr",         "th",     "td",
      "sup",  "sub",  "small", "abbr",  "cite",  "q",     "dl",         "dt",     "dd"};
  std::vector<std::string> problems;
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
    std::string tag = element.tag == GUMBO_TAG_UNKNOWN ? std::string("unknown")
                                                       : gumbo_normalized_tagname(element.tag);
    if (element.tag_namespace != GUMBO_NAMESPACE_HTML || !k_allowed_tags.contains(tag)) {
      problems.push_back("element <" + tag + ">");
    }
    for (unsigned int i = 0; i < element.attributes.length; ++i) {
      const auto* attribute = static_cast<const GumboAttribute*>(element.attributes.data[i]);
      std::string name = lower(attribute->name);
      std::string value = lower(attribute->value);
      if (is_script_attribute(name)) {
        problems.push_back("attribute " + name);
      }
      if ((name == "href" || name == "src" || name == "cite") && !is_safe_url(value)) {
        problems.push_back("url " + name + "=" + value);
      }
    }
    for (unsigned int i = 0; i < element.children.length; ++i) {
      stack.push_back(static_cast<const GumboNode*>(element.children.data[i]));
    }
  }
  return problems;
}

} // namespace podcrawl::testing

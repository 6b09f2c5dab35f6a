// What the sanitizer, plain text and feed-link discovery read from the parser's tree.
#include <string>
#include <vector>

#include "html_internal.hpp"

namespace podcrawl::html::internal {

bool is_html_element(const GumboNode* node) {
  return (node->type == GUMBO_NODE_ELEMENT || node->type == GUMBO_NODE_TEMPLATE) &&
         node->v.element.tag_namespace == GUMBO_NAMESPACE_HTML;
}

bool is_dropped_with_content(const GumboNode* node) {
  if (node->type != GUMBO_NODE_ELEMENT && node->type != GUMBO_NODE_TEMPLATE) {
    return false;
  }
  return !is_html_element(node) || contains(k_dropped_with_content, node->v.element.tag);
}

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
    if (contains(k_block_tags, node->v.element.tag)) {
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

} // namespace podcrawl::html::internal

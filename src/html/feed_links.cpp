// The feeds an HTML page advertises in its <link rel="alternate"> elements.
#include "podcrawl/html/feed_links.hpp"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "html_internal.hpp"
#include "podcrawl/core/ascii.hpp"
#include "podcrawl/net/url.hpp"

namespace podcrawl::html {

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
    if (element.tag != GUMBO_TAG_LINK || !internal::is_html_element(node)) {
      continue;
    }
    const GumboAttribute* rel = gumbo_get_attribute(&element.attributes, "rel");
    const GumboAttribute* type = gumbo_get_attribute(&element.attributes, "type");
    const GumboAttribute* href = gumbo_get_attribute(&element.attributes, "href");
    if (rel == nullptr || type == nullptr || href == nullptr) {
      continue;
    }
    std::string rel_words = core::ascii_lower(rel->value);
    std::replace_if(rel_words.begin(), rel_words.end(), internal::is_html_space, ' ');
    std::string media_type = core::ascii_lower(type->value);
    std::string_view essence = core::trim(
        std::string_view(media_type).substr(0, media_type.find(';')), core::k_html_space);
    if (!internal::has_token(rel_words, "alternate") ||
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

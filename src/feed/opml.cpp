#include "podcrawl/feed/opml.hpp"

#include "podcrawl/html/escape.hpp"

#include <libxml/tree.h>

#include "charset_internal.hpp"
#include "podcrawl/core/error.hpp"
#include "recovery_internal.hpp"
#include "text_internal.hpp"
#include "xml_internal.hpp"

namespace podcrawl::feed {
namespace {

using internal::attribute;
using internal::clean_line;
using internal::iequals;
using internal::local_name;

// Most outlines read from one OPML document.
constexpr std::size_t k_max_opml_entries = 100000;
// Deepest outline nesting followed.
constexpr int k_max_opml_depth = 64;

void collect_outlines(const xmlNode* parent, int depth, std::vector<OpmlEntry>& entries) {
  if (depth > k_max_opml_depth) {
    return;
  }
  for (const xmlNode* node = parent->children; node != nullptr; node = node->next) {
    if (node->type != XML_ELEMENT_NODE || !iequals(local_name(node), "outline")) {
      continue;
    }
    if (entries.size() >= k_max_opml_entries) {
      return;
    }
    std::string url = clean_line(attribute(node, "xmlUrl"));
    if (!url.empty()) {
      std::string title = clean_line(attribute(node, "text"));
      entries.push_back({url, title.empty() ? clean_line(attribute(node, "title")) : title});
    }
    collect_outlines(node, depth + 1, entries);
  }
}

// Escape for an XML attribute value or text; control characters other than tab and line
// breaks cannot appear in XML 1.0 and are dropped (clean_line removes them already).
std::string escape_xml(std::string_view text) {
  return html::escaped(clean_line(text), html::k_escape_xml);
}

} // namespace

std::vector<OpmlEntry> parse_opml(std::string_view bytes) {
  std::string markup = internal::repair_markup(internal::decode_document(std::string(bytes), ""));
  internal::XmlDocument document = internal::read_xml(markup);
  const xmlNode* root = document ? xmlDocGetRootElement(document.get()) : nullptr;
  if (root == nullptr || !iequals(local_name(root), "opml")) {
    throw core::UsageError("not an OPML document: its root element is not <opml>");
  }
  std::vector<OpmlEntry> entries;
  for (const xmlNode* child = root->children; child != nullptr; child = child->next) {
    if (child->type == XML_ELEMENT_NODE && iequals(local_name(child), "body")) {
      collect_outlines(child, 0, entries);
    }
  }
  return entries;
}

std::string write_opml(const std::vector<OpmlEntry>& entries, std::string_view title) {
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\">\n";
  out += "  <head>\n    <title>" + escape_xml(title) + "</title>\n  </head>\n  <body>\n";
  for (const OpmlEntry& entry : entries) {
    std::string text = escape_xml(entry.title.empty() ? entry.url : entry.title);
    out += "    <outline type=\"rss\" text=\"" + text + "\"";
    if (!entry.title.empty()) {
      out += " title=\"" + text + "\"";
    }
    out += " xmlUrl=\"" + escape_xml(entry.url) + "\"/>\n";
  }
  out += "  </body>\n</opml>\n";
  return out;
}

} // namespace podcrawl::feed

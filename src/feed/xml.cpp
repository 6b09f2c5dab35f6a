#include <libxml/parser.h>
#include <libxml/xmlIO.h>

#include <array>
#include <mutex>
#include <vector>

#include "podcrawl/net/url.hpp"
#include "text_internal.hpp"
#include "xml_internal.hpp"

namespace podcrawl::feed::internal {
namespace {

struct ParserContextFree {
  void operator()(xmlParserCtxt* context) const { xmlFreeParserCtxt(context); }
};
struct XmlCharFree {
  void operator()(xmlChar* text) const { xmlFree(text); }
};
struct XmlBufferFree {
  void operator()(xmlBuffer* buffer) const { xmlBufferFree(buffer); }
};

// Recover from errors, stay off the network, stay quiet. Deliberately absent:
// XML_PARSE_NOENT (entity substitution), XML_PARSE_DTDLOAD, XML_PARSE_DTDATTR and
// XML_PARSE_HUGE, so libxml2 keeps its own depth and size limits.
constexpr int k_parse_options = XML_PARSE_RECOVER | XML_PARSE_NONET | XML_PARSE_NOWARNING |
                                XML_PARSE_NOERROR | XML_PARSE_COMPACT;

xmlParserInputPtr refuse_external_entity(const char* /*url*/, const char* /*id*/,
                                         xmlParserCtxtPtr /*context*/) {
  return nullptr;
}

void initialize_libxml2() {
  static std::once_flag once;
  std::call_once(once, [] {
    xmlInitParser();
    xmlSetExternalEntityLoader(refuse_external_entity);
  });
}

struct NamespaceSpelling {
  std::string_view uri; // lower case, without trailing slash
  Vocabulary vocabulary;
  bool prefix_match; // true when any URI starting with `uri` matches
};

constexpr std::array<NamespaceSpelling, 20> k_namespaces = {{
    {"http://www.itunes.com/dtds/podcast-1.0.dtd", Vocabulary::itunes, false},
    {"https://www.itunes.com/dtds/podcast-1.0.dtd", Vocabulary::itunes, false},
    {"http://www.itunes.com/dtds/podcast-1.0", Vocabulary::itunes, false},
    {"https://podcastindex.org/namespace/1.0", Vocabulary::podcast, false},
    {"http://podcastindex.org/namespace/1.0", Vocabulary::podcast, false},
    {"https://github.com/podcastindex-org/podcast-namespace", Vocabulary::podcast, true},
    {"http://github.com/podcastindex-org/podcast-namespace", Vocabulary::podcast, true},
    {"http://purl.org/rss/1.0/modules/content", Vocabulary::content, false},
    {"http://purl.org/dc/elements/1.1", Vocabulary::dublin_core, false},
    {"http://purl.org/dc/terms", Vocabulary::dublin_core_terms, false},
    {"http://search.yahoo.com/mrss", Vocabulary::media, false},
    {"http://www.google.com/schemas/play-podcasts/1.0", Vocabulary::google_play, false},
    {"http://www.w3.org/1999/02/22-rdf-syntax-ns#", Vocabulary::rdf, false},
    {"http://www.w3.org/2005/atom", Vocabulary::core, false},
    {"http://purl.org/atom/ns#", Vocabulary::core, false},
    {"http://purl.org/rss/1.0", Vocabulary::core, false},
    {"http://my.netscape.com/rdf/simple/0.9", Vocabulary::core, false},
    {"http://backend.userland.com/rss2", Vocabulary::core, false},
    {"http://backend.userland.com/rss", Vocabulary::core, false},
    {"http://blogs.law.harvard.edu/tech/rss", Vocabulary::core, false},
}};

struct PrefixSpelling {
  std::string_view prefix;
  Vocabulary vocabulary;
};

// Prefixes feeds use without declaring them.
constexpr std::array<PrefixSpelling, 8> k_conventional_prefixes = {{
    {"itunes", Vocabulary::itunes},
    {"podcast", Vocabulary::podcast},
    {"content", Vocabulary::content},
    {"dc", Vocabulary::dublin_core},
    {"dcterms", Vocabulary::dublin_core_terms},
    {"media", Vocabulary::media},
    {"googleplay", Vocabulary::google_play},
    {"atom", Vocabulary::core},
}};

// True when a CDATA section of the markup is longer than k_max_streamed_cdata_bytes.
bool has_long_cdata(std::string_view markup) {
  constexpr std::string_view k_open = "<![CDATA[";
  for (std::size_t at = markup.find(k_open); at != std::string_view::npos;
       at = markup.find(k_open, at)) {
    at += k_open.size();
    std::size_t end = markup.find("]]>", at);
    if (end == std::string_view::npos) {
      end = markup.size();
    }
    if (end - at > k_max_streamed_cdata_bytes) {
      return true;
    }
    at = end;
  }
  return false;
}

void count_fatal_error(void* count, xmlError* error) {
  if (error != nullptr && error->level == XML_ERR_FATAL) {
    ++*static_cast<int*>(count);
  }
}

std::string_view view(const xmlChar* text) {
  return text == nullptr ? std::string_view()
                         : std::string_view(reinterpret_cast<const char*>(text));
}

std::string take(xmlChar* text) {
  std::unique_ptr<xmlChar, XmlCharFree> owner(text);
  return std::string(view(owner.get()));
}

} // namespace

Vocabulary vocabulary_of_namespace(std::string_view uri) {
  std::string lowered = ascii_lower(trim(uri));
  while (!lowered.empty() && lowered.back() == '/') {
    lowered.pop_back();
  }
  if (lowered.empty()) {
    return Vocabulary::core;
  }
  for (const NamespaceSpelling& spelling : k_namespaces) {
    if (spelling.prefix_match ? std::string_view(lowered).starts_with(spelling.uri)
                              : lowered == spelling.uri) {
      return spelling.vocabulary;
    }
  }
  return Vocabulary::other;
}

XmlDocument read_xml(std::string_view utf8) {
  initialize_libxml2();
  std::unique_ptr<xmlParserCtxt, ParserContextFree> context(xmlNewParserCtxt());
  if (!context) {
    return nullptr;
  }
  return XmlDocument(xmlCtxtReadMemory(context.get(), utf8.data(), static_cast<int>(utf8.size()),
                                       nullptr, "UTF-8", k_parse_options));
}

XmlStream XmlStream::stream(std::string_view utf8) {
  if (has_long_cdata(utf8)) {
    return walk(utf8);
  }
  initialize_libxml2();
  XmlStream stream;
  stream.m_streaming = true;
  stream.m_reader.reset(xmlReaderForMemory(utf8.data(), static_cast<int>(utf8.size()), nullptr,
                                           "UTF-8", k_parse_options));
  if (stream.m_reader) {
    xmlTextReaderSetStructuredErrorHandler(stream.m_reader.get(), count_fatal_error,
                                           stream.m_fatal_errors.get());
  }
  return stream;
}

XmlStream XmlStream::walk(std::string_view utf8) {
  XmlStream stream;
  stream.m_document = read_xml(utf8);
  if (stream.m_document) {
    stream.m_reader.reset(xmlReaderWalker(stream.m_document.get()));
  }
  return stream;
}

Vocabulary vocabulary(const xmlNode* node) {
  if (node->ns != nullptr) {
    Vocabulary known = vocabulary_of_namespace(view(node->ns->href));
    if (known != Vocabulary::other) {
      return known;
    }
    // Elements in the root's own namespace are the feed format's, whatever its URI.
    const xmlNode* root = node->doc != nullptr ? xmlDocGetRootElement(node->doc) : nullptr;
    bool in_root_namespace =
        root != nullptr && root->ns != nullptr && view(root->ns->href) == view(node->ns->href);
    return in_root_namespace ? Vocabulary::core : Vocabulary::other;
  }
  std::string_view name = view(node->name);
  std::size_t colon = name.find(':');
  if (colon == std::string_view::npos) {
    return Vocabulary::core;
  }
  std::string prefix = ascii_lower(name.substr(0, colon));
  for (const PrefixSpelling& spelling : k_conventional_prefixes) {
    if (prefix == spelling.prefix) {
      return spelling.vocabulary;
    }
  }
  return Vocabulary::other;
}

std::string_view local_name(const xmlNode* node) {
  std::string_view name = view(node->name);
  if (node->ns == nullptr) {
    std::size_t colon = name.find(':');
    if (colon != std::string_view::npos) {
      name.remove_prefix(colon + 1);
    }
  }
  return name;
}

bool is_element(const xmlNode* node, Vocabulary expected, std::string_view name) {
  return node != nullptr && node->type == XML_ELEMENT_NODE && local_name(node) == name &&
         vocabulary(node) == expected;
}

std::string text_of(const xmlNode* node) {
  return take(xmlNodeGetContent(node));
}

std::string markup_of(const xmlNode* node) {
  bool has_elements = false;
  for (const xmlNode* child = node->children; child != nullptr; child = child->next) {
    has_elements = has_elements || child->type == XML_ELEMENT_NODE;
  }
  if (!has_elements) {
    return text_of(node);
  }
  std::unique_ptr<xmlBuffer, XmlBufferFree> buffer(xmlBufferCreate());
  if (!buffer) {
    return {};
  }
  for (xmlNode* child = node->children; child != nullptr; child = child->next) {
    xmlNodeDump(buffer.get(), node->doc, child, 0, 0);
  }
  return std::string(view(xmlBufferContent(buffer.get())));
}

std::string attribute(const xmlNode* node, std::string_view name) {
  const xmlAttr* namespaced = nullptr;
  for (const xmlAttr* attr = node->properties; attr != nullptr; attr = attr->next) {
    if (!iequals(view(attr->name), name)) {
      continue;
    }
    if (attr->ns == nullptr) {
      return take(xmlNodeListGetString(node->doc, attr->children, 1));
    }
    namespaced = namespaced == nullptr ? attr : namespaced;
  }
  return namespaced == nullptr ? std::string()
                               : take(xmlNodeListGetString(node->doc, namespaced->children, 1));
}

std::string child_text(const xmlNode* node, Vocabulary expected, std::string_view name) {
  for (const xmlNode* child = node->children; child != nullptr; child = child->next) {
    if (is_element(child, expected, name)) {
      return text_of(child);
    }
  }
  return {};
}

std::string base_of(const xmlNode* node, std::string_view document_url) {
  std::vector<std::string> bases;
  for (const xmlNode* at = node; at != nullptr && at->type == XML_ELEMENT_NODE; at = at->parent) {
    std::unique_ptr<xmlChar, XmlCharFree> base(
        xmlGetNsProp(at, reinterpret_cast<const xmlChar*>("base"), XML_XML_NAMESPACE));
    if (base) {
      bases.emplace_back(view(base.get()));
    }
  }
  std::string resolved(document_url);
  for (auto it = bases.rbegin(); it != bases.rend(); ++it) {
    resolved = net::resolve(resolved, *it);
  }
  return resolved;
}

} // namespace podcrawl::feed::internal

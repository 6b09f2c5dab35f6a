#pragma once

#include <libxml/tree.h>
#include <libxml/xmlreader.h>

#include <memory>
#include <string>
#include <string_view>

namespace podcrawl::feed::internal {

struct XmlDocumentFree {
  void operator()(xmlDoc* document) const { xmlFreeDoc(document); }
};
using XmlDocument = std::unique_ptr<xmlDoc, XmlDocumentFree>;

struct XmlReaderFree {
  void operator()(xmlTextReader* reader) const { xmlFreeTextReader(reader); }
};
using XmlReader = std::unique_ptr<xmlTextReader, XmlReaderFree>;

// The vocabularies the parser reads. `core` is RSS (any version, with or without its
// namespace) and Atom (1.0 and 0.3): their element names do not clash in meaning.
enum class Vocabulary {
  core,
  itunes,
  podcast,
  content,
  dublin_core,
  dublin_core_terms,
  media,
  google_play,
  rdf,
  other,
};

// Return the vocabulary of a namespace URI, matched the way real feeds spell them (case
// variants of the iTunes DTD URI, http and https, the podcast namespace's GitHub URLs).
Vocabulary vocabulary_of_namespace(std::string_view uri);

// Parse prepared UTF-8 markup (see repair_markup) with libxml2 in recovery mode: no network,
// no DTD loading, no entity substitution, and an external entity loader that refuses every
// request. Returns null when libxml2 produced no document at all.
XmlDocument read_xml(std::string_view utf8);

// A reader over prepared markup (see repair_markup), parsed as read_xml parses it. Read as a
// stream, the reader keeps the ancestors of the node it is on and frees what it has passed;
// a walk reads a tree parsed whole beforehand, the way read_xml gives it.
class XmlStream {
public:
  // Stream `utf8`, unless a CDATA section is longer than k_max_streamed_cdata_bytes (libxml2
  // streams CDATA in small blocks appended one by one, a cost that grows with the square of
  // the section), in which case it is walked. `utf8` must outlive the stream.
  static XmlStream stream(std::string_view utf8);
  // Walk a tree parsed whole from `utf8`.
  static XmlStream walk(std::string_view utf8);

  // Null when libxml2 could not start.
  xmlTextReader* reader() const { return m_reader.get(); }
  // False for a walk.
  bool is_streaming() const { return m_streaming; }
  // True when a stream met a well-formedness error: libxml2 recovers from those differently
  // when streaming than when parsing whole, so what was read should be read again by a walk.
  bool needs_walk() const { return m_streaming && *m_fatal_errors > 0; }

private:
  bool m_streaming = false;
  // Counted by the reader's error handler, which keeps this address while the stream moves.
  std::unique_ptr<int> m_fatal_errors = std::make_unique<int>(0);
  XmlDocument m_document; // a walk's tree; outlives m_reader
  XmlReader m_reader;
};

inline constexpr std::size_t k_max_streamed_cdata_bytes = 64 * 1024;

// The element's vocabulary: from its namespace, else from a conventional prefix written
// without a declaration ("itunes:duration" in a feed that never declares itunes), else core.
Vocabulary vocabulary(const xmlNode* node);

// The element's local name, without any undeclared prefix.
std::string_view local_name(const xmlNode* node);

// True when the node is an element of the vocabulary with that local name.
bool is_element(const xmlNode* node, Vocabulary expected, std::string_view name);

// The concatenated text of the node and its descendants.
std::string text_of(const xmlNode* node);

// The node's children serialized as markup when it has element children, else its text.
std::string markup_of(const xmlNode* node);

// The value of an attribute without namespace (or, failing that, with any namespace) whose
// name matches ignoring ASCII case; empty when absent.
std::string attribute(const xmlNode* node, std::string_view name);

// The text of the first child element with that local name in the vocabulary; empty if none.
std::string child_text(const xmlNode* node, Vocabulary expected, std::string_view name);

// The xml:base chain of the node applied to the document URL, giving the base for its
// relative references.
std::string base_of(const xmlNode* node, std::string_view document_url);

} // namespace podcrawl::feed::internal

#include "podcrawl/feed/parser.hpp"

#include <libxml/tree.h>

#include <algorithm>
#include <array>
#include <deque>
#include <optional>
#include <unordered_set>
#include <utility>

#include "charset_internal.hpp"
#include "detect_internal.hpp"
#include "draft_internal.hpp"
#include "extensions_internal.hpp"
#include "podcrawl/html/escape.hpp"
#include "podcrawl/net/url.hpp"
#include "recovery_internal.hpp"
#include "text_internal.hpp"
#include "xml_internal.hpp"

namespace podcrawl::feed {
namespace {

using internal::Draft;
using internal::Field;
using internal::k_max_candidates;
using internal::Vocabulary;

using internal::ascii_lower;
using internal::attribute;
using internal::base_of;
using internal::child_text;
using internal::clean_line;
using internal::is_element;
using internal::local_name;
using internal::text_of;
using internal::trim;
using internal::vocabulary;

// Most episodes read from one document; the rest of a longer feed is ignored.
constexpr std::size_t k_max_episodes = 10000;

// How an element gives its value.
enum class Read {
  text,       // its text
  markup,     // its children as HTML (Atom type="text" escaped first)
  href,       // its href attribute
  url,        // its url attribute
  url_child,  // the text of its <url> child (RSS <image>)
  name_child, // the text of its <name> child, else its text (Atom <author>, <itunes:owner>)
};

struct Rule {
  Vocabulary vocabulary;
  std::string_view name;
  Field field;
  int rank;
  Read read;
};

using enum Vocabulary;

// Precedence between competing elements. For each field the lowest rank that yields a usable
// value wins (a date that parses, a URL that resolves to http(s), text that is not blank);
// equal ranks go to the element that comes first in the document. `core` is RSS or Atom.
//
// show field    rank 0                    1                         2+
// title         title                     dc:title                  itunes:title
// link          link (text, or Atom rel=alternate href)
// description   description, subtitle,    itunes:summary            dc:description,
//               tagline                                             itunes:subtitle
// language      language                  dc:language               xml:lang of the channel
// image         itunes:image@href         image/url, logo           media:thumbnail,
//                                                                   googleplay:image, icon
// author        itunes:author             author(/name), dc:creator googleplay:author,
//                                                                   itunes:owner/name,
//                                                                   managingEditor
// explicit      itunes:explicit           googleplay:explicit
// categories    itunes:category@text (nested ones after their parent), else category
// feed_url      ParseOptions::feed_url, else Atom link rel=self
// self_url      Atom link rel=self (RSS channels' atom:link too)
// hub_url       Atom link rel=hub (WebSub)
//
// episode field rank 0                    1                         2+
// guid          guid, id
// title         title                     dc:title                  itunes:title, media:title
// published     pubDate, published        dc:date                   issued, dcterms:issued,
//                                                                   created, updated, modified
// description   content:encoded           description, summary      content (Atom),
//                                                                   itunes:summary,
//                                                                   dc:description,
//                                                                   media:description,
//                                                                   itunes:subtitle
// link          link (text, or rel=alternate href)                  guid when a permalink URL
// enclosure     enclosure / link rel=enclosure: audio or video type first, then untyped, then
//               other types; then media:content, then media:content inside media:group
// image         itunes:image@href         media:thumbnail           googleplay:image,
//                                                                   media:content image
// duration      itunes:duration           media:content@duration
// season        itunes:season             podcast:season
// episode       itunes:episode            podcast:episode
// explicit      itunes:explicit           googleplay:explicit
// Elements inside media:group count one rank lower than the same elements outside.
// The iTunes and Podcasting 2.0 elements beyond these fields (owner, type, persons, funding,
// soundbites, ...) are read by extensions.cpp: the first usable one wins, lists keep order.
constexpr std::array<Rule, 27> k_show_rules = {{
    {core, "title", Field::title, 0, Read::text},
    {dublin_core, "title", Field::title, 1, Read::text},
    {itunes, "title", Field::title, 2, Read::text},
    {core, "description", Field::description, 0, Read::markup},
    {core, "subtitle", Field::description, 0, Read::markup},
    {core, "tagline", Field::description, 0, Read::markup},
    {itunes, "summary", Field::description, 1, Read::markup},
    {dublin_core, "description", Field::description, 2, Read::markup},
    {itunes, "subtitle", Field::description, 3, Read::markup},
    {core, "language", Field::language, 0, Read::text},
    {dublin_core, "language", Field::language, 1, Read::text},
    {itunes, "image", Field::image, 0, Read::href},
    {core, "image", Field::image, 1, Read::url_child},
    {core, "logo", Field::image, 1, Read::text},
    {media, "thumbnail", Field::image, 2, Read::url},
    {google_play, "image", Field::image, 2, Read::href},
    {core, "icon", Field::image, 3, Read::text},
    {itunes, "author", Field::author, 0, Read::text},
    {core, "author", Field::author, 1, Read::name_child},
    {dublin_core, "creator", Field::author, 1, Read::text},
    {google_play, "author", Field::author, 2, Read::text},
    {itunes, "owner", Field::author, 3, Read::name_child},
    {core, "managingEditor", Field::author, 4, Read::text},
    {itunes, "explicit", Field::explicit_content, 0, Read::text},
    {google_play, "explicit", Field::explicit_content, 1, Read::text},
    {podcast, "guid", Field::podcast_guid, 0, Read::text},
    {itunes, "new-feed-url", Field::new_feed_url, 0, Read::text},
}};

constexpr std::array<Rule, 36> k_episode_rules = {{
    {core, "guid", Field::guid, 0, Read::text},
    {core, "id", Field::guid, 0, Read::text},
    {core, "title", Field::title, 0, Read::text},
    {dublin_core, "title", Field::title, 1, Read::text},
    {itunes, "title", Field::title, 2, Read::text},
    {media, "title", Field::title, 3, Read::text},
    {core, "pubDate", Field::published, 0, Read::text},
    {core, "published", Field::published, 0, Read::text},
    {dublin_core, "date", Field::published, 1, Read::text},
    {core, "issued", Field::published, 2, Read::text},
    {dublin_core_terms, "issued", Field::published, 2, Read::text},
    {core, "created", Field::published, 3, Read::text},
    {dublin_core_terms, "created", Field::published, 3, Read::text},
    {core, "updated", Field::published, 4, Read::text},
    {core, "modified", Field::published, 4, Read::text},
    {dublin_core_terms, "modified", Field::published, 4, Read::text},
    {content, "encoded", Field::description, 0, Read::markup},
    {core, "description", Field::description, 1, Read::markup},
    {core, "summary", Field::description, 1, Read::markup},
    {core, "content", Field::description, 2, Read::markup},
    {itunes, "summary", Field::description, 3, Read::markup},
    {dublin_core, "description", Field::description, 4, Read::markup},
    {media, "description", Field::description, 5, Read::markup},
    {itunes, "subtitle", Field::description, 6, Read::markup},
    {itunes, "duration", Field::duration, 0, Read::text},
    {itunes, "season", Field::season, 0, Read::text},
    {podcast, "season", Field::season, 1, Read::text},
    {itunes, "episode", Field::episode, 0, Read::text},
    {podcast, "episode", Field::episode, 1, Read::text},
    {itunes, "explicit", Field::explicit_content, 0, Read::text},
    {google_play, "explicit", Field::explicit_content, 1, Read::text},
    {itunes, "image", Field::image, 0, Read::href},
    {media, "thumbnail", Field::image, 1, Read::url},
    {google_play, "image", Field::image, 2, Read::href},
    {podcast, "chapters", Field::chapters_url, 0, Read::url},
    {core, "origLink", Field::link, 1, Read::text},
}};

// Ranks of enclosure candidates by where they come from and what they carry.
constexpr int k_enclosure_media_offset = 4; // media:content after enclosures
constexpr int k_enclosure_group_offset = 8; // media:group content after plain media:content
constexpr int k_media_image_rank = 2;       // media:content that is an image, as episode image

std::string read_value(const xmlNode* node, Read read) {
  switch (read) {
    case Read::text:
      return text_of(node);
    case Read::markup: {
      std::string type = ascii_lower(trim(attribute(node, "type")));
      bool plain = vocabulary(node) == core && (type == "text" || type == "text/plain");
      return plain ? html::escaped(text_of(node), html::k_escape_text) : internal::markup_of(node);
    }
    case Read::href:
      return attribute(node, "href");
    case Read::url:
      return attribute(node, "url");
    case Read::url_child:
      return child_text(node, core, "url");
    case Read::name_child: {
      std::string name = child_text(node, vocabulary(node), "name");
      return name.empty() ? text_of(node) : name;
    }
  }
  return {};
}

// Applies the first matching rule; true when one matched.
template <std::size_t N>
bool apply_rules(const std::array<Rule, N>& rules, const xmlNode* node, Draft& draft,
                 const std::string& base, int rank_offset) {
  Vocabulary node_vocabulary = vocabulary(node);
  std::string_view name = local_name(node);
  for (const Rule& rule : rules) {
    if (rule.vocabulary == node_vocabulary && rule.name == name) {
      draft.offer(rule.field, rule.rank + rank_offset, read_value(node, rule.read), base);
      return true;
    }
  }
  return false;
}

bool is_playable_type(std::string_view type) {
  return type.starts_with("audio/") || type.starts_with("video/") || type == "application/ogg" ||
         type == "application/x-mpegurl";
}

int enclosure_rank(std::string_view type, int offset) {
  std::string lowered = ascii_lower(trim(type));
  if (is_playable_type(lowered)) {
    return offset;
  }
  return offset + (lowered.empty() ? 1 : 3);
}

void add_enclosure(Draft& draft, int rank, std::string url, std::string type, std::string length,
                   const std::string& base) {
  if (draft.enclosures.size() < k_max_candidates && !trim(url).empty()) {
    draft.enclosures.push_back({rank, std::move(url), std::move(type), std::move(length), base});
  }
}

// <link>: RSS text, or Atom href dispatched on rel.
void read_link(const xmlNode* node, Draft& draft, const std::string& base) {
  std::string href = attribute(node, "href");
  if (href.empty()) {
    draft.offer(Field::link, 0, text_of(node), base);
    return;
  }
  std::string rel = ascii_lower(trim(attribute(node, "rel")));
  if (rel.empty() || rel == "alternate") {
    draft.offer(Field::link, 0, href, base);
  } else if (rel == "self") {
    draft.offer(Field::self_url, 0, href, base);
  } else if (rel == "hub") {
    draft.offer(Field::hub_url, 0, href, base);
  } else if (rel == "enclosure") {
    std::string type = attribute(node, "type");
    add_enclosure(draft, enclosure_rank(type, 0), href, type, attribute(node, "length"), base);
  }
}

void read_media_content(const xmlNode* node, Draft& draft, const std::string& base, int offset) {
  std::string url = attribute(node, "url");
  std::string type = attribute(node, "type");
  std::string medium = ascii_lower(trim(attribute(node, "medium")));
  if (medium == "image" || ascii_lower(trim(type)).starts_with("image/")) {
    draft.offer(Field::image, k_media_image_rank + offset / k_enclosure_group_offset, url, base);
  }
  add_enclosure(draft, enclosure_rank(type, offset), url, type, attribute(node, "fileSize"), base);
  draft.offer(Field::duration, 1, attribute(node, "duration"), base);
}

void read_itunes_category(const xmlNode* node, Draft& draft) {
  if (draft.itunes_categories.size() >= k_max_candidates) {
    return;
  }
  draft.itunes_categories.push_back(attribute(node, "text"));
  for (const xmlNode* child = node->children; child != nullptr; child = child->next) {
    if (is_element(child, itunes, "category")) {
      read_itunes_category(child, draft);
    }
  }
}

void read_episode_element(const xmlNode* node, Draft& draft, std::string_view feed_url,
                          bool in_group);

void read_episode_children(const xmlNode* parent, Draft& draft, std::string_view feed_url,
                           bool in_group) {
  for (const xmlNode* child = parent->children; child != nullptr; child = child->next) {
    if (child->type == XML_ELEMENT_NODE) {
      read_episode_element(child, draft, feed_url, in_group);
    }
  }
}

void read_episode_element(const xmlNode* node, Draft& draft, std::string_view feed_url,
                          bool in_group) {
  std::string base = base_of(node, feed_url);
  Vocabulary node_vocabulary = vocabulary(node);
  std::string_view name = local_name(node);
  if (node_vocabulary == core && name == "link") {
    read_link(node, draft, base);
  } else if (node_vocabulary == core && name == "enclosure") {
    std::string type = attribute(node, "type");
    add_enclosure(draft, enclosure_rank(type, 0), attribute(node, "url"), type,
                  attribute(node, "length"), base);
  } else if (node_vocabulary == media && name == "content") {
    read_media_content(node, draft, base,
                       in_group ? k_enclosure_group_offset : k_enclosure_media_offset);
  } else if (node_vocabulary == media && name == "group" && !in_group) {
    read_episode_children(node, draft, feed_url, true);
  } else if (node_vocabulary == podcast && name == "transcript") {
    if (draft.transcripts.size() < k_max_candidates) {
      draft.transcripts.push_back({0, attribute(node, "url"), base});
      draft.transcript_types.push_back(attribute(node, "type"));
    }
  } else if (internal::read_episode_extension(node, draft, base)) {
    return;
  } else if (apply_rules(k_episode_rules, node, draft, base, in_group ? 1 : 0)) {
    std::string permalink = ascii_lower(trim(attribute(node, "isPermaLink")));
    if (node_vocabulary == core && name == "guid" && permalink != "false") {
      std::string guid(trim(text_of(node)));
      if (net::is_http_url(guid)) {
        draft.offer(Field::link, 2, guid, base);
      }
    }
  }
}

void read_show_element(const xmlNode* node, Draft& draft, std::string_view feed_url) {
  std::string base = base_of(node, feed_url);
  Vocabulary node_vocabulary = vocabulary(node);
  std::string_view name = local_name(node);
  if (node_vocabulary == core && name == "link") {
    read_link(node, draft, base);
  } else if (node_vocabulary == itunes && name == "category") {
    read_itunes_category(node, draft);
  } else if (node_vocabulary == core && name == "category") {
    if (draft.categories.size() < k_max_candidates) {
      std::string term = attribute(node, "term");
      draft.categories.push_back(term.empty() ? text_of(node) : term);
    }
  } else if (!internal::read_show_extension(node, draft, base)) {
    apply_rules(k_show_rules, node, draft, base, 0);
  }
}

std::string language_attribute(const xmlNode* node) {
  std::unique_ptr<xmlChar, void (*)(xmlChar*)> lang(xmlNodeGetLang(node),
                                                    [](xmlChar* text) { xmlFree(text); });
  return lang ? std::string(reinterpret_cast<const char*>(lang.get())) : std::string();
}

// What one container (the channel, or the root) yields while the document is read.
struct ContainerRead {
  Draft draft; // from its own elements
  // From its items or entries, in document order, at most k_max_episodes, duplicates included.
  // A deque: a long feed's episodes are not moved each time their storage grows.
  std::deque<Episode> episodes;
  std::string language; // its xml:lang, inherited
};

// Reads a feed as a stream: each child of the root, and each child of the first channel, is
// expanded on its own, read, and freed when the reader moves on, so memory holds one item
// at a time rather than the whole tree.
class FeedReader {
public:
  FeedReader(xmlTextReader* reader, const ParseOptions& options)
      : m_reader(reader), m_options(options) {}

  // Read the children of the root element the reader is on.
  void read_root(const xmlNode* root) {
    m_atom = ascii_lower(local_name(root)) == "feed";
    m_item_name = m_atom ? "entry" : "item";
    m_root.language = language_attribute(root);
    if (xmlTextReaderIsEmptyElement(m_reader) == 1) {
      return;
    }
    bool in_channel = false;
    int status = xmlTextReaderRead(m_reader);
    while (status == 1) {
      int depth = xmlTextReaderDepth(m_reader);
      int type = xmlTextReaderNodeType(m_reader);
      if (depth <= 0) {
        break; // the root's end
      }
      if (type == XML_READER_TYPE_END_ELEMENT && depth == 1) {
        in_channel = false;
      }
      if (type != XML_READER_TYPE_ELEMENT || (depth == 2 && !in_channel) || depth > 2) {
        status = xmlTextReaderRead(m_reader);
        continue;
      }
      const xmlNode* node = xmlTextReaderCurrentNode(m_reader);
      if (depth == 1 && !m_atom && !m_has_channel && is_element(node, core, "channel")) {
        // RSS 2.0 nests items in the channel; RSS 0.9 and 1.0 put them beside it.
        m_has_channel = true;
        m_channel.language = language_attribute(node);
        in_channel = xmlTextReaderIsEmptyElement(m_reader) != 1;
        status = xmlTextReaderRead(m_reader);
        continue;
      }
      if (const xmlNode* expanded = xmlTextReaderExpand(m_reader)) {
        read_child(expanded, depth == 2 ? m_channel : m_root);
      }
      status = xmlTextReaderNext(m_reader);
    }
  }

  // The show: from the channel's elements when there is a channel, else from the root's;
  // episodes from the channel's items, then the root's.
  Show finish() {
    ContainerRead& own = m_has_channel ? m_channel : m_root;
    own.draft.offer(Field::language, 2, own.language, "");
    Show show = internal::finish_show(own.draft);
    if (!trim(m_options.feed_url).empty()) {
      show.feed_url = clean_line(m_options.feed_url);
    }
    // The channel's episodes, then the root's, the first k_max_episodes of them, each key's
    // first kept.
    std::unordered_set<std::string> seen;
    seen.reserve(m_channel.episodes.size() + m_root.episodes.size());
    std::vector<bool> kept;
    kept.reserve(m_channel.episodes.size() + m_root.episodes.size());
    std::size_t count = 0;
    for (ContainerRead* container : {&m_channel, &m_root}) {
      for (const Episode& episode : container->episodes) {
        if (kept.size() == k_max_episodes) {
          break;
        }
        std::string key = episode_key(episode);
        kept.push_back(key.empty() || seen.insert(std::move(key)).second);
        count += kept.back() ? 1 : 0;
      }
    }
    show.episodes.reserve(count);
    std::size_t at = 0;
    for (ContainerRead* container : {&m_channel, &m_root}) {
      for (Episode& episode : container->episodes) {
        if (at == kept.size()) {
          return show;
        }
        if (kept[at++]) {
          show.episodes.push_back(std::move(episode));
        }
      }
    }
    return show;
  }

private:
  void read_child(const xmlNode* node, ContainerRead& container) {
    if (!is_element(node, core, m_item_name)) {
      read_show_element(node, container.draft, m_options.feed_url);
      return;
    }
    if (container.episodes.size() < k_max_episodes) {
      Draft episode_draft;
      read_episode_children(node, episode_draft, m_options.feed_url, false);
      container.episodes.push_back(internal::finish_episode(episode_draft));
    }
  }

  xmlTextReader* m_reader;
  const ParseOptions& m_options;
  bool m_atom = false;
  bool m_has_channel = false;
  std::string_view m_item_name;
  ContainerRead m_root;
  ContainerRead m_channel;
};

// Read the feed from the stream; nullopt when the stream met an error that it recovers from
// differently than a walk would, so the document is to be read again by a walk.
std::optional<ParseResult> read_document(const internal::XmlStream& stream,
                                         const ParseOptions& options) {
  ParseResult result;
  xmlTextReader* reader = stream.reader();
  int status = reader != nullptr ? xmlTextReaderRead(reader) : -1;
  while (status == 1 && xmlTextReaderNodeType(reader) != XML_READER_TYPE_ELEMENT) {
    status = xmlTextReaderRead(reader);
  }
  const xmlNode* root = status == 1 ? xmlTextReaderCurrentNode(reader) : nullptr;
  if (stream.needs_walk()) {
    return std::nullopt;
  }
  if (root == nullptr) {
    result.error = "the document holds no XML element";
    return result;
  }
  std::string root_name = ascii_lower(local_name(root));
  if (root_name != "rss" && root_name != "rdf" && root_name != "feed") {
    result.outcome = ParseOutcome::not_a_feed;
    result.error =
        "the root element <" + clean_line(local_name(root)) + "> is not rss, rdf:RDF or feed";
    return result;
  }
  FeedReader feed(reader, options);
  feed.read_root(root);
  if (stream.needs_walk()) {
    return std::nullopt;
  }
  result.show = feed.finish();
  internal::settle_language(result.show);
  result.outcome = ParseOutcome::ok;
  return result;
}

} // namespace

ParseResult parse_feed(std::string_view bytes, const ParseOptions& options) {
  return parse_feed(std::string(bytes.substr(0, internal::k_max_document_bytes)), options);
}

ParseResult parse_feed(std::string&& bytes, const ParseOptions& options) {
  ParseResult result;
  if (trim(bytes).empty()) {
    result.error = "the document is empty";
    return result;
  }
  std::string markup =
      internal::repair_markup(internal::decode_document(std::move(bytes), options.content_type));
  if (std::optional<ParseResult> streamed =
          read_document(internal::XmlStream::stream(markup), options)) {
    return std::move(*streamed);
  }
  return read_document(internal::XmlStream::walk(markup), options).value_or(ParseResult{});
}

} // namespace podcrawl::feed

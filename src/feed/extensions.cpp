#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "dates_internal.hpp"
#include "extensions_internal.hpp"
#include "text_internal.hpp"
#include "xml_internal.hpp"

// The iTunes and Podcasting 2.0 elements beyond the common fields. Single-valued elements keep
// their first usable occurrence; repeated ones (persons, funding, keywords, images, ...) keep at
// most k_max_candidates usable occurrences in document order. Values are cleaned the way the
// common fields are: one-line text, http(s) URLs resolved against the element's base, ASCII
// lowercase for the namespaces' vocabularies; an element without its required value is ignored.

namespace podcrawl::feed::internal {
namespace {

using enum Vocabulary;

// Longest medium name accepted ("podcast", "audiobook", "podcastL", ...).
constexpr std::size_t k_max_medium_bytes = 32;
// Longest role, group, type or codecs value accepted.
constexpr std::size_t k_max_token_bytes = 128;

std::optional<bool> parse_yes_no(std::string_view text) {
  std::string value = ascii_lower(trim(text));
  if (value == "yes" || value == "true") {
    return true;
  }
  if (value == "no" || value == "false") {
    return false;
  }
  return std::nullopt;
}

// A short lowercase token: trimmed, ASCII letters lowered, empty when too long or blank.
std::string token(std::string_view text) {
  std::string value = ascii_lower(clean_line(text));
  return value.size() > k_max_token_bytes ? std::string() : value;
}

// A non-negative finite number of seconds or bits ("12.5", "60"); nullopt otherwise.
std::optional<double> parse_amount(std::string_view text) {
  std::string_view digits = trim(text);
  double value = 0;
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value,
                                      std::chars_format::fixed);
  if (digits.empty() || error != std::errc() || end != digits.data() + digits.size() ||
      !std::isfinite(value) || value < 0) {
    return std::nullopt;
  }
  return value;
}

std::optional<int> parse_small_count(const std::string& text) {
  auto count = parse_count(text);
  if (!count || *count > std::numeric_limits<int>::max()) {
    return std::nullopt;
  }
  return static_cast<int>(*count);
}

template <typename T>
void add_bounded(std::vector<T>& values, T value) {
  if (values.size() < k_max_candidates) {
    values.push_back(std::move(value));
  }
}

// itunes:keywords: comma-separated, cleaned, duplicates dropped.
void read_keywords(const xmlNode* node, std::vector<std::string>& keywords) {
  std::string text = text_of(node);
  std::string_view rest = text;
  while (!rest.empty()) {
    std::size_t comma = rest.find(',');
    std::string keyword = clean_line(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    if (!keyword.empty() &&
        std::find(keywords.begin(), keywords.end(), keyword) == keywords.end()) {
      add_bounded(keywords, std::move(keyword));
    }
  }
}

void read_person(const xmlNode* node, std::vector<Person>& persons, const std::string& base) {
  Person person{clean_line(text_of(node)), token(attribute(node, "role")),
                token(attribute(node, "group")), resolve_http(base, attribute(node, "img")),
                resolve_http(base, attribute(node, "href"))};
  if (!person.name.empty()) {
    add_bounded(persons, std::move(person));
  }
}

void read_location(const xmlNode* node, std::optional<Location>& location) {
  if (location) {
    return;
  }
  Location read{clean_line(text_of(node)), clean_line(attribute(node, "geo")),
                clean_line(attribute(node, "osm"))};
  if (!ascii_lower(read.geo).starts_with("geo:")) {
    read.geo.clear();
  }
  if (!read.name.empty()) {
    location = std::move(read);
  }
}

void read_license(const xmlNode* node, std::optional<License>& license, const std::string& base) {
  if (license) {
    return;
  }
  License read{clean_line(text_of(node)), resolve_http(base, attribute(node, "url"))};
  if (!read.name.empty()) {
    license = std::move(read);
  }
}

// podcast:images srcset: "URL 1500w, URL 600w".
void read_images(const xmlNode* node, std::vector<Image>& images, const std::string& base) {
  std::string srcset = attribute(node, "srcset");
  std::string_view rest = srcset;
  while (!rest.empty()) {
    std::size_t comma = rest.find(',');
    std::string_view candidate = trim(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    std::size_t space = candidate.find_first_of(" \t\r\n");
    Image image{resolve_http(base, std::string(candidate.substr(0, space))), std::nullopt};
    if (space != std::string_view::npos) {
      std::string descriptor(trim(candidate.substr(space)));
      if (descriptor.ends_with('w') || descriptor.ends_with('W')) {
        descriptor.pop_back();
        image.width = parse_count(descriptor);
      }
    }
    if (!image.url.empty()) {
      add_bounded(images, std::move(image));
    }
  }
}

void read_soundbite(const xmlNode* node, std::vector<Soundbite>& soundbites) {
  auto start = parse_amount(attribute(node, "startTime"));
  auto duration = parse_amount(attribute(node, "duration"));
  if (start && duration) {
    add_bounded(soundbites, Soundbite{*start, *duration, clean_line(text_of(node))});
  }
}

void read_alternate_enclosure(const xmlNode* node, std::vector<AlternateEnclosure>& enclosures,
                              const std::string& base) {
  AlternateEnclosure enclosure;
  enclosure.type = token(attribute(node, "type"));
  enclosure.length = parse_count(attribute(node, "length"));
  enclosure.bitrate = parse_amount(attribute(node, "bitrate"));
  enclosure.height = parse_count(attribute(node, "height"));
  enclosure.language = clean_line(attribute(node, "lang"));
  enclosure.title = clean_line(attribute(node, "title"));
  enclosure.rel = clean_line(attribute(node, "rel"));
  enclosure.codecs = clean_line(attribute(node, "codecs"));
  enclosure.is_default = parse_yes_no(attribute(node, "default")).value_or(false);
  for (const xmlNode* child = node->children; child != nullptr; child = child->next) {
    if (is_element(child, podcast, "source")) {
      std::string uri = resolve_http(base, attribute(child, "uri"));
      if (!uri.empty()) {
        add_bounded(enclosure.sources, std::move(uri));
      }
    }
  }
  if (!enclosure.type.empty() && !enclosure.sources.empty()) {
    add_bounded(enclosures, std::move(enclosure));
  }
}

void read_trailer(const xmlNode* node, std::vector<Trailer>& trailers, const std::string& base) {
  Trailer trailer{resolve_http(base, attribute(node, "url")),
                  clean_line(text_of(node)),
                  token(attribute(node, "type")),
                  parse_date(attribute(node, "pubdate")),
                  parse_count(attribute(node, "length")),
                  parse_small_count(attribute(node, "season"))};
  if (!trailer.url.empty()) {
    add_bounded(trailers, std::move(trailer));
  }
}

void read_update_frequency(const xmlNode* node, std::optional<UpdateFrequency>& frequency) {
  if (frequency) {
    return;
  }
  UpdateFrequency read{clean_line(text_of(node)), clean_line(attribute(node, "rrule")),
                       parse_yes_no(attribute(node, "complete")),
                       parse_date(attribute(node, "dtstart"))};
  if (!read.text.empty() || !read.rrule.empty()) {
    frequency = std::move(read);
  }
}

template <typename T>
void set_once(std::optional<T>& value, std::optional<T> read) {
  if (!value) {
    value = read;
  }
}

void set_once(std::string& value, std::string read) {
  if (value.empty()) {
    value = std::move(read);
  }
}

bool is_one_of(const std::string& value, std::initializer_list<std::string_view> allowed) {
  return std::find(allowed.begin(), allowed.end(), value) != allowed.end();
}

// The iTunes elements shows and episodes both have; true when the element is one of them.
template <typename Fields>
bool read_itunes_common(std::string_view name, const xmlNode* node, Fields& fields) {
  if (name == "block") {
    set_once(fields.block, parse_yes_no(text_of(node)));
  } else if (name == "keywords") {
    read_keywords(node, fields.keywords);
  } else {
    return false;
  }
  return true;
}

// The Podcasting 2.0 elements shows and episodes both have; true when the element is one of them.
template <typename Fields>
bool read_podcast_common(std::string_view name, const xmlNode* node, Fields& fields,
                         const std::string& base) {
  if (name == "person") {
    read_person(node, fields.persons, base);
  } else if (name == "location") {
    read_location(node, fields.location);
  } else if (name == "license") {
    read_license(node, fields.license, base);
  } else if (name == "images") {
    read_images(node, fields.images, base);
  } else {
    return false;
  }
  return true;
}

} // namespace

bool read_show_extension(const xmlNode* node, Draft& draft, const std::string& base) {
  Vocabulary node_vocabulary = vocabulary(node);
  std::string_view name = local_name(node);
  ItunesShow& itunes_fields = draft.itunes_show;
  PodcastShow& podcast_fields = draft.podcast_show;
  if (node_vocabulary == itunes) {
    if (name == "owner") {
      set_once(itunes_fields.owner_name, clean_line(child_text(node, itunes, "name")));
      set_once(itunes_fields.owner_email, clean_line(child_text(node, itunes, "email")));
      return false;
    }
    if (name == "type") {
      std::string type = token(text_of(node));
      set_once(itunes_fields.type, is_one_of(type, {"episodic", "serial"}) ? type : "");
    } else if (name == "complete") {
      set_once(itunes_fields.complete, parse_yes_no(text_of(node)));
    } else {
      return read_itunes_common(name, node, itunes_fields);
    }
    return true;
  }
  if (node_vocabulary != podcast) {
    return false;
  }
  if (name == "locked") {
    if (!podcast_fields.locked) {
      podcast_fields.locked = parse_yes_no(text_of(node));
      podcast_fields.locked_owner =
          podcast_fields.locked ? clean_line(attribute(node, "owner")) : "";
    }
  } else if (name == "funding") {
    Funding funding{resolve_http(base, attribute(node, "url")), clean_line(text_of(node))};
    if (!funding.url.empty()) {
      add_bounded(podcast_fields.funding, std::move(funding));
    }
  } else if (name == "medium") {
    std::string medium = clean_line(text_of(node));
    bool letters = std::all_of(medium.begin(), medium.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    });
    set_once(podcast_fields.medium,
             letters && medium.size() <= k_max_medium_bytes ? medium : std::string());
  } else if (name == "updateFrequency") {
    read_update_frequency(node, podcast_fields.update_frequency);
  } else if (name == "trailer") {
    read_trailer(node, podcast_fields.trailers, base);
  } else {
    return read_podcast_common(name, node, podcast_fields, base);
  }
  return true;
}

bool read_episode_extension(const xmlNode* node, Draft& draft, const std::string& base) {
  Vocabulary node_vocabulary = vocabulary(node);
  std::string_view name = local_name(node);
  ItunesEpisode& itunes_fields = draft.itunes_episode;
  PodcastEpisode& podcast_fields = draft.podcast_episode;
  if (node_vocabulary == itunes) {
    if (name == "episodeType") {
      std::string type = token(text_of(node));
      set_once(itunes_fields.episode_type,
               is_one_of(type, {"full", "trailer", "bonus"}) ? type : "");
    } else {
      return read_itunes_common(name, node, itunes_fields);
    }
    return true;
  }
  if (node_vocabulary != podcast) {
    return false;
  }
  if (name == "chapters") {
    if (podcast_fields.chapters_type.empty() &&
        !resolve_http(base, attribute(node, "url")).empty()) {
      podcast_fields.chapters_type = token(attribute(node, "type"));
    }
    return false;
  }
  if (name == "soundbite") {
    read_soundbite(node, podcast_fields.soundbites);
  } else if (name == "alternateEnclosure") {
    read_alternate_enclosure(node, podcast_fields.alternate_enclosures, base);
  } else {
    return read_podcast_common(name, node, podcast_fields, base);
  }
  return true;
}

} // namespace podcrawl::feed::internal

#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "podcrawl/feed/model.hpp"
#include "text_internal.hpp"

namespace podcrawl::feed::internal {

// Most candidates kept per field, enclosures, transcripts or categories of one show or
// episode; a hostile feed repeating an element a million times gains nothing.
inline constexpr std::size_t k_max_candidates = 32;

// The fields a show or episode fills from competing elements.
enum class Field {
  title,
  link,
  description,
  language,
  image,
  author,
  explicit_content,
  podcast_guid,
  new_feed_url,
  self_url,
  hub_url,
  guid,
  published,
  duration,
  season,
  episode,
  chapters_url,
};
inline constexpr std::size_t k_field_count = static_cast<std::size_t>(Field::chapters_url) + 1;

// One element's raw value for a field; lower rank wins, document order breaks ties.
struct Candidate {
  int rank = 0;
  std::string value;
  std::string base; // base URL in effect at the element
};

struct EnclosureCandidate {
  int rank = 0;
  std::string url;
  std::string type;
  std::string length;
  std::string base;
};

// Everything read for one show or one episode before normalization.
struct Draft {
  std::array<std::vector<Candidate>, k_field_count> fields;
  std::vector<EnclosureCandidate> enclosures;
  std::vector<Candidate> transcripts; // value = URL, base; type in `transcript_types`
  std::vector<std::string> transcript_types;
  std::vector<std::string> itunes_categories;
  std::vector<std::string> categories;
  // The namespaces' further elements, read as they come (extensions_internal.hpp).
  ItunesShow itunes_show;
  PodcastShow podcast_show;
  ItunesEpisode itunes_episode;
  PodcastEpisode podcast_episode;

  // Record a candidate unless its value is blank or the field is full.
  void offer(Field field, int rank, std::string value, std::string base);

  // The field's candidates, best first.
  std::vector<Candidate> ranked(Field field) const;
};

using LineCleaner = std::string (*)(std::string_view);

// The first candidate that `clean` makes a non-empty one-line text; empty when none. Titles
// and names are cleaned by plain_line, identifiers by clean_line alone.
std::string first_text(const Draft& draft, Field field, LineCleaner clean = clean_line);

// The first candidate that resolves against its base to an http(s) URL; empty when none.
std::string first_url(const Draft& draft, Field field);

// The first candidate as sanitized HTML with links absolute; empty when none.
std::string first_markup(const Draft& draft, Field field);

// The first candidate the conversion accepts; nullopt when none does.
template <typename Convert>
auto first_parsed(const Draft& draft, Field field, Convert convert)
    -> decltype(convert(std::string())) {
  for (const Candidate& candidate : draft.ranked(field)) {
    if (auto value = convert(candidate.value)) {
      return value;
    }
  }
  return std::nullopt;
}

// Resolve a reference against a base; the result only when it is an http(s) URL.
std::string resolve_http(const std::string& base, const std::string& reference);

// A count written in a feed ("42", " 7 "): nullopt unless it is a non-negative integer.
std::optional<std::int64_t> parse_count(const std::string& text);

// Fill an episode's fields from its draft.
Episode finish_episode(const Draft& draft);

// Fill a show's fields (not its episodes) from its draft.
Show finish_show(const Draft& draft);

} // namespace podcrawl::feed::internal

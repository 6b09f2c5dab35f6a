#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace podcrawl::feed {

struct Transcript {
  std::string url;
  std::string type;
};

// <podcast:person>: someone who takes part, with the namespace's role and group taxonomy
// (lowercased; empty when the feed gives none, which the namespace reads as host / cast).
struct Person {
  std::string name;
  std::string role;
  std::string group;
  std::string image;
  std::string href;

  bool operator==(const Person&) const = default;
};

// <podcast:funding>: where listeners can support the show.
struct Funding {
  std::string url;
  std::string text;

  bool operator==(const Funding&) const = default;
};

// <podcast:location>: what the show or episode is about or where it was made.
struct Location {
  std::string name;
  std::string geo; // "geo:" URI
  std::string osm; // OpenStreetMap type and id, e.g. "R113314"

  bool operator==(const Location&) const = default;
};

// <podcast:license>: an SPDX identifier or a name, with a URL for licenses SPDX lacks.
struct License {
  std::string name;
  std::string url;

  bool operator==(const License&) const = default;
};

// One image of a <podcast:images> srcset.
struct Image {
  std::string url;
  std::optional<std::int64_t> width; // pixels, from a "1500w" descriptor

  bool operator==(const Image&) const = default;
};

// <podcast:soundbite>: a part of the episode suited to a preview.
struct Soundbite {
  double start_seconds = 0;
  double duration_seconds = 0;
  std::string title;

  bool operator==(const Soundbite&) const = default;
};

// <podcast:alternateEnclosure>: the episode in another format, bitrate or language.
struct AlternateEnclosure {
  std::string type;
  std::optional<std::int64_t> length;
  std::optional<double> bitrate; // bits per second
  std::optional<std::int64_t> height;
  std::string language;
  std::string title;
  std::string rel;
  std::string codecs;
  bool is_default = false;
  std::vector<std::string> sources; // http(s) <podcast:source> URIs

  bool operator==(const AlternateEnclosure&) const = default;
};

// <podcast:trailer>: a trailer of the show, published on its own.
struct Trailer {
  std::string url;
  std::string title;
  std::string type;
  std::optional<std::int64_t> published; // Unix seconds, UTC
  std::optional<std::int64_t> length;
  std::optional<int> season;

  bool operator==(const Trailer&) const = default;
};

// <podcast:updateFrequency>: the publisher's stated schedule.
struct UpdateFrequency {
  std::string text;
  std::string rrule;
  std::optional<bool> complete;
  std::optional<std::int64_t> start; // dtstart, Unix seconds, UTC

  bool operator==(const UpdateFrequency&) const = default;
};

// The iTunes elements of a show beyond the common fields.
struct ItunesShow {
  std::string owner_name;
  std::string owner_email;
  std::string type; // "episodic" or "serial"
  std::optional<bool> block;
  std::optional<bool> complete;
  std::vector<std::string> keywords;

  bool operator==(const ItunesShow&) const = default;
};

// The iTunes elements of an episode beyond the common fields.
struct ItunesEpisode {
  std::string episode_type; // "full", "trailer" or "bonus"
  std::optional<bool> block;
  std::vector<std::string> keywords;

  bool operator==(const ItunesEpisode&) const = default;
};

// The Podcasting 2.0 elements of a show beyond podcast:guid.
struct PodcastShow {
  std::optional<bool> locked;
  std::string locked_owner;
  std::vector<Funding> funding;
  std::vector<Person> persons;
  std::optional<Location> location;
  std::optional<License> license;
  std::string medium;
  std::vector<Image> images;
  std::optional<UpdateFrequency> update_frequency;
  std::vector<Trailer> trailers;

  bool operator==(const PodcastShow&) const = default;
};

// The Podcasting 2.0 elements of an episode beyond transcripts, chapters, season and episode.
struct PodcastEpisode {
  std::string chapters_type;
  std::vector<Person> persons;
  std::vector<Soundbite> soundbites;
  std::optional<Location> location;
  std::optional<License> license;
  std::vector<AlternateEnclosure> alternate_enclosures;
  std::vector<Image> images;

  bool operator==(const PodcastEpisode&) const = default;
};

// One episode as a feed describes it, normalized. Absent values stay empty / nullopt.
struct Episode {
  std::string guid;
  std::string title;
  std::optional<std::int64_t> published; // Unix seconds, UTC
  std::string enclosure_url;
  std::string enclosure_type;
  std::optional<std::int64_t> enclosure_length;
  std::optional<std::int64_t> duration_seconds;
  std::string link;
  std::string description; // sanitized HTML
  std::optional<int> season;
  std::optional<int> episode;
  std::optional<bool> explicit_content;
  std::string image;
  std::vector<Transcript> transcripts;
  std::string chapters_url;
  ItunesEpisode itunes;
  PodcastEpisode podcast;
};

// A show (one podcast feed), normalized. Episodes in document order, duplicates removed.
struct Show {
  std::string title;
  std::string link;
  std::string description; // sanitized HTML
  std::string language;    // declared, BCP 47, e.g. "en-US"; empty when unknown
  // The language of the show's own text, when there is enough of it to tell ("fa").
  std::optional<std::string> detected_language;
  // The language the directory files the show under: the declared one unless the text clearly
  // is in another; the detected one when none is declared; empty when neither is known.
  std::string effective_language;
  std::string image;
  std::string author;
  std::optional<bool> explicit_content;
  std::vector<std::string> categories;
  std::string podcast_guid;
  std::string new_feed_url;
  std::string feed_url;
  // WebSub: the hub the document declares (atom:link rel="hub") and its own address
  // (rel="self"), for subscribing; not part of the SPEC's JSON.
  std::string hub_url;
  std::string self_url;
  ItunesShow itunes;
  PodcastShow podcast;
  std::vector<Episode> episodes;
};

// The identity of an episode within its show: guid, else enclosure URL, else link, else
// title + published. Used for deduplication in a document and in the store.
std::string episode_key(const Episode& episode);

} // namespace podcrawl::feed

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
};

// A show (one podcast feed), normalized. Episodes in document order, duplicates removed.
struct Show {
  std::string title;
  std::string link;
  std::string description; // sanitized HTML
  std::string language;    // BCP 47, e.g. "en-US"; empty when unknown
  std::string image;
  std::string author;
  std::optional<bool> explicit_content;
  std::vector<std::string> categories;
  std::string podcast_guid;
  std::string new_feed_url;
  std::string feed_url;
  std::vector<Episode> episodes;
};

// The identity of an episode within its show: guid, else enclosure URL, else link, else
// title + published. Used for deduplication in a document and in the store.
std::string episode_key(const Episode& episode);

} // namespace podcrawl::feed

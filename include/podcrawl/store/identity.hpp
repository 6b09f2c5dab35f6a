#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "podcrawl/feed/model.hpp"

namespace podcrawl::store {

// How the store recognizes a show and its episodes across fetches, URL changes and host moves.
// The rules, in the order they apply, are tabled at the top of src/store/identity.cpp.

// The Podcasting 2.0 namespace of podcast:guid values derived from feed URLs.
inline constexpr std::string_view k_podcast_guid_namespace = "ead4c236-bf58-58c6-a2c6-a6b28d128cb6";

// Largest difference between two durations, in seconds, that still counts as the same episode
// for the title + day + duration rule (when both durations are known).
inline constexpr std::int64_t k_duration_tolerance_seconds = 5;

// A URL as episode identity compares it: scheme and fragment dropped, host lower-cased, default
// ports dropped, known tracking-redirect prefixes (podtrac, chartable, pdst.fm, podscribe,
// blubrry, claritas, op3, ...) stripped however they are chained, volatile query parameters
// (updated, source, utm_*, ...) removed. Empty for an empty URL.
std::string identity_url(std::string_view url);

// The last path segment of an identity_url ("episode-12.mp3"); empty when there is none.
std::string identity_file_name(std::string_view identity);

// The podcast:guid a show is known by: the one its feed publishes (trimmed, lower-case), else
// the UUIDv5 of the feed URL without scheme and trailing slashes in the Podcasting 2.0
// namespace, as that namespace defines it.
std::string show_identity(std::string_view podcast_guid, std::string_view feed_url);

// The fields episode identity looks at.
struct EpisodeIdentity {
  std::string guid;
  std::string enclosure_url;
  std::string link;
  std::string title;
  std::optional<std::int64_t> published;
  std::optional<std::int64_t> duration_seconds;
};

EpisodeIdentity identity_of(const feed::Episode& episode);

// The outcome of matching a feed document's episodes against a show's stored ones.
struct EpisodeMatches {
  // Indexes into `incoming` of the episodes to store, in document order; later duplicates of
  // an episode within the document are left out.
  std::vector<std::size_t> kept;
  // Parallel to kept: the index into `stored` of the episode it updates, nullopt for a new one.
  std::vector<std::optional<std::size_t>> stored;
};

// Match incoming (one document, in order) against stored (every episode the show has, removed
// ones included). A stored episode is matched at most once. show_link is the show's own link,
// which never identifies an episode.
EpisodeMatches match_episodes(const std::vector<EpisodeIdentity>& stored,
                              const std::vector<EpisodeIdentity>& incoming,
                              std::string_view show_link);

} // namespace podcrawl::store

#pragma once

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <string>

#include "podcrawl/feed/model.hpp"

namespace podcrawl::feed {

// The iTunes and Podcasting 2.0 fields beyond the SPEC's, as the "itunes" and "podcast" members
// of the show and episode JSON: objects holding only the fields present (null when none is).
// from_json reads what to_json wrote and ignores anything else.
void to_json(nlohmann::json& out, const ItunesShow& itunes);
void to_json(nlohmann::json& out, const ItunesEpisode& itunes);
void to_json(nlohmann::json& out, const PodcastShow& podcast);
void to_json(nlohmann::json& out, const PodcastEpisode& podcast);
void from_json(const nlohmann::json& in, ItunesShow& itunes);
void from_json(const nlohmann::json& in, ItunesEpisode& itunes);
void from_json(const nlohmann::json& in, PodcastShow& podcast);
void from_json(const nlohmann::json& in, PodcastEpisode& podcast);

// The SPEC's `parse` / `show` JSON for a show and its episodes. Absent values are null.
nlohmann::json to_json(const Show& show);

// The same document as to_json(show).dump(2), byte for byte, written without building the
// JSON tree first (a long feed's tree costs more than its parse).
std::string to_json_text(const Show& show);
// The same document written to `out` as it is made, a piece at a time: a long feed's JSON is
// never held whole. Text that is not UTF-8 throws as to_json(show).dump(2) does, after what
// came before it was written.
void write_json_text(const Show& show, std::ostream& out);

} // namespace podcrawl::feed

#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "podcrawl/feed/model.hpp"
#include "podcrawl/model/artwork.hpp"

// A show and its episodes as the directory holds them: the parsed show and episodes (feed's
// model) with what the store adds, slugs, dates and cover art.
namespace podcrawl::model {

// An episode of a stored show.
struct StoredEpisode {
  feed::Episode episode;
  std::string slug;                     // unique within the show
  std::optional<StoredArtwork> artwork; // its own picture, when it has one the store fetched
};

// A stored show as the renderer and `show` need it: the normalized show, its slugs and dates.
struct StoredShow {
  std::string slug;
  std::string feed_url;
  bool active = true;                   // false once its feed was removed or gone
  std::int64_t added_at = 0;            // first stored, Unix seconds
  std::int64_t updated_at = 0;          // last changed
  feed::Show show;                      // the show's own fields; its episodes are in `episodes`
  std::vector<StoredEpisode> episodes;  // newest first, only those the feed still carries
  std::optional<StoredArtwork> artwork; // its cover art, once fetched and re-encoded
};

// The show with only its episodes [first, last): for a page of its episodes, without copying the
// others.
inline StoredShow with_episodes(const StoredShow& show, std::size_t first, std::size_t last) {
  StoredShow part;
  part.slug = show.slug;
  part.feed_url = show.feed_url;
  part.active = show.active;
  part.added_at = show.added_at;
  part.updated_at = show.updated_at;
  part.show = show.show;
  part.artwork = show.artwork;
  const auto begin = show.episodes.begin();
  part.episodes.assign(begin + static_cast<std::ptrdiff_t>(first),
                       begin + static_cast<std::ptrdiff_t>(last));
  return part;
}

} // namespace podcrawl::model

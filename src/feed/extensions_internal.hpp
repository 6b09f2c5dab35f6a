#pragma once

#include <libxml/tree.h>

#include <string>

#include "draft_internal.hpp"

namespace podcrawl::feed::internal {

// Read an iTunes or Podcasting 2.0 element of the channel that fills ItunesShow or PodcastShow.
// True when the element is fully read; false when it is not one of them or when the common
// fields read it too (itunes:owner also names the author, podcast:chapters gives chapters_url).
bool read_show_extension(const xmlNode* node, Draft& draft, const std::string& base);

// The same for an item's ItunesEpisode and PodcastEpisode.
bool read_episode_extension(const xmlNode* node, Draft& draft, const std::string& base);

} // namespace podcrawl::feed::internal

#include "podcrawl/feed/model.hpp"

namespace podcrawl::feed {

std::string episode_key(const Episode& episode) {
  if (!episode.guid.empty()) {
    return episode.guid;
  }
  if (!episode.enclosure_url.empty()) {
    return episode.enclosure_url;
  }
  if (!episode.link.empty()) {
    return episode.link;
  }
  if (episode.title.empty() && !episode.published) {
    return {};
  }
  return episode.title + "|" + (episode.published ? std::to_string(*episode.published) : "");
}

} // namespace podcrawl::feed

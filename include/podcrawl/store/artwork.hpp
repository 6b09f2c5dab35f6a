#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "podcrawl/model/artwork.hpp"

namespace podcrawl::store {

// Cover art at one URL, as the crawler asks for it again.
struct ArtworkRecord {
  std::int64_t id = 0;
  std::string url;
  std::string etag;
  std::string last_modified;
  std::string content_hash; // of the image file last fetched; names its renditions' files
};

// What a fetch of an image found.
struct ArtworkUpdate {
  std::string etag;
  std::string last_modified;
  std::string content_hash;
  int width = 0;
  int height = 0;
  std::vector<model::ArtRendition> renditions; // narrowest first
  bool downloaded = true;                      // a body arrived (not a 304)
};

} // namespace podcrawl::store

#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace podcrawl::store {

// One re-encoded width of an image, as stored.
struct ArtRendition {
  int width = 0;
  int height = 0;
  std::int64_t bytes = 0;
};

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
  std::vector<ArtRendition> renditions; // narrowest first
  bool downloaded = true;               // a body arrived (not a 304)
};

// The artwork of one image URL, for pages and `show` JSON.
struct StoredArtwork {
  std::string content_hash;
  int width = 0;
  int height = 0;
  std::vector<ArtRendition> renditions; // narrowest first; empty when none was made
};

// The file one rendition is kept in, relative to the art folder: <hash>-<width>.webp.
std::string art_file_name(const std::string& content_hash, int width);

} // namespace podcrawl::store

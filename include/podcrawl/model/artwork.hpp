#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

// Cover art as the pages show it: the renditions the crawler made of an image, and the files
// they are kept in. Values only: `store` reads them, `render` links them, neither needs the other.
namespace podcrawl::model {

// One re-encoded width of an image, as stored.
struct ArtRendition {
  int width = 0;
  int height = 0;
  std::int64_t bytes = 0;
};

// The artwork of one image URL, for pages and `show` JSON.
struct StoredArtwork {
  std::string content_hash;
  int width = 0;
  int height = 0;
  std::vector<ArtRendition> renditions; // narrowest first; empty when none was made
};

// The file one rendition is kept in, relative to the art folder: <hash>-<width>.webp. Inline:
// the crawler writes these files and the renderer links them.
inline std::string art_file_name(const std::string& content_hash, int width) {
  return content_hash + "-" + std::to_string(width) + ".webp";
}

// True when `name` is a name art_file_name() makes: 40 lower-case hex digits (SHA-1), '-', a
// width of one to five digits, ".webp". Nothing else names a file of the art folder.
inline bool is_art_file_name(std::string_view name) {
  constexpr std::size_t k_hash_digits = 40;
  constexpr std::string_view k_suffix = ".webp";
  if (name.size() < k_hash_digits + 2 + k_suffix.size() || !name.ends_with(k_suffix) ||
      name[k_hash_digits] != '-') {
    return false;
  }
  const std::string_view hash = name.substr(0, k_hash_digits);
  const std::string_view width =
      name.substr(k_hash_digits + 1, name.size() - k_hash_digits - 1 - k_suffix.size());
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  return std::all_of(hash.begin(), hash.end(),
                     [&](char c) { return digit(c) || (c >= 'a' && c <= 'f'); }) &&
         !width.empty() && width.size() <= 5 && width.front() != '0' &&
         std::all_of(width.begin(), width.end(), digit);
}

} // namespace podcrawl::model

#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "podcrawl/core/config.hpp"

namespace podcrawl::crawl {

struct ArtOptions {
  int concurrency = 16;                                          // images in flight at once
  std::optional<std::chrono::steady_clock::time_point> deadline; // claim none after this
  // Asked between transfers: once it returns false, no image is claimed or asked any more (those
  // claimed and not asked are handed back, due at once); the transfers in flight end.
  std::function<bool()> keep_claiming;
};

struct ArtSummary {
  std::int64_t claimed = 0;
  std::int64_t downloaded = 0;   // an image file arrived
  std::int64_t made = 0;         // re-encoded into new files
  std::int64_t reused = 0;       // bytes already re-encoded for another URL: its files serve
  std::int64_t not_modified = 0; // 304, or the same bytes as last time
  std::int64_t refused = 0;      // not an image, over a bound, or broken
  std::int64_t failed = 0;       // the fetch failed (404, timeout, refused address, ...)
  std::int64_t deferred = 0;     // not asked: its host paused or unreachable in this crawl
};

// Fetch the cover art that is due: every stored show's image URL is listed (once, however many
// shows use it), and each due URL is asked for with its validators through the fetch module's
// address policy and bounds ([art] max_bytes as the body cap). A new image file goes to the
// podcrawl-art helper, and its renditions are written to the art folder as
// <sha1>-<width>.webp; bytes already seen under another URL reuse that URL's files. A failure
// is recorded with its image and never touches a feed; an image whose host is paused or cannot
// be reached in this crawl is deferred unasked. Throws core::EnvironmentError when the
// database is unreachable, the art folder (core::art_dir) cannot be written, or the helper
// cannot be started; the images claimed and not yet recorded are then handed back first, due
// at once, with the error.
ArtSummary refresh_artwork(const std::string& database_url, const core::Config& config,
                           const ArtOptions& options);

} // namespace podcrawl::crawl

#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "podcrawl/store/artwork.hpp"
#include "podcrawl/store/database.hpp"

namespace podcrawl::store {

// The shows' and episodes' cover art: which image URLs are to be fetched when, and what was
// made of them.
class CoverArt {
public:
  explicit CoverArt(Database& database);

  // Add the image URL of every stored show that has no artwork row yet, due at once.
  void enlist_artwork();
  // Claim up to `limit` artwork rows that are due at `now`, leased for `lease_seconds` (they are
  // not due again before then), oldest due first; no two crawlers claim the same row.
  std::vector<ArtworkRecord> claim_due_artwork(std::size_t limit, std::int64_t now,
                                               std::int64_t lease_seconds);
  // The artwork already made of an image file with this content hash, under any URL; nullopt
  // when none was.
  std::optional<model::StoredArtwork> artwork_with_hash(const std::string& content_hash);
  // Record a fetched image (or a 304: `update.downloaded` false and the hash as it was) with
  // its renditions, clearing any error; due again at `next_fetch_at`.
  void record_artwork(std::int64_t id, const ArtworkUpdate& update, std::int64_t now,
                      std::int64_t next_fetch_at);
  // Record a failed fetch or a refused image; its renditions stay as they were.
  void record_artwork_failure(std::int64_t id, const std::string& error, bool downloaded,
                              std::int64_t now, std::int64_t next_fetch_at);
  // Hand claimed rows back unfinished, due again at `next_fetch_at`, with `error` saying why;
  // what was fetched and made of them before stays as it was.
  void release_artwork(const std::vector<std::int64_t>& ids, const std::string& error,
                       std::int64_t next_fetch_at);

private:
  Database::Impl* m_impl;
};

} // namespace podcrawl::store

#include "podcrawl/store/cover_art.hpp"

#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "podcrawl/store/artwork.hpp"
#include "podcrawl/store/database.hpp"
#include "rows_internal.hpp"
#include "store_internal.hpp"

namespace podcrawl::store {
namespace {

using internal::bounded_text;
using internal::guarded;
using internal::id_array;
using internal::k_max_art_url_bytes;
using internal::k_max_error_bytes;
using internal::notify_show_changed;

std::vector<model::ArtRendition> renditions_from(const std::string& text) {
  std::vector<model::ArtRendition> renditions;
  const nlohmann::json items = nlohmann::json::parse(text, nullptr, false);
  if (!items.is_array()) {
    return renditions;
  }
  for (const nlohmann::json& item : items) {
    if (item.is_object()) {
      renditions.push_back(
          {item.value("width", 0), item.value("height", 0), item.value("bytes", std::int64_t{0})});
    }
  }
  return renditions;
}

std::string renditions_text(const std::vector<model::ArtRendition>& renditions) {
  nlohmann::json items = nlohmann::json::array();
  for (const model::ArtRendition& rendition : renditions) {
    items.push_back(
        {{"width", rendition.width}, {"height", rendition.height}, {"bytes", rendition.bytes}});
  }
  return items.dump();
}

// The first row of `content_hash, width, height, renditions::text`.
std::optional<model::StoredArtwork> artwork_from(const pqxx::result& rows) {
  if (rows.empty()) {
    return std::nullopt;
  }
  model::StoredArtwork art;
  art.content_hash = rows[0][0].as<std::string>();
  art.width = rows[0][1].as<int>();
  art.height = rows[0][2].as<int>();
  art.renditions = renditions_from(rows[0][3].as<std::string>());
  return art;
}

} // namespace

namespace internal {

std::optional<model::StoredArtwork> artwork_from_text(const pqxx::field& field) {
  if (field.is_null()) {
    return std::nullopt;
  }
  const std::string text = field.as<std::string>();
  std::istringstream in(text);
  model::StoredArtwork art;
  if (!(in >> art.content_hash >> art.width >> art.height)) {
    return std::nullopt;
  }
  std::string renditions;
  std::getline(in, renditions);
  art.renditions = renditions_from(renditions);
  if (art.renditions.empty()) {
    return std::nullopt;
  }
  return art;
}

} // namespace internal

CoverArt::CoverArt(Database& database) : m_impl(database.m_impl.get()) {}

void CoverArt::enlist_artwork() {
  guarded(m_impl->redacted_url, "list cover art", [&] {
    pqxx::work txn(m_impl->connection);
    txn.exec_params(
        "INSERT INTO artwork (url)"
        " SELECT DISTINCT s.image FROM shows s"
        " WHERE s.image <> '' AND octet_length(s.image) <= $1"
        "  AND NOT EXISTS (SELECT 1 FROM artwork a WHERE a.url = s.image)"
        " ORDER BY 1 ON CONFLICT (url) DO NOTHING",
        static_cast<std::int64_t>(k_max_art_url_bytes));
    txn.commit();
  });
}

std::vector<ArtworkRecord> CoverArt::claim_due_artwork(std::size_t limit, std::int64_t now,
                                                       std::int64_t lease_seconds) {
  return guarded(m_impl->redacted_url, "claim cover art", [&] {
    pqxx::work txn(m_impl->connection);
    const pqxx::result rows = txn.exec_params(
        "UPDATE artwork SET next_fetch_at = to_timestamp($2::bigint + $3::bigint)"
        " WHERE id IN (SELECT id FROM artwork WHERE next_fetch_at <= to_timestamp($2::bigint)"
        "  ORDER BY next_fetch_at, id LIMIT $1 FOR UPDATE SKIP LOCKED)"
        " RETURNING id, url, etag, last_modified, content_hash",
        static_cast<std::int64_t>(limit), now, lease_seconds);
    txn.commit();
    std::vector<ArtworkRecord> records;
    records.reserve(rows.size());
    for (const pqxx::row& row : rows) {
      records.push_back({row[0].as<std::int64_t>(), row[1].as<std::string>(),
                         row[2].as<std::string>(), row[3].as<std::string>(),
                         row[4].as<std::string>()});
    }
    return records;
  });
}

std::optional<model::StoredArtwork> CoverArt::artwork_with_hash(const std::string& content_hash) {
  return guarded(m_impl->redacted_url, "read cover art", [&] {
    pqxx::nontransaction txn(m_impl->connection);
    return artwork_from(txn.exec_params(
        "SELECT content_hash, width, height, renditions::text FROM artwork"
        " WHERE content_hash = $1 AND content_hash <> '' AND renditions <> '[]' LIMIT 1",
        content_hash));
  });
}

void CoverArt::record_artwork(std::int64_t id, const ArtworkUpdate& update, std::int64_t now,
                              std::int64_t next_fetch_at) {
  guarded(m_impl->redacted_url, "record cover art", [&] {
    pqxx::work txn(m_impl->connection);
    if (update.downloaded) {
      // New bytes may be new pictures: the pages of the shows that use the image change (as
      // their own picture, or as an episode's).
      for (const pqxx::row& row :
           txn.exec_params("SELECT s.slug FROM shows s, artwork a WHERE a.id = $1"
                           " AND a.content_hash <> $2 AND s.slug IS NOT NULL"
                           " AND (s.image = a.url OR s.id IN"
                           "  (SELECT l.show_id FROM artwork_shows l WHERE l.url = a.url))"
                           " ORDER BY s.slug",
                           id, update.content_hash)) {
        notify_show_changed(txn, row[0].as<std::string>());
      }
    }
    txn.exec_params(
        "UPDATE artwork SET etag = $2, last_modified = $3, content_hash = $4, width = $5,"
        " height = $6, renditions = $7::jsonb, error = '',"
        " downloads = downloads + $8::int, fetched_at = to_timestamp($9::bigint),"
        " next_fetch_at = to_timestamp($10::bigint) WHERE id = $1",
        id, bounded_text(update.etag, k_max_error_bytes),
        bounded_text(update.last_modified, k_max_error_bytes), update.content_hash, update.width,
        update.height, renditions_text(update.renditions), update.downloaded ? 1 : 0, now,
        next_fetch_at);
    txn.commit();
  });
}

void CoverArt::record_artwork_failure(std::int64_t id, const std::string& error, bool downloaded,
                                      std::int64_t now, std::int64_t next_fetch_at) {
  guarded(m_impl->redacted_url, "record cover art", [&] {
    pqxx::work txn(m_impl->connection);
    txn.exec_params(
        "UPDATE artwork SET error = $2, downloads = downloads + $3::int,"
        " fetched_at = to_timestamp($4::bigint),"
        " next_fetch_at = to_timestamp($5::bigint) WHERE id = $1",
        id, bounded_text(error, k_max_error_bytes), downloaded ? 1 : 0, now, next_fetch_at);
    txn.commit();
  });
}

void CoverArt::release_artwork(const std::vector<std::int64_t>& ids, const std::string& error,
                               std::int64_t next_fetch_at) {
  if (ids.empty()) {
    return;
  }
  guarded(m_impl->redacted_url, "release cover art", [&] {
    pqxx::work txn(m_impl->connection);
    txn.exec_params(
        "UPDATE artwork SET error = $2, next_fetch_at = to_timestamp($3::bigint)"
        " WHERE id = ANY($1::bigint[])",
        id_array(ids), bounded_text(error, k_max_error_bytes), next_fetch_at);
    txn.commit();
  });
}

} // namespace podcrawl::store

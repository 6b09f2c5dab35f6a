#include <array>
#include <cstdio>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include "podcrawl/core/error.hpp"
#include "podcrawl/feed/model.hpp"
#include "podcrawl/l10n/localizer.hpp"
#include "store_internal.hpp"

namespace podcrawl::store {
namespace {

// Key of the advisory lock under which new show slugs are chosen, so two crawlers storing
// shows of the same title at once cannot pick the same slug.
constexpr std::int64_t k_show_slug_lock = 0x706f64736c7567; // "podslug"
// Longest episode key stored as is; longer ones are cut and suffixed with a hash of the whole
// key so they stay unique and fit the index.
constexpr std::size_t k_max_episode_key_bytes = 1000;
// Episode dates outside years 1..9999 are treated as absent.
constexpr std::int64_t k_min_stored_time = -62135596800;
constexpr std::int64_t k_max_stored_time = 253402300799;

// 64-bit FNV-1a: a stable hash, the same on every machine and every run.
std::uint64_t stable_hash(std::string_view text) {
  std::uint64_t hash = 14695981039346656037ULL;
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  }
  return hash;
}

std::string stored_episode_key(const feed::Episode& episode) {
  std::string key = storable_text(feed::episode_key(episode));
  if (key.size() <= k_max_episode_key_bytes) {
    return key;
  }
  char suffix[24];
  std::snprintf(suffix, sizeof suffix, "#%016llx",
                static_cast<unsigned long long>(stable_hash(key)));
  return bounded_text(key, k_max_episode_key_bytes - 17) + suffix;
}

std::optional<std::int64_t> stored_time(std::optional<std::int64_t> t) {
  if (t && (*t < k_min_stored_time || *t > k_max_stored_time)) {
    return std::nullopt;
  }
  return t;
}

// base, else base-2, base-3, ... whichever is not taken.
std::string unique_slug(const std::string& base, const std::set<std::string>& taken) {
  if (!taken.contains(base)) {
    return base;
  }
  for (int n = 2;; ++n) {
    std::string candidate = base + "-" + std::to_string(n);
    if (!taken.contains(candidate)) {
      return candidate;
    }
  }
}

std::string slug_base(const std::string& title, const char* fallback) {
  std::string base = l10n::slugify(title);
  return base.empty() ? fallback : base;
}

struct StoredShowRow {
  std::int64_t id = 0;
  std::string slug;
  bool changed = false;
};

StoredShowRow insert_show(pqxx::work& txn, std::int64_t feed_id, const feed::Show& show,
                          bool active, std::int64_t now) {
  txn.exec_params("SELECT pg_advisory_xact_lock($1)", k_show_slug_lock);
  const std::string base = slug_base(show.title, "show");
  std::set<std::string> taken;
  for (const auto& row : txn.exec_params(
           "SELECT slug FROM shows WHERE slug = $1 OR left(slug, length($1) + 1) = $1 || '-'",
           base)) {
    taken.insert(row[0].as<std::string>());
  }
  StoredShowRow stored;
  stored.slug = unique_slug(base, taken);
  stored.changed = true;
  stored.id =
      txn.exec_params1(
             "INSERT INTO shows (feed_id, slug, title, link, description, language, image,"
             " author, explicit, podcast_guid, new_feed_url, active, added_at, updated_at)"
             " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::boolean, $10, $11, $12::boolean,"
             " to_timestamp($13::bigint), to_timestamp($13::bigint)) RETURNING id",
             feed_id, stored.slug, storable_text(show.title), storable_text(show.link),
             storable_text(show.description), storable_text(show.language),
             storable_text(show.image), storable_text(show.author), show.explicit_content,
             storable_text(show.podcast_guid), storable_text(show.new_feed_url), active, now)[0]
          .as<std::int64_t>();
  return stored;
}

StoredShowRow update_show(pqxx::work& txn, std::int64_t show_id, std::string slug,
                          const feed::Show& show, bool active, std::int64_t now) {
  const auto row = txn.exec_params1(
      "UPDATE shows SET updated_at = CASE WHEN"
      "   (title, link, description, language, image, author, explicit, podcast_guid,"
      "    new_feed_url, active)"
      "   IS DISTINCT FROM ($2::text, $3::text, $4::text, $5::text, $6::text, $7::text,"
      "    $8::boolean, $9::text, $10::text, $11::boolean)"
      "   THEN to_timestamp($12::bigint) ELSE updated_at END,"
      " title = $2, link = $3, description = $4, language = $5, image = $6, author = $7,"
      " explicit = $8::boolean, podcast_guid = $9, new_feed_url = $10, active = $11::boolean"
      " WHERE id = $1 RETURNING updated_at = to_timestamp($12::bigint)",
      show_id, storable_text(show.title), storable_text(show.link), storable_text(show.description),
      storable_text(show.language), storable_text(show.image), storable_text(show.author),
      show.explicit_content, storable_text(show.podcast_guid), storable_text(show.new_feed_url),
      active, now);
  return {show_id, std::move(slug), row[0].as<bool>()};
}

StoredShowRow upsert_show(pqxx::work& txn, std::int64_t feed_id, const feed::Show& show,
                          bool active, std::int64_t now) {
  const auto existing = txn.exec_params("SELECT id, slug FROM shows WHERE feed_id = $1", feed_id);
  if (existing.empty()) {
    return insert_show(txn, feed_id, show, active, now);
  }
  return update_show(txn, existing[0][0].as<std::int64_t>(), existing[0][1].as<std::string>(), show,
                     active, now);
}

void replace_categories(pqxx::work& txn, std::int64_t show_id,
                        const std::vector<std::string>& categories) {
  txn.exec_params("DELETE FROM show_categories WHERE show_id = $1", show_id);
  std::unordered_set<std::string> seen;
  int position = 0;
  for (const auto& category : categories) {
    if (seen.size() >= k_max_categories) {
      break;
    }
    std::string name = bounded_text(category, k_max_category_bytes);
    if (name.empty() || !seen.insert(name).second) {
      continue;
    }
    txn.exec_params("INSERT INTO categories (name) VALUES ($1) ON CONFLICT (name) DO NOTHING",
                    name);
    txn.exec_params(
        "INSERT INTO show_categories (show_id, category_id, position)"
        " SELECT $1, id, $3 FROM categories WHERE name = $2",
        show_id, name, position++);
  }
}

nlohmann::json episode_json(const feed::Episode& episode, const std::string& key,
                            const std::string& slug, int position) {
  nlohmann::json transcripts = nlohmann::json::array();
  for (const auto& transcript : episode.transcripts) {
    transcripts.push_back(
        {{"url", storable_text(transcript.url)}, {"type", storable_text(transcript.type)}});
  }
  const auto optional_value = [](const auto& value) -> nlohmann::json {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
  };
  return {
      {"key", key},
      {"slug", slug},
      {"guid", storable_text(episode.guid)},
      {"title", storable_text(episode.title)},
      {"published", optional_value(stored_time(episode.published))},
      {"enclosure_url", storable_text(episode.enclosure_url)},
      {"enclosure_type", storable_text(episode.enclosure_type)},
      {"enclosure_length", optional_value(episode.enclosure_length)},
      {"duration_seconds", optional_value(episode.duration_seconds)},
      {"link", storable_text(episode.link)},
      {"description", storable_text(episode.description)},
      {"season", optional_value(episode.season)},
      {"episode", optional_value(episode.episode)},
      {"explicit", optional_value(episode.explicit_content)},
      {"image", storable_text(episode.image)},
      {"transcripts", std::move(transcripts)},
      {"chapters_url", storable_text(episode.chapters_url)},
      {"position", position},
  };
}

// The feed's episodes as one JSON array for the upsert, new ones given fresh slugs; the keys of
// all of them as a second array. Counts the new episodes.
struct EpisodeBatch {
  nlohmann::json episodes = nlohmann::json::array();
  nlohmann::json keys = nlohmann::json::array();
  std::int64_t new_episodes = 0;
};

EpisodeBatch episode_batch(pqxx::work& txn, std::int64_t show_id,
                           const std::vector<feed::Episode>& episodes) {
  std::unordered_map<std::string, std::string> slug_by_key;
  std::set<std::string> taken_slugs;
  for (const auto& row :
       txn.exec_params("SELECT key, slug FROM episodes WHERE show_id = $1", show_id)) {
    slug_by_key.emplace(row[0].as<std::string>(), row[1].as<std::string>());
    taken_slugs.insert(row[1].as<std::string>());
  }
  EpisodeBatch batch;
  std::unordered_set<std::string> seen_keys;
  int position = 0;
  for (const auto& episode : episodes) {
    std::string key = stored_episode_key(episode);
    if (!seen_keys.insert(key).second) {
      continue;
    }
    std::string slug;
    if (const auto found = slug_by_key.find(key); found != slug_by_key.end()) {
      slug = found->second;
    } else {
      slug = unique_slug(slug_base(episode.title, "episode"), taken_slugs);
      taken_slugs.insert(slug);
      ++batch.new_episodes;
    }
    batch.keys.push_back(key);
    batch.episodes.push_back(episode_json(episode, key, slug, position++));
  }
  return batch;
}

// The episode columns compared to decide whether a stored episode changed.
constexpr std::array<std::string_view, 15> k_episode_columns = {"guid",
                                                                "title",
                                                                "published",
                                                                "enclosure_url",
                                                                "enclosure_type",
                                                                "enclosure_length",
                                                                "duration_seconds",
                                                                "link",
                                                                "description",
                                                                "season",
                                                                "episode",
                                                                "explicit",
                                                                "image",
                                                                "transcripts",
                                                                "chapters_url"};

// "prefix.guid, prefix.title, ..." (no prefix: the bare names).
std::string episode_columns(std::string_view prefix = "") {
  std::string out;
  for (const auto column : k_episode_columns) {
    out += out.empty() ? "" : ", ";
    out += prefix;
    out += column;
  }
  return out;
}

// Insert new episodes, update changed ones (and those that came back). True when any row
// changed.
bool upsert_episodes(pqxx::work& txn, std::int64_t show_id, const EpisodeBatch& batch,
                     std::int64_t now) {
  static const std::string k_sql =
      "INSERT INTO episodes (show_id, key, slug, " + episode_columns() +
      ", position, first_seen_at, updated_at, search_config)"
      " SELECT $1, r.key, r.slug, r.guid, r.title, to_timestamp(r.published), r.enclosure_url,"
      "  r.enclosure_type, r.enclosure_length, r.duration_seconds, r.link, r.description,"
      "  r.season, r.episode, r.explicit, r.image, coalesce(r.transcripts, '[]'),"
      "  r.chapters_url, r.position, to_timestamp($3::bigint), to_timestamp($3::bigint),"
      "  s.search_config"
      " FROM jsonb_to_recordset($2::jsonb) AS r(key text, slug text, guid text, title text,"
      "  published bigint, enclosure_url text, enclosure_type text, enclosure_length bigint,"
      "  duration_seconds bigint, link text, description text, season integer,"
      "  episode integer, explicit boolean, image text, transcripts jsonb,"
      "  chapters_url text, position integer)"
      " CROSS JOIN (SELECT search_config FROM shows WHERE id = $1) s"
      " ON CONFLICT (show_id, key) DO UPDATE SET (" +
      episode_columns() + ", position, search_config, removed_at, updated_at) = (" +
      episode_columns("EXCLUDED.") +
      ", EXCLUDED.position, EXCLUDED.search_config, NULL,"
      "  CASE WHEN (" +
      episode_columns("episodes.") + ") IS DISTINCT FROM (" + episode_columns("EXCLUDED.") +
      ")  OR episodes.removed_at IS NOT NULL"
      "  THEN EXCLUDED.updated_at ELSE episodes.updated_at END)"
      " WHERE (" +
      episode_columns("episodes.") +
      ", episodes.position, episodes.search_config) IS DISTINCT FROM (" +
      episode_columns("EXCLUDED.") +
      ", EXCLUDED.position, EXCLUDED.search_config) OR episodes.removed_at IS NOT NULL"
      " RETURNING updated_at = to_timestamp($3::bigint)";
  const std::string episodes_json =
      batch.episodes.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  bool changed = false;
  for (const auto& row : txn.exec_params(k_sql, show_id, episodes_json, now)) {
    changed = changed || row[0].as<bool>();
  }
  return changed;
}

// Mark the show's episodes that are not in the feed any more as removed. True when any was.
bool mark_vanished_episodes(pqxx::work& txn, std::int64_t show_id, const EpisodeBatch& batch,
                            std::int64_t now) {
  const std::string keys_json =
      batch.keys.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  const auto vanished = txn.exec_params(
      "UPDATE episodes SET removed_at = to_timestamp($3::bigint),"
      " updated_at = to_timestamp($3::bigint)"
      " WHERE show_id = $1 AND removed_at IS NULL"
      " AND key NOT IN (SELECT jsonb_array_elements_text($2::jsonb)) RETURNING id",
      show_id, keys_json, now);
  return !vanished.empty();
}

} // namespace

SaveOutcome Database::record_success(std::int64_t feed_id, const FetchMeta& meta,
                                     const feed::Show& show, std::int64_t now,
                                     std::int64_t next_fetch_at) {
  return guarded(m_impl->redacted_url, "store show", [&] {
    pqxx::work txn(m_impl->connection);
    // Locking the feed row serializes saves of one show.
    const auto feed = txn.exec_params("SELECT status FROM feeds WHERE id = $1 FOR UPDATE", feed_id);
    if (feed.empty()) {
      throw core::EnvironmentError("feed " + std::to_string(feed_id) + " is not listed");
    }
    const bool active = feed[0][0].as<std::string>() != "removed";

    const StoredShowRow stored = upsert_show(txn, feed_id, show, active, now);
    replace_categories(txn, stored.id, show.categories);
    const EpisodeBatch batch = episode_batch(txn, stored.id, show.episodes);
    const bool episodes_changed = upsert_episodes(txn, stored.id, batch, now);
    const bool episodes_vanished = mark_vanished_episodes(txn, stored.id, batch, now);
    if (!stored.changed && (episodes_changed || episodes_vanished)) {
      txn.exec_params("UPDATE shows SET updated_at = to_timestamp($2::bigint) WHERE id = $1",
                      stored.id, now);
    }

    txn.exec_params(
        "INSERT INTO fetches (feed_id, fetched_at, outcome, http_status, new_episodes)"
        " VALUES ($1, to_timestamp($2::bigint), 'ok', $3, $4)",
        feed_id, now, meta.http_status, batch.new_episodes);
    txn.exec_params(
        "UPDATE feeds SET status = CASE WHEN status = 'removed' THEN status ELSE 'active' END,"
        " failures = 0, last_status = $2, last_error = '', etag = $3, last_modified = $4,"
        " last_fetch_at = to_timestamp($5::bigint), next_fetch_at = to_timestamp($6::bigint),"
        " lease_until = NULL, show_id = $7"
        " WHERE id = $1",
        feed_id, meta.http_status, bounded_text(meta.etag, k_max_error_bytes),
        bounded_text(meta.last_modified, k_max_error_bytes), now, next_fetch_at, stored.id);
    txn.commit();
    return SaveOutcome{stored.slug, batch.new_episodes};
  });
}

} // namespace podcrawl::store

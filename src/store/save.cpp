#include "podcrawl/store/fetch_outcomes.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include "podcrawl/core/error.hpp"
#include "podcrawl/core/hash.hpp"
#include "podcrawl/core/json_string.hpp"
#include "podcrawl/feed/json.hpp"
#include "podcrawl/feed/model.hpp"
#include "podcrawl/l10n/localizer.hpp"
#include "podcrawl/search/analyze.hpp"
#include "podcrawl/store/identity.hpp"
#include "store_internal.hpp"

// Saving a parsed feed. One transaction per feed, a fixed handful of statements whatever the
// number of episodes (they travel as one JSON parameter), and no row is written when nothing
// changed: every UPDATE compares with IS DISTINCT FROM first, so storing the same parse again
// leaves shows, episodes and categories untouched (only the feed's fetch state and history move).
//
// Concurrency: the feed row is locked for the whole save, the show row too once found, so two
// feeds of one show (same podcast:guid) save one after the other. Nothing global is locked: a new
// show's slug is claimed with INSERT ... ON CONFLICT (slug) DO NOTHING and the next suffix on a
// clash, and an advisory lock on the hash of the show's identity is taken only while a feed
// without a show looks for (or creates) the show it belongs to.

namespace podcrawl::store {
namespace {

using internal::bounded_text;
using internal::episode_search_vector;
using internal::exec_named;
using internal::guarded;
using internal::k_max_art_url_bytes;
using internal::k_max_categories;
using internal::k_max_category_bytes;
using internal::k_max_error_bytes;
using internal::k_max_language_bytes;
using internal::k_max_search_notes_bytes;
using internal::k_pictured_episodes;
using internal::notify_show_changed;
using internal::nullable;
using internal::remember_typo_words;
using internal::search_notes;
using internal::show_search_vector;
using internal::storable_text;
using internal::typo_words_to_write;
using internal::write_typo_words;

// Longest episode key stored as is; longer ones are cut and suffixed with a hash of the whole
// key so they stay unique and fit the index.
constexpr std::size_t k_max_episode_key_bytes = 1000;
// Episode dates outside years 1..9999 are treated as absent.
constexpr std::int64_t k_min_stored_time = -62135596800;
constexpr std::int64_t k_max_stored_time = 253402300799;
// Suffixes tried for a new show's slug before giving up.
constexpr int k_max_slug_attempts = 100000;

std::string hex_suffix(std::uint64_t hash) {
  char suffix[24];
  std::snprintf(suffix, sizeof suffix, "#%016llx", static_cast<unsigned long long>(hash));
  return suffix;
}

std::string stored_episode_key(const feed::Episode& episode) {
  std::string key = storable_text(feed::episode_key(episode));
  if (key.size() <= k_max_episode_key_bytes) {
    return key;
  }
  return bounded_text(key, k_max_episode_key_bytes - 17) + hex_suffix(core::fnv1a_64(key));
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

// The feed being saved and its show, both locked for the transaction (feed first, as every
// other writer does). The transaction's commit does not wait for the disk
// (commit_without_flush_wait explains why), and its statements run on their generic plans: the
// save's statements look rows up by key, so a plan made for one feed's values is no better than
// one made once, and planning the episode write anew for every feed cost a tenth of a first
// crawl's rate (scripts/bench-crawl).
struct FeedRow {
  std::string url;
  bool active = true;
  std::optional<std::int64_t> show_id;
};

FeedRow lock_feed(pqxx::work& txn, std::int64_t feed_id) {
  static const std::string k_sql =
      "SELECT set_config('synchronous_commit', 'off', true),"
      " set_config('plan_cache_mode', 'force_generic_plan', true), f.status, f.url,"
      " (SELECT s.id FROM shows s WHERE s.id = coalesce(f.show_id,"
      "   (SELECT o.id FROM shows o WHERE o.feed_id = f.id)) FOR UPDATE)"
      " FROM feeds f WHERE f.id = $1 FOR UPDATE OF f";
  const auto rows = exec_named(txn, "podcrawl_lock_feed", k_sql, feed_id);
  if (rows.empty()) {
    throw core::EnvironmentError("feed " + std::to_string(feed_id) + " is not listed");
  }
  return {rows[0][3].as<std::string>(), rows[0][2].as<std::string>() != "removed",
          nullable<std::int64_t>(rows[0][4])};
}

// The show's columns as stored.
struct ShowValues {
  std::string title, link, description, language, image, author;
  std::string search_notes; // the description's index text (search::index_text)
  std::optional<std::string> detected_language;
  std::string effective_language; // what search, pages and language lists use
  std::optional<bool> explicit_content;
  std::string podcast_guid, new_feed_url, identity_guid;
  std::optional<std::string> itunes, podcast; // jsonb text, nullopt when the feed has none
  std::string search_title, search_author;    // search::title_index_text, search::index_text
  std::string language_group;                 // l10n::language_group(effective_language)
};

// A namespace object as stored: its JSON text, nullopt when it holds nothing.
template <typename Fields>
std::optional<std::string> namespace_json(const Fields& fields) {
  const nlohmann::json json = fields;
  if (json.is_null()) {
    return std::nullopt;
  }
  return json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

ShowValues show_values(const feed::Show& show, const std::string& feed_url) {
  std::string description = storable_text(show.description);
  std::string notes = search::index_text(search_notes(description, k_max_search_notes_bytes));
  std::string title = storable_text(show.title);
  std::string author = storable_text(show.author);
  std::string search_title = search::title_index_text(title);
  std::string search_author = search::index_text(author);
  return {
      std::move(title),
      storable_text(show.link),
      std::move(description),
      storable_text(show.language),
      storable_text(show.image),
      std::move(author),
      std::move(notes),
      show.detected_language ? std::optional(storable_text(*show.detected_language)) : std::nullopt,
      storable_text(show.effective_language),
      show.explicit_content,
      storable_text(show.podcast_guid),
      storable_text(show.new_feed_url),
      storable_text(show_identity(show.podcast_guid, feed_url)),
      namespace_json(show.itunes),
      namespace_json(show.podcast),
      std::move(search_title),
      std::move(search_author),
      l10n::language_group(show.effective_language)};
}

// The feed's categories as a JSON array of [name, slug, language]: bounded, deduplicated, in
// order. The slug and the show's language are stored with a name the first time it is seen.
std::string categories_json(const std::vector<std::string>& categories,
                            const std::string& language) {
  nlohmann::json names = nlohmann::json::array();
  std::unordered_set<std::string> seen;
  for (const auto& category : categories) {
    if (seen.size() >= k_max_categories) {
      break;
    }
    std::string name = bounded_text(category, k_max_category_bytes);
    if (!name.empty() && seen.insert(name).second) {
      std::string slug = l10n::slugify(name);
      names.push_back({std::move(name), std::move(slug), language});
    }
  }
  return names.dump();
}

// CTEs that make show $show's categories the names in JSON array $names, writing only rows that
// differ (none while $show is NULL); `ids` holds a NULL id for a category another crawler added
// after the statement's snapshot (the caller runs the statement again for it). Each name is
// looked up in the names' index, as free_slugs does for slugs.
std::string category_ctes(const char* show, const char* names) {
  const std::string s = show;
  const std::string n = names;
  return " wanted AS ("
         "  SELECT t.value ->> 0 AS name, t.value ->> 1 AS slug, t.value ->> 2 AS language,"
         "   (ordinality - 1)::integer AS position"
         "  FROM jsonb_array_elements(" +
         n +
         "::jsonb) WITH ORDINALITY AS t(value, ordinality)),"
         " known AS ("
         "  SELECT name, slug, language, position,"
         "   (SELECT c.id FROM categories c WHERE c.name = wanted.name LIMIT 1) AS id"
         "  FROM wanted),"
         " added AS ("
         "  INSERT INTO categories (name, slug, language)"
         "  SELECT name, slug, language FROM known WHERE id IS NULL"
         "  ORDER BY name ON CONFLICT (name) DO NOTHING RETURNING id, name),"
         " ids AS ("
         "  SELECT k.position, coalesce(k.id, a.id) AS id FROM known k"
         "  LEFT JOIN added a ON a.name = k.name),"
         " dropped AS ("
         "  DELETE FROM show_categories sc WHERE sc.show_id = " +
         s +
         "  AND NOT EXISTS (SELECT 1 FROM ids WHERE ids.id = sc.category_id) RETURNING 1),"
         " placed AS ("
         "  INSERT INTO show_categories (show_id, category_id, position)"
         "  SELECT " +
         s + ", ids.id, ids.position FROM ids WHERE ids.id IS NOT NULL AND " + s +
         " IS NOT NULL AND NOT EXISTS ("
         "   SELECT 1 FROM show_categories sc WHERE sc.show_id = " +
         s +
         "   AND sc.category_id = ids.id AND sc.position = ids.position)"
         "  ON CONFLICT (show_id, category_id) DO UPDATE SET position = EXCLUDED.position"
         "  RETURNING 1)";
}

void write_categories(pqxx::work& txn, std::int64_t show_id, const std::string& names) {
  static const std::string k_sql = "WITH" + category_ctes("$1::bigint", "$2") +
                                   " SELECT count(*) FILTER (WHERE id IS NULL) FROM ids";
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (exec_named(txn, "podcrawl_write_categories", k_sql, show_id, names)
            .at(0)[0]
            .as<std::int64_t>() == 0) {
      return;
    }
  }
}

// A show's stored episodes as identity matching needs them.
struct StoredEpisodes {
  std::vector<std::int64_t> ids;
  std::vector<EpisodeIdentity> identities;
  std::set<std::string> keys;
  std::set<std::string> slugs;
};

// From a JSON array of [id, key, slug, guid, enclosure_url, link, title, published, duration].
StoredEpisodes stored_episodes(const std::string& json) {
  StoredEpisodes stored;
  const auto text = [](const nlohmann::json& value) {
    return value.is_string() ? value.get<std::string>() : std::string();
  };
  const auto number = [](const nlohmann::json& value) -> std::optional<std::int64_t> {
    return value.is_number() ? std::optional(value.get<std::int64_t>()) : std::nullopt;
  };
  for (const auto& row : nlohmann::json::parse(json)) {
    stored.ids.push_back(row.at(0).get<std::int64_t>());
    stored.keys.insert(text(row.at(1)));
    stored.slugs.insert(text(row.at(2)));
    stored.identities.push_back({text(row.at(3)), text(row.at(4)), text(row.at(5)), text(row.at(6)),
                                 number(row.at(7)), number(row.at(8))});
  }
  return stored;
}

struct StoredShowRow {
  std::int64_t id = 0;
  std::string slug;
  StoredEpisodes episodes; // empty for a new show
  bool changed = true;     // the show's row or categories were written
};

// For a locked show: write the show's columns and categories where they differ (the feed saving
// it becomes the one that describes it) and read its stored episodes, in one statement.
StoredShowRow save_show(pqxx::work& txn, std::int64_t show_id, std::int64_t feed_id,
                        const ShowValues& v, const std::string& categories, bool active,
                        std::int64_t now) {
  static const std::string k_sql =
      "WITH changed AS ("
      "  UPDATE shows SET (title, link, description, language, image, author, explicit,"
      "   podcast_guid, new_feed_url, identity_guid, active, feed_id, itunes, podcast,"
      "   search_config, search_notes, detected_language, effective_language, search_title,"
      "   search_author, language_group, search_vector, updated_at) ="
      "   ($2, $3, $4, $5, $6, $7, $8::boolean, $9, $10, $11, $12::boolean, $13::bigint,"
      "    $16::jsonb, $17::jsonb, podcrawl_search_config($20), $18, $19, $20, $21, $22, $23, " +
      show_search_vector("podcrawl_search_config($20)", "$21::text", "$22::text", "$18::text") +
      ",    to_timestamp($14::bigint))"
      "  WHERE id = $1 AND (title, link, description, language, image, author, explicit,"
      "   podcast_guid, new_feed_url, identity_guid, active, feed_id, itunes, podcast,"
      "   search_config, search_notes, detected_language, effective_language, search_title,"
      "   search_author, language_group)"
      "   IS DISTINCT FROM"
      "   ($2::text, $3::text, $4::text, $5::text, $6::text, $7::text, $8::boolean, $9::text,"
      "    $10::text, $11::text, $12::boolean, $13::bigint, $16::jsonb, $17::jsonb,"
      "    podcrawl_search_config($20), $18::text, $19::text, $20::text, $21::text, $22::text,"
      "    $23::text)"
      "  RETURNING id)," +
      category_ctes("$1::bigint", "$15") +
      " SELECT (SELECT slug FROM shows WHERE id = $1),"
      "  (SELECT count(*) FILTER (WHERE id IS NULL) FROM ids),"
      "  (SELECT coalesce(json_agg(json_build_array(id, key, slug, guid, enclosure_url, link,"
      "    title, extract(epoch FROM published)::bigint, duration_seconds) ORDER BY id), '[]')"
      "   FROM episodes WHERE show_id = $1),"
      "  EXISTS (SELECT 1 FROM changed) OR EXISTS (SELECT 1 FROM dropped)"
      "   OR EXISTS (SELECT 1 FROM placed)";
  const auto row =
      exec_named(txn, "podcrawl_save_show", k_sql, show_id, v.title, v.link, v.description,
                 v.language, v.image, v.author, v.explicit_content, v.podcast_guid, v.new_feed_url,
                 v.identity_guid, active, feed_id, now, categories, v.itunes, v.podcast,
                 v.search_notes, v.detected_language, v.effective_language, v.search_title,
                 v.search_author, v.language_group)
          .at(0);
  if (row[0].is_null()) {
    throw core::EnvironmentError("show " + std::to_string(show_id) + " vanished while saving");
  }
  bool changed = row[3].as<bool>();
  if (row[1].as<std::int64_t>() != 0) {
    write_categories(txn, show_id, categories);
    changed = true;
  }
  return {show_id, row[0].as<std::string>(), stored_episodes(row[2].as<std::string>()), changed};
}

// Slugs offered to one INSERT of a new show once the base alone was refused: base-N, ...
constexpr int k_slug_candidates = 64;

// The rows of JSON array `candidates` (slug, ordinality) that no show has as its slug. Each is
// looked up in the slug index: written as EXISTS, the planner may join the candidates with every
// show by hashing the whole table, once per new show.
std::string free_slugs(const char* candidates) {
  return std::string(" FROM jsonb_array_elements_text(") + candidates +
         "::jsonb) WITH ORDINALITY AS c(slug, ordinality)"
         " WHERE (SELECT s.id FROM shows s WHERE s.slug = c.slug LIMIT 1) IS NULL";
}

// Insert the show with its categories; returns its id.
std::int64_t insert_show(pqxx::work& txn, std::int64_t feed_id, const ShowValues& v,
                         const std::string& categories, bool active, std::int64_t now,
                         std::string& slug) {
  const std::string base = slug_base(v.title, "show");
  // Most shows get their base slug: the first round offers it alone.
  for (int first = 1, count = 1; first < k_max_slug_attempts;
       first += count, count = k_slug_candidates) {
    nlohmann::json candidates = nlohmann::json::array();
    for (int n = first; n < first + count; ++n) {
      candidates.push_back(n == 1 ? base : base + "-" + std::to_string(n));
    }
    // The first candidate no show has; if another crawler takes it meanwhile, ON CONFLICT
    // leaves nothing inserted and the round is offered again (base to base-64 after the first).
    static const std::string k_insert =
        "WITH inserted AS ("
        "  INSERT INTO shows (feed_id, slug, title, link, description, language, image, author,"
        "  explicit, podcast_guid, new_feed_url, identity_guid, active, itunes, podcast,"
        "  search_config, search_notes, detected_language, effective_language, search_title,"
        "  search_author, language_group, search_vector, added_at, updated_at)"
        "  SELECT $1, c.slug, $3, $4, $5, $6, $7, $8, $9::boolean, $10, $11, $12, $13::boolean,"
        "   $15::jsonb, $16::jsonb, podcrawl_search_config($20), $18, $19, $20, $21, $22, $23, " +
        show_search_vector("podcrawl_search_config($20)", "$21::text", "$22::text", "$18::text") +
        ",   to_timestamp($14::bigint), to_timestamp($14::bigint)" + free_slugs("$2") +
        "  ORDER BY c.ordinality LIMIT 1"
        "  ON CONFLICT (slug) DO NOTHING RETURNING id, slug)," +
        category_ctes("(SELECT id FROM inserted)", "$17") +
        " SELECT id, slug, (SELECT count(*) FILTER (WHERE id IS NULL) FROM ids) FROM inserted";
    const auto inserted =
        exec_named(txn, "podcrawl_insert_show", k_insert, feed_id, candidates.dump(), v.title,
                   v.link, v.description, v.language, v.image, v.author, v.explicit_content,
                   v.podcast_guid, v.new_feed_url, v.identity_guid, active, now, v.itunes,
                   v.podcast, categories, v.search_notes, v.detected_language, v.effective_language,
                   v.search_title, v.search_author, v.language_group);
    if (!inserted.empty()) {
      slug = inserted[0][1].as<std::string>();
      const auto id = inserted[0][0].as<std::int64_t>();
      if (inserted[0][2].as<std::int64_t>() != 0) {
        write_categories(txn, id, categories);
      }
      return id;
    }
    static const std::string k_free = "SELECT count(*)" + free_slugs("$1");
    if (exec_named(txn, "podcrawl_count_free_slugs", k_free, candidates.dump())[0][0]
            .as<std::int64_t>() > 0) {
      first -= count; // lost a race for a free one: look at the same ones again
    }
  }
  throw core::EnvironmentError("no free slug for show \"" + base + "\"");
}

// A feed without a show joins the show that has its identity (the same podcast at another
// URL), else gets a new one.
StoredShowRow attach_or_insert_show(pqxx::work& txn, std::int64_t feed_id, const ShowValues& v,
                                    const std::string& categories, bool active, std::int64_t now) {
  // Serializes only feeds of the same podcast looking for their show at the same moment.
  // Two statements: the lookup needs a snapshot taken after the lock is granted, so that it sees
  // the show a feed of the same podcast may have just committed.
  static const std::string k_lock = "SELECT pg_advisory_xact_lock($1::bigint)";
  static const std::string k_find =
      "SELECT id FROM shows WHERE identity_guid = $1 AND identity_guid <> ''"
      " ORDER BY id LIMIT 1 FOR UPDATE";
  exec_named(txn, "podcrawl_lock_show_identity", k_lock,
             static_cast<std::int64_t>(core::fnv1a_64("show identity " + v.identity_guid)));
  const auto found = exec_named(txn, "podcrawl_find_show", k_find, v.identity_guid);
  const auto existing =
      found.empty() ? std::nullopt : std::optional(found[0][0].as<std::int64_t>());
  if (existing) {
    return save_show(txn, *existing, feed_id, v, categories, active, now);
  }
  StoredShowRow stored;
  stored.id = insert_show(txn, feed_id, v, categories, active, now, stored.slug);
  return stored;
}

// JSON text written field by field: the batch of a feed's episodes is built for every save, and
// a JSON document of objects for it costs the crawler more than writing the text does. Strings
// must be valid UTF-8 (storable_text); only '"', '\\' and control characters are escaped.
class JsonObjectWriter {
public:
  explicit JsonObjectWriter(std::string& out) : m_out(out) {}
  JsonObjectWriter(const JsonObjectWriter&) = delete;
  JsonObjectWriter& operator=(const JsonObjectWriter&) = delete;
  ~JsonObjectWriter() { m_out += m_first ? "{}" : "}"; }

  void text(std::string_view name, std::string_view value) {
    key(name);
    append_string(m_out, value);
  }
  void number(std::string_view name, std::optional<std::int64_t> value) {
    key(name);
    m_out += value ? std::to_string(*value) : "null";
  }
  void boolean(std::string_view name, std::optional<bool> value) {
    key(name);
    m_out += value ? (*value ? "true" : "false") : "null";
  }
  // A value that is JSON text already; nullopt is null.
  void json(std::string_view name, const std::optional<std::string>& value) {
    key(name);
    m_out += value ? *value : "null";
  }
  // Starts the value of `name`; the caller writes it.
  std::string& value(std::string_view name) {
    key(name);
    return m_out;
  }

  static void append_string(std::string& out, std::string_view text) {
    out += '"';
    core::append_json_escaped(out, text, core::k_json_unicode_escapes);
    out += '"';
  }

private:
  void key(std::string_view name) {
    m_out += m_first ? '{' : ',';
    m_first = false;
    append_string(m_out, name);
    m_out += ':';
  }

  std::string& m_out;
  bool m_first = true;
};

// Appends the episode as the JSON object the write reads (json_to_recordset there); returns
// the index text of its title.
std::string append_episode_json(std::string& out, const feed::Episode& episode,
                                std::optional<std::int64_t> id, const std::string& key,
                                const std::string& slug, int position) {
  const std::string description = storable_text(episode.description);
  JsonObjectWriter object(out);
  object.number("id", id);
  object.text("key", key);
  object.text("slug", slug);
  object.text("guid", storable_text(episode.guid));
  object.text("title", storable_text(episode.title));
  object.number("published", stored_time(episode.published));
  object.text("enclosure_url", storable_text(episode.enclosure_url));
  object.text("enclosure_type", storable_text(episode.enclosure_type));
  object.number("enclosure_length", episode.enclosure_length);
  object.number("duration_seconds", episode.duration_seconds);
  object.text("link", storable_text(episode.link));
  object.text("description", description);
  object.text("search_notes",
              search::index_text(search_notes(description, k_max_search_notes_bytes)));
  std::string search_title = search::index_text(episode.title);
  object.text("search_title", search_title);
  object.number("season", episode.season);
  object.number("episode", episode.episode);
  object.boolean("explicit", episode.explicit_content);
  object.text("image", storable_text(episode.image));
  std::string& transcripts = object.value("transcripts");
  transcripts += '[';
  for (const auto& transcript : episode.transcripts) {
    transcripts += transcripts.back() == '[' ? "" : ",";
    JsonObjectWriter entry(transcripts);
    entry.text("url", storable_text(transcript.url));
    entry.text("type", storable_text(transcript.type));
  }
  transcripts += ']';
  object.text("chapters_url", storable_text(episode.chapters_url));
  object.json("itunes", namespace_json(episode.itunes));
  object.json("podcast", namespace_json(episode.podcast));
  object.number("position", position);
  return search_title;
}

// The feed's episodes as one JSON array for the write: matched ones carry the id of the row
// they update, new ones a fresh key and slug. Counts the new episodes.
struct EpisodeBatch {
  std::string episodes_json;
  std::int64_t new_episodes = 0;
  std::string new_titles; // the new episodes' titles' index text, space-separated
};

EpisodeBatch episode_batch(StoredEpisodes stored, const feed::Show& show) {
  std::vector<EpisodeIdentity> incoming;
  incoming.reserve(show.episodes.size());
  for (const auto& episode : show.episodes) {
    incoming.push_back(identity_of(episode));
  }
  const EpisodeMatches matches = match_episodes(stored.identities, incoming, show.link);
  EpisodeBatch batch;
  std::string& out = batch.episodes_json;
  out += '[';
  for (std::size_t k = 0; k < matches.kept.size(); ++k) {
    const feed::Episode& episode = show.episodes[matches.kept[k]];
    const int position = static_cast<int>(k);
    out += k == 0 ? "" : ",";
    if (const auto s = matches.stored[k]) {
      append_episode_json(out, episode, stored.ids[*s], "", "", position);
      continue;
    }
    std::string key = stored_episode_key(episode);
    if (stored.keys.contains(key)) {
      key = bounded_text(key, k_max_episode_key_bytes - 17) +
            hex_suffix(core::fnv1a_64(key + "#" + std::to_string(stored.keys.size())));
    }
    stored.keys.insert(key);
    std::string slug = unique_slug(slug_base(episode.title, "episode"), stored.slugs);
    stored.slugs.insert(slug);
    ++batch.new_episodes;
    batch.new_titles += append_episode_json(out, episode, std::nullopt, key, slug, position);
    batch.new_titles += ' ';
  }
  out += ']';
  return batch;
}

// The episode columns compared to decide whether a stored episode changed.
constexpr std::array<std::string_view, 17> k_episode_columns = {"guid",
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
                                                                "chapters_url",
                                                                "itunes",
                                                                "podcast"};

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

// The batch's columns as read from jsonb_to_recordset, converted to the stored types.
const std::string k_batch_values =
    "r.guid, r.title, to_timestamp(r.published), r.enclosure_url, r.enclosure_type,"
    " r.enclosure_length, r.duration_seconds, r.link, r.description, r.season, r.episode,"
    " r.explicit, r.image, coalesce(r.transcripts, '[]'), r.chapters_url,"
    " r.itunes, r.podcast";

// One statement: update the matched episodes that differ (or come back), insert the new ones,
// mark those no longer in the feed as removed, touch the show's updated_at when any of that
// happened, and record the fetch in the feed's state and history.
// Returns true when an episode was added, changed (its place in the list included) or removed.
bool write_episodes_and_fetch(pqxx::work& txn, std::int64_t feed_id, std::int64_t show_id,
                              const EpisodeBatch& batch, const std::string& typo_words,
                              const FetchMeta& meta, std::int64_t now, std::int64_t next_fetch_at) {
  static const std::string k_sql =
      "WITH r AS ("
      "  SELECT * FROM json_to_recordset($2::json) AS r(id bigint, key text, slug text,"
      "   guid text, title text, published bigint, enclosure_url text, enclosure_type text,"
      "   enclosure_length bigint, duration_seconds bigint, link text, description text,"
      "   season integer, episode integer, explicit boolean, image text, transcripts jsonb,"
      "   chapters_url text, itunes jsonb, podcast jsonb, position integer, search_notes text,"
      "   search_title text)),"
      " cfg AS (SELECT search_config FROM shows WHERE id = $1),"
      " changed AS ("
      "  UPDATE episodes e SET (" +
      episode_columns() +
      ", position, search_notes, search_title, search_vector, search_config, removed_at,"
      " updated_at) = (" +
      k_batch_values + ", r.position, r.search_notes, r.search_title, " +
      episode_search_vector("cfg.search_config", "r.search_title", "r.search_notes") +
      ", cfg.search_config, NULL,"
      "   CASE WHEN (" +
      episode_columns("e.") + ") IS DISTINCT FROM (" + k_batch_values +
      ") OR e.removed_at IS NOT NULL THEN to_timestamp($3::bigint) ELSE e.updated_at END)"
      "  FROM r, cfg WHERE r.id IS NOT NULL AND e.id = r.id AND e.show_id = $1 AND ((" +
      episode_columns("e.") + ", e.position, e.search_config, e.search_title) IS DISTINCT FROM (" +
      k_batch_values +
      ", r.position, cfg.search_config, r.search_title) OR e.removed_at IS NOT NULL)"
      "  RETURNING e.updated_at = to_timestamp($3::bigint) AS content_changed),"
      " added AS ("
      "  INSERT INTO episodes (show_id, key, slug, " +
      episode_columns() +
      ", position, search_notes, search_title, search_vector, first_seen_at, updated_at,"
      " search_config)"
      "  SELECT $1, r.key, r.slug, " +
      k_batch_values + ", r.position, r.search_notes, r.search_title, " +
      episode_search_vector("cfg.search_config", "r.search_title", "r.search_notes") +
      ", to_timestamp($3::bigint), to_timestamp($3::bigint), cfg.search_config"
      "  FROM r, cfg WHERE r.id IS NULL RETURNING 1),"
      // The words of the show's title and of new episodes' titles a query's word with a typo
      // may be corrected to ($11: typo_words_to_write).
      " vocabulary AS (" +
      write_typo_words("$11") +
      " RETURNING 1),"
      " vanished AS ("
      "  UPDATE episodes e SET removed_at = to_timestamp($3::bigint),"
      "   updated_at = to_timestamp($3::bigint)"
      "  WHERE e.show_id = $1 AND e.removed_at IS NULL"
      "   AND NOT EXISTS (SELECT 1 FROM r WHERE r.id = e.id) RETURNING 1),"
      // The newest episodes' own pictures, when they differ from the show's, join the cover
      // art the crawl fetches (a URL already listed stays as it is), linked to the show so
      // that a new picture marks it changed. In URL order: two saves listing the same URLs
      // take their locks in one order and never deadlock.
      " own_pictures AS ("
      "  SELECT DISTINCT n.image"
      "  FROM (SELECT r.image FROM r ORDER BY r.published DESC NULLS LAST, r.position LIMIT " +
      std::to_string(k_pictured_episodes) +
      ") n, shows s"
      "  WHERE s.id = $1 AND n.image <> '' AND n.image <> s.image AND octet_length(n.image) <= " +
      std::to_string(k_max_art_url_bytes) +
      "),"
      " pictured AS ("
      "  INSERT INTO artwork (url) SELECT image FROM own_pictures ORDER BY image"
      "  ON CONFLICT (url) DO NOTHING RETURNING 1),"
      " linked AS ("
      "  INSERT INTO artwork_shows (url, show_id) SELECT image, $1 FROM own_pictures"
      "  ORDER BY image ON CONFLICT DO NOTHING RETURNING 1),"
      " touched AS ("
      "  UPDATE shows SET updated_at = to_timestamp($3::bigint)"
      "  WHERE id = $1 AND updated_at <> to_timestamp($3::bigint)"
      "   AND (EXISTS (SELECT 1 FROM changed WHERE content_changed)"
      "    OR EXISTS (SELECT 1 FROM added) OR EXISTS (SELECT 1 FROM vanished)) RETURNING 1),"
      " state AS ("
      "  UPDATE feeds SET status = CASE WHEN status = 'removed' THEN status ELSE 'active' END,"
      "  failures = 0, failure_score = 0, last_status = $5, last_error = '', etag = $6,"
      "  last_modified = $7,"
      "  content_hash = $8, last_fetch_at = to_timestamp($3::bigint),"
      "  next_fetch_at = to_timestamp($9::bigint), lease_until = NULL, show_id = $1"
      "  WHERE id = $4 RETURNING id)"
      " INSERT INTO fetches (feed_id, fetched_at, outcome, http_status, new_episodes)"
      " SELECT id, to_timestamp($3::bigint), 'ok', $5, $10 FROM state"
      " RETURNING EXISTS (SELECT 1 FROM changed) OR EXISTS (SELECT 1 FROM added)"
      "  OR EXISTS (SELECT 1 FROM vanished)";
  const auto result =
      exec_named(txn, "podcrawl_write_episodes", k_sql, show_id, batch.episodes_json, now, feed_id,
                 meta.http_status, bounded_text(meta.etag, k_max_error_bytes),
                 bounded_text(meta.last_modified, k_max_error_bytes),
                 bounded_text(meta.content_hash, k_max_error_bytes), next_fetch_at,
                 batch.new_episodes, typo_words);
  return result.empty() || result[0][0].as<bool>();
}

} // namespace

SaveOutcome FetchOutcomes::record_success(std::int64_t feed_id, const FetchMeta& meta,
                                          const feed::Show& show, std::int64_t now,
                                          std::int64_t next_fetch_at) {
  return guarded(m_impl->redacted_url, "store show", [&] {
    pqxx::work txn(m_impl->connection);
    const FeedRow feed = lock_feed(txn, feed_id);
    const ShowValues values = show_values(show, feed.url);
    const std::string categories =
        categories_json(show.categories, bounded_text(show.language, k_max_language_bytes));
    StoredShowRow stored =
        feed.show_id ? save_show(txn, *feed.show_id, feed_id, values, categories, feed.active, now)
                     : attach_or_insert_show(txn, feed_id, values, categories, feed.active, now);
    const EpisodeBatch batch = episode_batch(std::move(stored.episodes), show);
    const std::string typo_words = typo_words_to_write(values.search_title + " " + batch.new_titles,
                                                       m_impl->typo_words_written);
    const bool episodes_changed = write_episodes_and_fetch(txn, feed_id, stored.id, batch,
                                                           typo_words, meta, now, next_fetch_at);
    if (stored.changed || episodes_changed) {
      notify_show_changed(txn, stored.slug);
    }
    txn.commit();
    remember_typo_words(typo_words, m_impl->typo_words_written);
    return SaveOutcome{stored.slug, batch.new_episodes};
  });
}

} // namespace podcrawl::store

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "podcrawl/feed/json.hpp"
#include "store_internal.hpp"

namespace podcrawl::store {
namespace {

// Reads that span several statements see one snapshot.
using SnapshotTransaction = pqxx::transaction<pqxx::repeatable_read, pqxx::read_only>;

// The columns show_from_row reads, from `shows s JOIN feeds f`.
constexpr const char* k_show_columns =
    "s.id, s.slug, f.url, s.active, extract(epoch FROM s.added_at)::bigint,"
    " extract(epoch FROM s.updated_at)::bigint, s.title, s.link, s.description, s.language,"
    " s.image, s.author, s.explicit, s.podcast_guid, s.new_feed_url, s.itunes::text,"
    " s.podcast::text";

// The columns add_episode reads (after show_id), current episodes only, newest first.
constexpr const char* k_episode_query =
    "SELECT show_id, slug, guid, title, extract(epoch FROM published)::bigint, enclosure_url,"
    " enclosure_type, enclosure_length, duration_seconds, link, description, season, episode,"
    " explicit, image, transcripts::text, chapters_url, itunes::text, podcast::text"
    " FROM episodes"
    " WHERE removed_at IS NULL AND ($1::bigint IS NULL OR show_id = $1::bigint)"
    " ORDER BY show_id, published DESC NULLS LAST, position";

constexpr const char* k_category_query =
    "SELECT sc.show_id, c.name FROM show_categories sc JOIN categories c ON c.id = sc.category_id"
    " WHERE $1::bigint IS NULL OR sc.show_id = $1::bigint"
    " ORDER BY sc.show_id, sc.position";

// A namespace column as to_json wrote it; NULL or unreadable JSON leaves the fields empty.
template <typename Fields>
void read_namespace(const pqxx::field& field, Fields& fields) {
  if (field.is_null()) {
    return;
  }
  const auto parsed = nlohmann::json::parse(field.c_str(), nullptr, false);
  if (parsed.is_object()) {
    fields = parsed.get<Fields>();
  }
}

StoredShow show_from_row(const pqxx::row& row) {
  StoredShow stored;
  stored.slug = row[1].as<std::string>();
  stored.feed_url = row[2].as<std::string>();
  stored.active = row[3].as<bool>();
  stored.added_at = row[4].as<std::int64_t>();
  stored.updated_at = row[5].as<std::int64_t>();
  feed::Show& show = stored.show;
  show.title = row[6].as<std::string>();
  show.link = row[7].as<std::string>();
  show.description = row[8].as<std::string>();
  show.language = row[9].as<std::string>();
  show.image = row[10].as<std::string>();
  show.author = row[11].as<std::string>();
  show.explicit_content = nullable<bool>(row[12]);
  show.podcast_guid = row[13].as<std::string>();
  show.new_feed_url = row[14].as<std::string>();
  show.feed_url = stored.feed_url;
  read_namespace(row[15], show.itunes);
  read_namespace(row[16], show.podcast);
  return stored;
}

std::string string_member(const nlohmann::json& object, const char* name) {
  const auto found = object.find(name);
  if (found == object.end() || !found->is_string()) {
    return {};
  }
  return found->get<std::string>();
}

std::vector<feed::Transcript> transcripts_from_json(const std::string& text) {
  std::vector<feed::Transcript> transcripts;
  const auto parsed = nlohmann::json::parse(text, nullptr, false);
  if (!parsed.is_array()) {
    return transcripts;
  }
  for (const auto& item : parsed) {
    if (item.is_object()) {
      transcripts.push_back({string_member(item, "url"), string_member(item, "type")});
    }
  }
  return transcripts;
}

void add_episode(const pqxx::row& row, StoredShow& stored) {
  feed::Episode episode;
  episode.guid = row[2].as<std::string>();
  episode.title = row[3].as<std::string>();
  episode.published = nullable<std::int64_t>(row[4]);
  episode.enclosure_url = row[5].as<std::string>();
  episode.enclosure_type = row[6].as<std::string>();
  episode.enclosure_length = nullable<std::int64_t>(row[7]);
  episode.duration_seconds = nullable<std::int64_t>(row[8]);
  episode.link = row[9].as<std::string>();
  episode.description = row[10].as<std::string>();
  episode.season = nullable<int>(row[11]);
  episode.episode = nullable<int>(row[12]);
  episode.explicit_content = nullable<bool>(row[13]);
  episode.image = row[14].as<std::string>();
  episode.transcripts = transcripts_from_json(row[15].as<std::string>());
  episode.chapters_url = row[16].as<std::string>();
  read_namespace(row[17], episode.itunes);
  read_namespace(row[18], episode.podcast);
  stored.show.episodes.push_back(std::move(episode));
  stored.episode_slugs.push_back(row[1].as<std::string>());
}

// Load the shows `shows_result` names with their categories and current episodes; show_id
// restricts the detail queries to one show (nullopt: all).
std::vector<StoredShow> assemble_shows(SnapshotTransaction& txn, const pqxx::result& shows_result,
                                       std::optional<std::int64_t> show_id) {
  std::vector<StoredShow> shows;
  std::map<std::int64_t, std::size_t> index_by_id;
  for (const auto& row : shows_result) {
    index_by_id.emplace(row[0].as<std::int64_t>(), shows.size());
    shows.push_back(show_from_row(row));
  }
  for (const auto& row : txn.exec_params(k_category_query, show_id)) {
    if (const auto found = index_by_id.find(row[0].as<std::int64_t>());
        found != index_by_id.end()) {
      shows[found->second].show.categories.push_back(row[1].as<std::string>());
    }
  }
  for (const auto& row : txn.exec_params(k_episode_query, show_id)) {
    if (const auto found = index_by_id.find(row[0].as<std::int64_t>());
        found != index_by_id.end()) {
      add_episode(row, shows[found->second]);
    }
  }
  return shows;
}

} // namespace

std::optional<StoredShow> Database::load_show(const std::string& feed_url_or_slug) {
  return guarded(m_impl->redacted_url, "load show", [&]() -> std::optional<StoredShow> {
    SnapshotTransaction txn(m_impl->connection);
    const auto result = txn.exec_params(std::string("SELECT ") + k_show_columns +
                                            " FROM shows s JOIN feeds f ON f.id = s.feed_id"
                                            " WHERE s.slug = $1"
                                            "  OR s.id = (SELECT show_id FROM feeds WHERE url = $1)"
                                            " ORDER BY (s.slug = $1) LIMIT 1",
                                        feed_url_or_slug);
    if (result.empty()) {
      return std::nullopt;
    }
    auto shows = assemble_shows(txn, result, result[0][0].as<std::int64_t>());
    txn.commit();
    return std::move(shows.front());
  });
}

std::vector<StoredShow> Database::load_all_shows() {
  return guarded(m_impl->redacted_url, "load shows", [&] {
    SnapshotTransaction txn(m_impl->connection);
    const auto result = txn.exec(std::string("SELECT ") + k_show_columns +
                                 " FROM shows s JOIN feeds f ON f.id = s.feed_id ORDER BY s.slug");
    auto shows = assemble_shows(txn, result, std::nullopt);
    txn.commit();
    return shows;
  });
}

std::vector<SearchHit> Database::search(const std::string& query, const std::string& language,
                                        int limit) {
  const std::string text = bounded_text(query, k_max_query_bytes);
  limit = std::min(limit, k_max_search_results);
  if (text.empty() || limit <= 0) {
    return {};
  }
  return guarded(m_impl->redacted_url, "search", [&] {
    pqxx::read_transaction txn(m_impl->connection);
    // Without a language each document is matched by the query read in its own language;
    // with one, every document is matched by the query read in that language.
    const auto result = txn.exec_params(
        "WITH q AS ("
        "  SELECT c.cfg, websearch_to_tsquery(c.cfg, $1::text) AS query FROM ("
        "    SELECT DISTINCT search_config AS cfg FROM shows WHERE $2::text = ''"
        "    UNION SELECT podcrawl_search_config($2::text) WHERE $2::text <> '') c"
        "), hits AS ("
        "  SELECT s.slug AS show_slug, s.title AS show_title, '' AS episode_slug,"
        "   '' AS episode_title, s.language, ts_rank(s.search_vector, q.query) AS rank"
        "  FROM shows s JOIN q ON s.search_vector @@ q.query"
        "   AND ($2::text <> '' OR s.search_config = q.cfg)"
        "  UNION ALL"
        "  SELECT s.slug, s.title, e.slug, e.title, s.language, ts_rank(e.search_vector, q.query)"
        "  FROM episodes e JOIN shows s ON s.id = e.show_id"
        "   JOIN q ON e.search_vector @@ q.query AND ($2::text <> '' OR e.search_config = q.cfg)"
        "  WHERE e.removed_at IS NULL"
        ") SELECT show_slug, show_title, episode_slug, episode_title, language, rank FROM hits"
        " ORDER BY rank DESC, show_slug, episode_slug LIMIT $3::integer",
        text, storable_text(language), limit);
    txn.commit();
    std::vector<SearchHit> hits;
    hits.reserve(result.size());
    for (const auto& row : result) {
      hits.push_back({row[0].as<std::string>(), row[1].as<std::string>(), row[2].as<std::string>(),
                      row[3].as<std::string>(), row[4].as<std::string>(), row[5].as<double>()});
    }
    return hits;
  });
}

Stats Database::stats() {
  return guarded(m_impl->redacted_url, "stats", [&] {
    SnapshotTransaction txn(m_impl->connection);
    const auto counts = txn.exec1(
        "SELECT"
        " (SELECT count(*) FROM feeds),"
        " (SELECT count(*) FROM feeds WHERE status = 'active'),"
        " (SELECT count(*) FROM feeds WHERE status = 'failing'),"
        " (SELECT count(*) FROM feeds WHERE status = 'gone'),"
        " (SELECT count(*) FROM feeds WHERE status = 'removed'),"
        " (SELECT count(*) FROM shows),"
        " (SELECT count(*) FROM episodes WHERE removed_at IS NULL),"
        " (SELECT count(*) FROM episodes WHERE removed_at IS NOT NULL)");
    Stats stats;
    stats.feeds_total = counts[0].as<std::int64_t>();
    stats.feeds_active = counts[1].as<std::int64_t>();
    stats.feeds_failing = counts[2].as<std::int64_t>();
    stats.feeds_gone = counts[3].as<std::int64_t>();
    stats.feeds_removed = counts[4].as<std::int64_t>();
    stats.shows = counts[5].as<std::int64_t>();
    stats.episodes = counts[6].as<std::int64_t>();
    stats.removed_episodes = counts[7].as<std::int64_t>();
    const auto last = txn.exec(
        "SELECT extract(epoch FROM started_at)::bigint, extract(epoch FROM finished_at)::bigint,"
        " fetched, not_modified, failed, new_episodes"
        " FROM crawl_runs ORDER BY started_at DESC, id DESC LIMIT 1");
    if (!last.empty()) {
      CrawlRunStats run;
      run.started_at = nullable<std::int64_t>(last[0][0]);
      run.finished_at = nullable<std::int64_t>(last[0][1]);
      run.fetched = last[0][2].as<std::int64_t>();
      run.not_modified = last[0][3].as<std::int64_t>();
      run.failed = last[0][4].as<std::int64_t>();
      run.new_episodes = last[0][5].as<std::int64_t>();
      stats.last_crawl = run;
    }
    txn.commit();
    return stats;
  });
}

} // namespace podcrawl::store

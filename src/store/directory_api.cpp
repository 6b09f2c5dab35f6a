#include "podcrawl/store/directory_api.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "rows_internal.hpp"
#include "store_internal.hpp"

// The directory as the APIs read it. Each statement joins what one answer needs, so an answer is
// one round trip; the columns after k_show_columns and k_episode_columns are read by place.

namespace podcrawl::store {

using internal::exec_named;
using internal::guarded;
using internal::k_episode_columns;
using internal::k_listed_show;
using internal::k_show_columns;
using internal::nullable;

namespace {

// Every read of the APIs that its filters can make scan runs within this (milliseconds): a
// request never holds a connection for long.
constexpr const char* k_statement_timeout = "3000";

// The columns of a DirectoryFeed after k_show_columns, from `shows s JOIN feeds f`.
const std::string k_feed_columns =
    std::string(k_show_columns) +
    ", s.identity_guid,"
    " coalesce((SELECT a.url FROM feed_aliases a WHERE a.feed_id = f.id"
    "   ORDER BY a.added_at, a.url LIMIT 1), f.url),"
    " f.status, f.last_status, extract(epoch FROM f.last_fetch_at)::bigint,"
    " (SELECT extract(epoch FROM h.fetched_at)::bigint FROM fetches h WHERE h.feed_id = f.id"
    "   AND h.outcome IN ('ok', 'not_modified') ORDER BY h.fetched_at DESC LIMIT 1),"
    " f.failures,"
    " md5(s.title || s.link || s.language || s.author || coalesce(s.itunes ->> 'owner_name', '')"
    "   || coalesce(s.itunes ->> 'owner_email', '')),"
    // A scalar subquery, not a LATERAL join: with a LIMIT the planner evaluates it for the rows
    // kept only, where recent/feeds with a category filter aggregated every match first (1.8 s
    // against 76 ms for 9,506 shows in the news category of the bench directory). One scan of
    // the show's current episodes for the three figures, read by integer_array.
    " (SELECT ARRAY[count(*), extract(epoch FROM max(e.published))::bigint,"
    "   extract(epoch FROM min(e.published))::bigint]::text FROM episodes e"
    "   WHERE e.show_id = s.id AND e.removed_at IS NULL),"
    // The categories' ids alone: their names come from the connection's CategoryNames. Looked
    // up in the statement, each name cost a scan of the categories (the planner's choice for a
    // small table), a third of the time of reading 40 shows.
    " (SELECT array_agg(sc.category_id ORDER BY sc.position)::text"
    "   FROM show_categories sc WHERE sc.show_id = s.id)";
constexpr pqxx::row::size_type k_feed_extra = 20; // the first column after k_show_columns

const std::string k_feeds_from = " FROM shows s JOIN feeds f ON f.id = s.feed_id";

// The columns of a DirectoryEpisode after k_episode_columns, from
// `episodes e JOIN shows s JOIN feeds f`.
const std::string k_api_episode_columns =
    std::string(k_episode_columns) +
    ", e.id, extract(epoch FROM e.first_seen_at)::bigint, s.title, f.url, s.image, s.language,"
    " s.identity_guid, f.status = 'gone'";
constexpr pqxx::row::size_type k_episode_extra = internal::k_after_episode;

const std::string k_episodes_from =
    " FROM episodes e JOIN shows s ON s.id = e.show_id"
    " JOIN feeds f ON f.id = s.feed_id";

// A feed of a row of k_feed_columns, its categories as ids (named by named_categories).
model::DirectoryFeed feed_from_row(const pqxx::row& row) {
  model::DirectoryFeed feed;
  feed.id = row[0].as<std::int64_t>();
  feed.show = internal::show_from_row(row);
  const auto at = [&](pqxx::row::size_type offset) { return row[k_feed_extra + offset]; };
  feed.podcast_guid = at(0).as<std::string>();
  feed.original_url = at(1).as<std::string>();
  feed.status = at(2).as<std::string>();
  feed.last_http_status = nullable<int>(at(3));
  feed.last_fetch_at = nullable<std::int64_t>(at(4));
  feed.last_success_at = nullable<std::int64_t>(at(5));
  feed.failures = at(6).as<int>();
  feed.content_hash = at(7).as<std::string>();
  const auto episodes = internal::integer_array(at(8).c_str());
  if (episodes.size() == 3) {
    feed.episode_count = episodes[0].value_or(0);
    feed.newest_item_at = episodes[1];
    feed.oldest_item_at = episodes[2];
  }
  for (const auto id : internal::integer_array(at(9).is_null() ? "" : at(9).c_str())) {
    if (id) {
      feed.categories.push_back({*id, {}});
    }
  }
  return feed;
}

model::DirectoryEpisode episode_from_row(const pqxx::row& row) {
  model::DirectoryEpisode episode;
  episode.feed_id = row[0].as<std::int64_t>();
  episode.episode = internal::episode_from_row(row);
  const auto at = [&](pqxx::row::size_type offset) { return row[k_episode_extra + offset]; };
  episode.id = at(0).as<std::int64_t>();
  episode.first_seen_at = at(1).as<std::int64_t>();
  episode.feed_title = at(2).as<std::string>();
  episode.feed_url = at(3).as<std::string>();
  episode.feed_image = at(4).as<std::string>();
  episode.feed_language = at(5).as<std::string>();
  episode.podcast_guid = at(6).as<std::string>();
  episode.feed_dead = at(7).as<bool>();
  return episode;
}

// The names of the categories of `feeds`, from the connection's cache, which reads those it
// does not hold yet from the database: a category's name never changes.
void name_categories(CategoryNames& names, pqxx::transaction_base& txn,
                     std::vector<model::DirectoryFeed>& feeds) {
  std::vector<std::int64_t> unknown;
  for (const auto& feed : feeds) {
    for (const auto& category : feed.categories) {
      if (!names.contains(category.id)) {
        unknown.push_back(category.id);
      }
    }
  }
  if (!unknown.empty()) {
    if (names.size() + unknown.size() > internal::k_remembered_category_names) {
      names.clear();
    }
    for (const auto& row :
         exec_named(txn, "podcrawl_api_category_names",
                    "SELECT id, name FROM categories WHERE id = ANY($1::bigint[])",
                    internal::id_array(unknown))) {
      names.insert_or_assign(row[0].as<std::int64_t>(), row[1].as<std::string>());
    }
  }
  for (auto& feed : feeds) {
    std::vector<model::CategoryRef> named;
    for (const auto& category : feed.categories) {
      if (const auto name = names.find(category.id); name != names.end()) {
        named.push_back({category.id, name->second}); // else deleted since the row was read
      }
    }
    feed.categories = std::move(named);
  }
}

std::vector<model::DirectoryFeed> feeds_from(CategoryNames& names, pqxx::transaction_base& txn,
                                             const pqxx::result& rows) {
  std::vector<model::DirectoryFeed> feeds;
  feeds.reserve(rows.size());
  for (const auto& row : rows) {
    feeds.push_back(feed_from_row(row));
  }
  name_categories(names, txn, feeds);
  return feeds;
}

std::optional<model::DirectoryFeed> first_feed_from(CategoryNames& names,
                                                    pqxx::transaction_base& txn,
                                                    const pqxx::result& rows) {
  auto feeds = feeds_from(names, txn, rows);
  return feeds.empty() ? std::nullopt : std::optional(std::move(feeds.front()));
}

std::vector<model::DirectoryEpisode> episodes_from(const pqxx::result& rows) {
  std::vector<model::DirectoryEpisode> episodes;
  episodes.reserve(rows.size());
  for (const auto& row : rows) {
    episodes.push_back(episode_from_row(row));
  }
  return episodes;
}

// A read-only transaction under the APIs' statement timeout.
class ApiRead {
public:
  explicit ApiRead(pqxx::connection& connection) : m_txn(connection) {
    m_txn.exec("SELECT set_config('statement_timeout', '" + std::string(k_statement_timeout) +
               "', true)");
  }
  internal::SnapshotTransaction& txn() { return m_txn; }

private:
  internal::SnapshotTransaction m_txn;
};

// A read by key (ids, slugs, a feed URL, a podcast:guid): one statement that finds its rows
// through the index of that key, which no parameter can make scan, sent on its own. Outside a
// transaction block (one statement reads one snapshot) and without ApiRead's timeout it is one
// round trip instead of four; each wakes serve's worker and the database's backend in turn, and
// lookups are most of what clients ask.
class KeyRead {
public:
  explicit KeyRead(pqxx::connection& connection) : m_txn(connection) {}
  pqxx::nontransaction& txn() { return m_txn; }

private:
  pqxx::nontransaction m_txn;
};

// `found` in the order of `keys`, each once; key_of names an element's key.
template <typename Key, typename KeyOf>
std::vector<model::DirectoryFeed> in_order_of(const std::vector<Key>& keys,
                                              std::vector<model::DirectoryFeed> found,
                                              KeyOf key_of) {
  std::map<Key, std::size_t> place;
  for (std::size_t i = 0; i < found.size(); ++i) {
    place.emplace(key_of(found[i]), i);
  }
  std::vector<model::DirectoryFeed> ordered;
  ordered.reserve(found.size());
  for (const auto& key : keys) {
    const auto it = place.find(key);
    if (it != place.end()) {
      ordered.push_back(std::move(found[it->second]));
      place.erase(it);
    }
  }
  return ordered;
}

} // namespace

DirectoryApi::DirectoryApi(Database& database) : m_impl(database.m_impl.get()) {}

std::vector<model::DirectoryFeed> DirectoryApi::feeds_by_ids(const std::vector<std::int64_t>& ids) {
  if (ids.empty()) {
    return {};
  }
  return guarded(m_impl->redacted_url, "read shows by id", [&] {
    KeyRead read(m_impl->connection);
    static const std::string k_sql =
        "SELECT " + k_feed_columns + k_feeds_from + " WHERE s.id = ANY($1::bigint[])";
    auto found = feeds_from(
        m_impl->category_names, read.txn(),
        exec_named(read.txn(), "podcrawl_api_feeds_by_id", k_sql, internal::id_array(ids)));
    return in_order_of(ids, std::move(found),
                       [](const model::DirectoryFeed& feed) { return feed.id; });
  });
}

std::optional<model::DirectoryFeed> DirectoryApi::feed_by_url(const std::string& url) {
  return guarded(m_impl->redacted_url, "read a show by feed URL",
                 [&]() -> std::optional<model::DirectoryFeed> {
                   KeyRead read(m_impl->connection);
                   static const std::string k_sql =
                       "SELECT " + k_feed_columns + k_feeds_from +
                       " WHERE s.id = coalesce("
                       "   (SELECT g.show_id FROM feeds g WHERE g.url = $1),"
                       "   (SELECT g.show_id FROM feed_aliases a JOIN feeds g ON g.id = a.feed_id"
                       "     WHERE a.url = $1))";
                   const auto rows = exec_named(read.txn(), "podcrawl_api_feed_by_url", k_sql,
                                                internal::storable_text(url));
                   return first_feed_from(m_impl->category_names, read.txn(), rows);
                 });
}

std::optional<model::DirectoryFeed> DirectoryApi::feed_by_guid(const std::string& guid) {
  return guarded(m_impl->redacted_url, "read a show by podcast:guid",
                 [&]() -> std::optional<model::DirectoryFeed> {
                   KeyRead read(m_impl->connection);
                   static const std::string k_sql =
                       "SELECT " + k_feed_columns + k_feeds_from +
                       " WHERE s.identity_guid = lower($1) AND s.identity_guid <> ''"
                       " ORDER BY s.active DESC, s.id LIMIT 1";
                   const auto rows = exec_named(read.txn(), "podcrawl_api_feed_by_guid", k_sql,
                                                internal::storable_text(guid));
                   return first_feed_from(m_impl->category_names, read.txn(), rows);
                 });
}

std::vector<model::DirectoryEpisode> DirectoryApi::episodes_of(
    const std::vector<std::int64_t>& feed_ids, std::optional<std::int64_t> since,
    std::int64_t max) {
  if (feed_ids.empty() || max <= 0) {
    return {};
  }
  return guarded(m_impl->redacted_url, "read the episodes of shows", [&] {
    ApiRead read(m_impl->connection);
    static const std::string k_sql =
        "SELECT " + k_api_episode_columns + k_episodes_from +
        " WHERE e.show_id = ANY($1::bigint[]) AND e.removed_at IS NULL"
        "   AND ($2::bigint IS NULL OR e.published >= to_timestamp($2::bigint))"
        " ORDER BY e.published DESC NULLS LAST, e.id DESC LIMIT $3";
    return episodes_from(exec_named(read.txn(), "podcrawl_api_episodes_of", k_sql,
                                    internal::id_array(feed_ids), since,
                                    std::min(max, model::k_api_max_results)));
  });
}

std::vector<model::DirectoryEpisode> DirectoryApi::newest_episode_of(
    const std::vector<std::int64_t>& feed_ids) {
  if (feed_ids.empty()) {
    return {};
  }
  return guarded(m_impl->redacted_url, "read the newest episode of shows", [&] {
    ApiRead read(m_impl->connection);
    static const std::string k_sql =
        "SELECT " + k_api_episode_columns +
        " FROM unnest($1::bigint[]) WITH ORDINALITY AS asked (id, place)"
        " CROSS JOIN LATERAL (SELECT * FROM episodes x WHERE x.show_id = asked.id"
        "   AND x.removed_at IS NULL ORDER BY x.published DESC NULLS LAST, x.position, x.id"
        "   LIMIT 1) e"
        " JOIN shows s ON s.id = e.show_id JOIN feeds f ON f.id = s.feed_id"
        " ORDER BY asked.place";
    return episodes_from(exec_named(read.txn(), "podcrawl_api_newest_episodes", k_sql,
                                    internal::id_array(feed_ids)));
  });
}

std::optional<model::DirectoryEpisode> DirectoryApi::episode_by_id(std::int64_t id) {
  return guarded(
      m_impl->redacted_url, "read an episode by id",
      [&]() -> std::optional<model::DirectoryEpisode> {
        KeyRead read(m_impl->connection);
        static const std::string k_sql = "SELECT " + k_api_episode_columns + k_episodes_from +
                                         " WHERE e.id = $1 AND e.removed_at IS NULL";
        const auto rows = exec_named(read.txn(), "podcrawl_api_episode_by_id", k_sql, id);
        if (rows.empty()) {
          return std::nullopt;
        }
        return episode_from_row(rows[0]);
      });
}

std::vector<model::DirectoryEpisode> DirectoryApi::recent_episodes(
    std::int64_t max, std::optional<std::int64_t> before, const std::string& exclude) {
  if (max <= 0) {
    return {};
  }
  return guarded(m_impl->redacted_url, "read the recent episodes", [&] {
    ApiRead read(m_impl->connection);
    static const std::string k_sql = "SELECT " + k_api_episode_columns + k_episodes_from +
                                     " WHERE e.removed_at IS NULL AND " + k_listed_show +
                                     "   AND ($2::bigint IS NULL OR e.id < $2)"
                                     "   AND ($3 = '' OR (strpos(lower(e.title), lower($3)) = 0"
                                     "     AND strpos(lower(s.title), lower($3)) = 0))"
                                     " ORDER BY e.id DESC LIMIT $1";
    return episodes_from(exec_named(read.txn(), "podcrawl_api_recent_episodes", k_sql,
                                    std::min(max, model::k_api_max_results), before,
                                    internal::storable_text(exclude)));
  });
}

std::vector<model::DirectoryFeed> DirectoryApi::recent_feeds(const RecentFeedsFilter& filter) {
  if (filter.max <= 0) {
    return {};
  }
  return guarded(m_impl->redacted_url, "read the recent shows", [&] {
    ApiRead read(m_impl->connection);
    // A category named by its id or its name, in any case.
    const std::string in_category =
        "EXISTS (SELECT 1 FROM show_categories sc"
        " JOIN categories c ON c.id = sc.category_id"
        " WHERE sc.show_id = s.id AND (c.id::text = ANY($%)"
        "   OR lower(c.name) = ANY($%)))";
    const auto with_parameter = [&](char number) {
      std::string text = in_category;
      for (auto at = text.find('%'); at != std::string::npos; at = text.find('%', at)) {
        text[at] = number;
      }
      return text;
    };
    static const std::string k_sql =
        "SELECT " + k_feed_columns + k_feeds_from + " WHERE " + k_listed_show +
        "   AND ($2::bigint IS NULL OR s.updated_at >= to_timestamp($2::bigint))"
        "   AND (cardinality($3::text[]) = 0 OR lower(s.language) = ANY($3::text[]))"
        "   AND (cardinality($4::text[]) = 0 OR " +
        with_parameter('4') + ")   AND NOT (cardinality($5::text[]) > 0 AND " +
        with_parameter('5') + ") ORDER BY s.updated_at DESC, s.id DESC LIMIT $1";
    const auto lowered = [](const std::vector<std::string>& values) {
      std::vector<std::string> lower;
      for (const auto& value : values) {
        std::string text = value;
        std::transform(text.begin(), text.end(), text.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        lower.push_back(std::move(text));
      }
      return internal::text_array(lower);
    };
    return feeds_from(m_impl->category_names, read.txn(),
                      exec_named(read.txn(), "podcrawl_api_recent_feeds", k_sql,
                                 std::min(filter.max, model::k_api_max_results), filter.since,
                                 lowered(filter.languages), lowered(filter.categories),
                                 lowered(filter.not_categories)));
  });
}

std::vector<model::CategoryRef> DirectoryApi::categories() {
  return guarded(m_impl->redacted_url, "read the categories", [&] {
    ApiRead read(m_impl->connection);
    static const std::string k_sql =
        "SELECT c.id, c.name FROM categories c WHERE EXISTS (SELECT 1 FROM show_categories sc"
        " JOIN shows s ON s.id = sc.show_id WHERE sc.category_id = c.id AND " +
        std::string(k_listed_show) + ") ORDER BY c.id";
    std::vector<model::CategoryRef> categories;
    for (const auto& row : exec_named(read.txn(), "podcrawl_api_categories", k_sql)) {
      categories.push_back({row[0].as<std::int64_t>(), row[1].as<std::string>()});
    }
    return categories;
  });
}

model::DirectoryCounts DirectoryApi::counts() {
  return guarded(m_impl->redacted_url, "count the directory", [&] {
    ApiRead read(m_impl->connection);
    static const std::string k_sql =
        "WITH newest AS (SELECT e.show_id, max(e.published) AS at FROM episodes e"
        "   WHERE e.removed_at IS NULL AND e.published > now() - interval '90 days'"
        "   GROUP BY e.show_id)"
        " SELECT (SELECT count(*) FROM shows s WHERE " +
        std::string(k_listed_show) +
        "),"
        " (SELECT count(*) FROM episodes e JOIN shows s ON s.id = e.show_id"
        "   WHERE e.removed_at IS NULL AND " +
        k_listed_show +
        "),"
        " count(*) FILTER (WHERE n.at > now() - interval '3 days'),"
        " count(*) FILTER (WHERE n.at > now() - interval '10 days'),"
        " count(*) FILTER (WHERE n.at > now() - interval '30 days'),"
        " count(*)"
        " FROM newest n JOIN shows s ON s.id = n.show_id WHERE " +
        k_listed_show;
    const auto row = exec_named(read.txn(), "podcrawl_api_counts", k_sql)[0];
    model::DirectoryCounts counts;
    counts.feeds = row[0].as<std::int64_t>();
    counts.episodes = row[1].as<std::int64_t>();
    counts.feeds_new_3_days = row[2].as<std::int64_t>();
    counts.feeds_new_10_days = row[3].as<std::int64_t>();
    counts.feeds_new_30_days = row[4].as<std::int64_t>();
    counts.feeds_new_90_days = row[5].as<std::int64_t>();
    return counts;
  });
}

} // namespace podcrawl::store

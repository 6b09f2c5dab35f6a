#include "podcrawl/store/directory_pages.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "podcrawl/core/error.hpp"
#include "podcrawl/feed/json.hpp"
#include "rows_internal.hpp"
#include "store_internal.hpp"

// Every loader reads in one snapshot and touches only what its page shows, through an index:
// one show and one page of its episodes, one page of a list, the newest episodes.

namespace podcrawl::store {

namespace {

using internal::column_count;
using internal::episode_entry_from_row;
using internal::episode_from_row;
using internal::exec_named;
using internal::guarded;
using internal::id_array;
using internal::k_episode_columns;
using internal::k_episode_order;
using internal::k_listed_show;
using internal::k_show_columns;
using internal::k_summary_columns;
using internal::show_from_row;
using internal::SnapshotTransaction;
using internal::summary_from_row;
using internal::text_array;

// A valid lower-case language tag: what a language page's address may be.
constexpr const char* k_language_tag_pattern = "^[a-z][a-z0-9]{0,7}(-[a-z0-9]{1,8})*$";

// The list order of shows: titles by ICU's root collation (the same for every reader), cut as
// the list index cuts them, then slugs.
constexpr const char* k_show_list_order = "left(s.title, 200) COLLATE \"und-x-icu\", s.slug";

// The category whose slug is `slug`: its first spelling and that spelling's language.
constexpr const char* k_category_entry =
    "SELECT name, language FROM categories WHERE slug = $1 ORDER BY id LIMIT 1";

// A LATERAL subquery named `first`: the first spelling (name, language) of the category slug
// in the column `slug`. Spellings that differ only in case or accents share a slug.
std::string first_spelling(std::string_view slug) {
  return " LATERAL (SELECT f.name, f.language FROM categories f WHERE f.slug = " +
         std::string(slug) + " ORDER BY f.id LIMIT 1) first";
}

// The categories the show `show_id` (a column) is filed under: slug, first spelling, its
// language, place in the feed. A slug comes once for each spelling the feed gives;
// add_category keeps the first.
std::string filed_categories(std::string_view show_id) {
  return "SELECT c.slug, first.name, first.language, sc.position"
         " FROM show_categories sc JOIN categories c ON c.id = sc.category_id," +
         first_spelling("c.slug") + " WHERE sc.show_id = " + std::string(show_id) +
         " AND c.slug <> ''";
}

// Append the category of a filed_categories row (slug, name, language from column `first`)
// unless its slug is listed already: each slug once, where the feed first names it. Cheaper
// than DISTINCT ON in the statement for the few categories a show has.
void add_category(std::vector<model::CategoryEntry>& categories, const pqxx::row& row,
                  pqxx::row::size_type first) {
  std::string slug = row[first].as<std::string>();
  if (std::none_of(categories.begin(), categories.end(),
                   [&](const model::CategoryEntry& listed) { return listed.slug == slug; })) {
    categories.push_back(
        {std::move(slug), row[first + 1].as<std::string>(), row[first + 2].as<std::string>(), 0});
  }
}

// The categories of the shows with ids in $1 (a bigint[]), in the feed's order: show id, slug,
// first spelling, its language.
const std::string k_show_categories =
    "SELECT ids.id, filed.slug, filed.name, filed.language FROM unnest($1::bigint[]) ids(id),"
    " LATERAL (" +
    filed_categories("ids.id") + ") filed ORDER BY ids.id, filed.position";

// Categories for each show id, from k_show_categories.
std::map<std::int64_t, std::vector<model::CategoryEntry>> categories_of(
    SnapshotTransaction& txn, const std::vector<std::int64_t>& ids) {
  std::map<std::int64_t, std::vector<model::CategoryEntry>> result;
  for (const auto& row :
       exec_named(txn, "podcrawl_page_show_categories", k_show_categories, id_array(ids))) {
    add_category(result[row[0].as<std::int64_t>()], row, 1);
  }
  return result;
}

const std::string k_listed_show_by_slug = std::string("SELECT ") + k_show_columns +
                                          " FROM shows s JOIN feeds f ON f.id = s.feed_id"
                                          " WHERE s.slug = $1 AND " +
                                          k_listed_show;

std::optional<std::pair<std::int64_t, model::StoredShow>> listed_show(SnapshotTransaction& txn,
                                                                      const std::string& slug) {
  const auto rows = exec_named(txn, "podcrawl_page_show", k_listed_show_by_slug, slug);
  if (rows.empty()) {
    return std::nullopt;
  }
  return std::make_pair(rows[0][0].as<std::int64_t>(), show_from_row(rows[0]));
}

std::vector<model::ShowSummary> summaries(const pqxx::result& rows) {
  std::vector<model::ShowSummary> shows;
  shows.reserve(rows.size());
  for (const auto& row : rows) {
    shows.push_back(summary_from_row(row));
  }
  return shows;
}

// The shows of `rows` (k_show_columns) with all their current episodes and their categories.
std::vector<model::WholeShow> with_episodes(SnapshotTransaction& txn, const pqxx::result& rows) {
  std::vector<model::WholeShow> batch;
  std::vector<std::int64_t> ids;
  std::map<std::int64_t, std::size_t> index_by_id;
  for (const auto& row : rows) {
    ids.push_back(row[0].as<std::int64_t>());
    index_by_id.emplace(ids.back(), batch.size());
    model::WholeShow whole;
    whole.show = show_from_row(row);
    batch.push_back(std::move(whole));
  }
  if (batch.empty()) {
    return batch;
  }
  static const std::string k_episodes =
      std::string("SELECT ") + k_episode_columns +
      " FROM episodes e WHERE e.show_id = ANY($1::bigint[]) AND e.removed_at IS NULL"
      " ORDER BY e.show_id, " +
      k_episode_order;
  std::vector<model::StoredEpisode> episodes;
  std::int64_t current = -1;
  const auto hand_over = [&] {
    if (current >= 0) {
      batch[index_by_id.at(current)].show.episodes = std::move(episodes);
      episodes = {};
    }
  };
  for (const auto& row : exec_named(txn, "podcrawl_batch_episodes", k_episodes, id_array(ids))) {
    if (const auto id = row[0].as<std::int64_t>(); id != current) {
      hand_over();
      current = id;
    }
    episodes.push_back(episode_from_row(row));
  }
  hand_over();
  for (auto& [id, categories] : categories_of(txn, ids)) {
    batch[index_by_id.at(id)].categories = std::move(categories);
  }
  return batch;
}

} // namespace

DirectoryPages::DirectoryPages(Database& database) : m_impl(database.m_impl.get()) {}

model::HomePage DirectoryPages::load_home_page() {
  return guarded(m_impl->redacted_url, "load the home page", [&] {
    SnapshotTransaction txn(m_impl->connection);
    model::HomePage home;
    home.show_count =
        txn.exec(std::string("SELECT count(*) FROM shows s WHERE ") + k_listed_show)[0][0]
            .as<std::int64_t>();
    static const std::string k_latest =
        std::string("SELECT ") + k_episode_columns +
        ", s.slug, s.title, s.effective_language FROM episodes e JOIN shows s ON s.id = e.show_id"
        " WHERE e.removed_at IS NULL AND e.published IS NOT NULL"
        "  AND e.published BETWEEN 'epoch' AND '9999-12-31 23:59:59+00' AND " +
        k_listed_show + " ORDER BY e.published DESC, s.slug, e.position, e.id LIMIT $1";
    for (const auto& row :
         exec_named(txn, "podcrawl_page_latest", k_latest, model::k_latest_episodes)) {
      home.latest.push_back(episode_entry_from_row(row));
    }
    static const std::string k_categories =
        std::string(
            "SELECT t.slug, first.name, first.language, t.shows FROM ("
            "  SELECT c.slug, count(DISTINCT sc.show_id) AS shows FROM categories c"
            "  JOIN show_categories sc ON sc.category_id = c.id"
            "  JOIN shows s ON s.id = sc.show_id WHERE c.slug <> '' AND ") +
        k_listed_show + "  GROUP BY c.slug ORDER BY shows DESC, c.slug LIMIT $1) t," +
        first_spelling("t.slug") + " ORDER BY t.shows DESC, t.slug";
    for (const auto& row :
         exec_named(txn, "podcrawl_page_categories", k_categories, model::k_home_categories)) {
      home.categories.push_back({row[0].as<std::string>(), row[1].as<std::string>(),
                                 row[2].as<std::string>(), row[3].as<std::int64_t>()});
    }
    static const std::string k_languages =
        std::string("SELECT s.language_group, count(*) AS shows FROM shows s WHERE ") +
        k_listed_show + " AND s.language_group ~ $2 GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT $1";
    for (const auto& row : exec_named(txn, "podcrawl_page_languages", k_languages,
                                      model::k_home_languages, k_language_tag_pattern)) {
      home.languages.push_back({row[0].as<std::string>(), row[1].as<std::int64_t>()});
    }
    txn.commit();
    return home;
  });
}

std::optional<model::ShowListPage> DirectoryPages::load_category_page(const std::string& slug,
                                                                      std::int64_t page) {
  if (page < 1 || slug.empty()) {
    return std::nullopt;
  }
  return guarded(
      m_impl->redacted_url, "load a category page", [&]() -> std::optional<model::ShowListPage> {
        SnapshotTransaction txn(m_impl->connection);
        static const std::string k_members =
            std::string(
                " FROM shows s WHERE s.id IN (SELECT sc.show_id FROM show_categories sc"
                "  JOIN categories c ON c.id = sc.category_id WHERE c.slug = $1) AND ") +
            k_listed_show;
        static const std::string k_total = "SELECT count(*)" + k_members;
        static const std::string k_page = std::string("SELECT ") + k_summary_columns + k_members +
                                          " ORDER BY " + k_show_list_order + " LIMIT $2 OFFSET $3";
        model::ShowListPage list;
        list.kind = model::ListKind::category;
        list.page = page;
        list.total =
            exec_named(txn, "podcrawl_page_category_total", k_total, slug)[0][0].as<std::int64_t>();
        if (list.total == 0 || page > model::page_count(list.total, model::k_shows_per_page)) {
          return std::nullopt;
        }
        const auto entry = exec_named(txn, "podcrawl_page_category_entry", k_category_entry, slug);
        list.category = {slug, entry[0][0].as<std::string>(), entry[0][1].as<std::string>(),
                         list.total};
        list.shows =
            summaries(exec_named(txn, "podcrawl_page_category", k_page, slug,
                                 model::k_shows_per_page, (page - 1) * model::k_shows_per_page));
        txn.commit();
        return list;
      });
}

std::optional<model::ShowListPage> DirectoryPages::load_language_page(const std::string& tag,
                                                                      std::int64_t page) {
  if (page < 1 || tag.empty()) {
    return std::nullopt;
  }
  return guarded(
      m_impl->redacted_url, "load a language page", [&]() -> std::optional<model::ShowListPage> {
        SnapshotTransaction txn(m_impl->connection);
        static const std::string k_members = std::string(
                                                 " FROM shows s WHERE s.language_group "
                                                 "= $1 AND s.language_group ~ $2 AND ") +
                                             k_listed_show;
        static const std::string k_total = "SELECT count(*)" + k_members;
        static const std::string k_page = std::string("SELECT ") + k_summary_columns + k_members +
                                          " ORDER BY " + k_show_list_order + " LIMIT $3 OFFSET $4";
        model::ShowListPage list;
        list.kind = model::ListKind::language;
        list.page = page;
        list.total = exec_named(txn, "podcrawl_page_language_total", k_total, tag,
                                k_language_tag_pattern)[0][0]
                         .as<std::int64_t>();
        if (list.total == 0 || page > model::page_count(list.total, model::k_shows_per_page)) {
          return std::nullopt;
        }
        list.language = {tag, list.total};
        list.shows =
            summaries(exec_named(txn, "podcrawl_page_language", k_page, tag, k_language_tag_pattern,
                                 model::k_shows_per_page, (page - 1) * model::k_shows_per_page));
        txn.commit();
        return list;
      });
}

namespace {

// The show and episode columns without the iTunes and Podcasting 2.0 namespace fields, which no
// page shows: NULL in their place, so the database converts nothing and read_namespace leaves
// them empty.
std::string without_namespaces(std::string columns) {
  for (const std::string_view column :
       {"s.itunes::text", "s.podcast::text", "e.itunes::text", "e.podcast::text"}) {
    if (const auto at = columns.find(column); at != std::string::npos) {
      columns.replace(at, column.size(), "NULL::text");
    }
  }
  return columns;
}

// A show page in one statement, so in one snapshot and one round trip: first the listed show
// with slug $1 and its current episode count, then $2 of its current episodes from offset $3 in
// page order, then its categories in the feed's order. Each kind of row has the others' columns
// NULL: the show row has the columns of k_show_columns and the count (k_page_show_width columns);
// an episode row has k_episode_columns and its place on the page from k_page_episode_first; a
// category row its slug, first spelling, that spelling's language and its place in the feed
// from k_page_category_first.
const std::string k_show_page =
    "WITH shown AS (SELECT " + without_namespaces(k_show_columns) +
    ", (SELECT count(*) FROM episodes e WHERE e.show_id = s.id AND e.removed_at IS NULL)"
    "  FROM shows s JOIN feeds f ON f.id = s.feed_id WHERE s.slug = $1 AND " +
    k_listed_show + "), listed AS (SELECT " + without_namespaces(k_episode_columns) +
    ", row_number() OVER (ORDER BY " + k_episode_order +
    ") AS n"
    "  FROM (SELECT e.* FROM shown, episodes e WHERE e.show_id = shown.id"
    "   AND e.removed_at IS NULL ORDER BY " +
    k_episode_order +
    " LIMIT $2 OFFSET $3) e"
    "), filed AS (SELECT filed.* FROM shown, LATERAL (" +
    filed_categories("shown.id") +
    ") filed)"
    " SELECT shown.*, listed.*, filed.*"
    " FROM shown FULL JOIN listed ON false FULL JOIN filed ON false"
    " ORDER BY shown.id IS NULL, listed.n, filed.position";
constexpr auto k_page_show_width =
    static_cast<pqxx::row::size_type>(column_count(k_show_columns) + 1);
constexpr pqxx::row::size_type k_page_episode_first = k_page_show_width;
constexpr auto k_page_category_first =
    static_cast<pqxx::row::size_type>(k_page_episode_first + column_count(k_episode_columns) + 1);

} // namespace

std::optional<model::ShowPage> DirectoryPages::load_show_page(const std::string& slug,
                                                              std::int64_t page) {
  if (page < 1) {
    return std::nullopt;
  }
  return guarded(m_impl->redacted_url, "load a show page", [&]() -> std::optional<model::ShowPage> {
    pqxx::nontransaction txn(m_impl->connection);
    const auto rows =
        exec_named(txn, "podcrawl_page_show_page", k_show_page, slug, model::k_episodes_per_page,
                   (page - 1) * model::k_episodes_per_page);
    if (rows.empty() || rows[0][0].is_null()) {
      return std::nullopt;
    }
    model::ShowPage result;
    result.page = page;
    result.show = show_from_row(rows[0].slice(0, k_page_show_width - 1));
    result.episode_count = rows[0][k_page_show_width - 1].as<std::int64_t>();
    for (pqxx::result::size_type i = 1; i < rows.size(); ++i) {
      const pqxx::row row = rows[i];
      if (!row[k_page_episode_first].is_null()) {
        result.show.episodes.push_back(
            episode_from_row(row.slice(k_page_episode_first, k_page_category_first - 1)));
      } else {
        add_category(result.categories, row, k_page_category_first);
      }
    }
    if (page > model::page_count(result.episode_count, model::k_episodes_per_page)) {
      return std::nullopt;
    }
    return result;
  });
}

std::optional<model::EpisodePage> DirectoryPages::load_episode_page(
    const std::string& show_slug, const std::string& episode_slug) {
  return guarded(
      m_impl->redacted_url, "load an episode page", [&]() -> std::optional<model::EpisodePage> {
        SnapshotTransaction txn(m_impl->connection);
        auto found = listed_show(txn, show_slug);
        if (!found) {
          return std::nullopt;
        }
        static const std::string k_episode =
            std::string("SELECT ") + k_episode_columns +
            " FROM episodes e WHERE e.show_id = $1 AND e.slug = $2 AND e.removed_at IS NULL";
        const auto rows =
            exec_named(txn, "podcrawl_page_episode", k_episode, found->first, episode_slug);
        if (rows.empty()) {
          return std::nullopt;
        }
        model::EpisodePage result;
        result.show = std::move(found->second);
        result.show.episodes.push_back(episode_from_row(rows[0]));
        txn.commit();
        return result;
      });
}

void DirectoryPages::prepare_pages() {
  guarded(m_impl->redacted_url, "prepare the page statements", [&] {
    pqxx::nontransaction txn(m_impl->connection);
    // Each statement planned once for all arguments. PostgreSQL otherwise plans each of the
    // first five executions for its own arguments (1-10 ms apiece for a show page) before it
    // settles on the generic plan, and a server's first requests wait for that.
    txn.exec0("SET plan_cache_mode = force_generic_plan");
  });
  const std::string nothing = "-"; // no slug or tag is a lone hyphen
  load_show_page(nothing, 1);
  load_episode_page(nothing, nothing);
  load_category_page(nothing, 1);
  load_language_page(nothing, 1);
}

std::vector<model::WholeShow> DirectoryPages::load_show_batch(const std::string& after_slug,
                                                              int limit) {
  return guarded(m_impl->redacted_url, "load shows", [&] {
    SnapshotTransaction txn(m_impl->connection);
    static const std::string k_shows = std::string("SELECT ") + k_show_columns +
                                       " FROM shows s JOIN feeds f ON f.id = s.feed_id"
                                       " WHERE s.slug > $1 AND " +
                                       k_listed_show + " ORDER BY s.slug LIMIT $2";
    auto batch =
        with_episodes(txn, exec_named(txn, "podcrawl_batch_shows", k_shows, after_slug, limit));
    txn.commit();
    return batch;
  });
}

std::optional<model::WholeShow> DirectoryPages::load_show_pages(const std::string& slug) {
  auto batch = load_show_pages(std::vector<std::string>{slug});
  if (batch.empty()) {
    return std::nullopt;
  }
  return std::move(batch.front());
}

std::vector<model::WholeShow> DirectoryPages::load_show_pages(
    const std::vector<std::string>& slugs) {
  if (slugs.empty()) {
    return {};
  }
  return guarded(m_impl->redacted_url, "load shows", [&] {
    SnapshotTransaction txn(m_impl->connection);
    static const std::string k_shows = std::string("SELECT ") + k_show_columns +
                                       " FROM shows s JOIN feeds f ON f.id = s.feed_id"
                                       " WHERE s.slug = ANY($1::text[]) AND " +
                                       k_listed_show + " ORDER BY s.slug";
    auto batch = with_episodes(
        txn, exec_named(txn, "podcrawl_batch_shows_by_slug", k_shows, text_array(slugs)));
    txn.commit();
    return batch;
  });
}

std::string DirectoryPages::directory_snapshot() {
  return guarded(m_impl->redacted_url, "read the directory's snapshot", [&] {
    pqxx::read_transaction txn(m_impl->connection);
    auto snapshot =
        txn.exec1("SELECT pg_snapshot_xmin(pg_current_snapshot())::text")[0].as<std::string>();
    txn.commit();
    return snapshot;
  });
}

std::vector<std::string> DirectoryPages::shows_changed_since(const std::string& snapshot) {
  if (snapshot.empty() || snapshot.size() > 20 ||
      !std::all_of(snapshot.begin(), snapshot.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    throw core::UsageError("not a directory snapshot: \"" + snapshot + "\"");
  }
  return guarded(m_impl->redacted_url, "read the changed shows", [&] {
    pqxx::read_transaction txn(m_impl->connection);
    std::vector<std::string> slugs;
    for (const auto& row : exec_named(txn, "podcrawl_changed_shows",
                                      "SELECT slug FROM shows WHERE changed_xid >= $1::xid8"
                                      " AND slug IS NOT NULL ORDER BY slug",
                                      snapshot)) {
      slugs.push_back(row[0].as<std::string>());
    }
    txn.commit();
    return slugs;
  });
}

std::vector<model::CategoryEntry> DirectoryPages::load_categories(const std::string& after_slug,
                                                                  int limit) {
  return guarded(m_impl->redacted_url, "load categories", [&] {
    SnapshotTransaction txn(m_impl->connection);
    static const std::string k_categories =
        std::string(
            "SELECT t.slug, first.name, first.language, t.shows FROM ("
            "  SELECT c.slug, count(DISTINCT sc.show_id) AS shows FROM categories c"
            "  JOIN show_categories sc ON sc.category_id = c.id"
            "  JOIN shows s ON s.id = sc.show_id WHERE c.slug > $1 AND ") +
        k_listed_show + "  GROUP BY c.slug ORDER BY c.slug LIMIT $2) t," +
        first_spelling("t.slug") + " ORDER BY t.slug";
    std::vector<model::CategoryEntry> categories;
    for (const auto& row :
         exec_named(txn, "podcrawl_walk_categories", k_categories, after_slug, limit)) {
      categories.push_back({row[0].as<std::string>(), row[1].as<std::string>(),
                            row[2].as<std::string>(), row[3].as<std::int64_t>()});
    }
    txn.commit();
    return categories;
  });
}

std::vector<model::LanguageEntry> DirectoryPages::load_languages(const std::string& after_tag,
                                                                 int limit) {
  return guarded(m_impl->redacted_url, "load languages", [&] {
    SnapshotTransaction txn(m_impl->connection);
    static const std::string k_languages =
        std::string("SELECT s.language_group, count(*) FROM shows s WHERE ") + k_listed_show +
        " AND s.language_group ~ $3 AND s.language_group > $1 GROUP BY 1 "
        "ORDER BY 1 LIMIT $2";
    std::vector<model::LanguageEntry> languages;
    for (const auto& row : exec_named(txn, "podcrawl_walk_languages", k_languages, after_tag, limit,
                                      k_language_tag_pattern)) {
      languages.push_back({row[0].as<std::string>(), row[1].as<std::int64_t>()});
    }
    txn.commit();
    return languages;
  });
}

namespace {

// Load the shows `shows_result` names with their categories and current episodes; show_id
// restricts the detail queries to one show (nullopt: all).
constexpr const char* k_category_query =
    "SELECT sc.show_id, c.name FROM show_categories sc JOIN categories c ON c.id = sc.category_id"
    " WHERE $1::bigint IS NULL OR sc.show_id = $1::bigint"
    " ORDER BY sc.show_id, sc.position";

const std::string k_episode_query = std::string("SELECT ") + k_episode_columns +
                                    " FROM episodes e WHERE e.removed_at IS NULL"
                                    " AND ($1::bigint IS NULL OR e.show_id = $1::bigint)"
                                    " ORDER BY e.show_id, " +
                                    k_episode_order;

std::vector<model::StoredShow> assemble_shows(SnapshotTransaction& txn,
                                              const pqxx::result& shows_result,
                                              std::optional<std::int64_t> show_id) {
  std::vector<model::StoredShow> shows;
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
      shows[found->second].episodes.push_back(episode_from_row(row));
    }
  }
  return shows;
}

} // namespace

std::optional<model::StoredShow> DirectoryPages::load_show(const std::string& feed_url_or_slug) {
  return guarded(m_impl->redacted_url, "load show", [&]() -> std::optional<model::StoredShow> {
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

} // namespace podcrawl::store

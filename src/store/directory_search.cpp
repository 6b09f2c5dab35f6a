#include "podcrawl/store/directory_search.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include "podcrawl/l10n/localizer.hpp"
#include "podcrawl/search/analyze.hpp"
#include "podcrawl/store/database.hpp"
#include "rows_internal.hpp"
#include "store_internal.hpp"

// The search of the directory and its index: what the store writes for each show and episode,
// the one query every reader runs, and the rebuild of the index.

namespace podcrawl::store {

// The text analysis (DirectorySearch::search hides the namespace's name in its members).
namespace analysis = podcrawl::search;

namespace internal {

namespace {

std::string weighted_vector(std::string_view config, std::string_view text, char weight) {
  return "setweight(to_tsvector(" + std::string(config) + ", coalesce(" + std::string(text) +
         ", '')), '" + weight + "')";
}

} // namespace

std::string show_search_vector(std::string_view config, std::string_view title,
                               std::string_view author, std::string_view notes) {
  return weighted_vector(config, title, 'A') + " || " + weighted_vector(config, author, 'B') +
         " || " + weighted_vector(config, notes, 'C');
}

std::string episode_search_vector(std::string_view config, std::string_view title,
                                  std::string_view notes) {
  return weighted_vector(config, title, 'A') + " || " + weighted_vector(config, notes, 'C');
}

namespace {

// Longest word written to search_words: a longer one is no title's word anyone types.
constexpr std::size_t k_max_typo_word_bytes = 120;

// The words of space-separated text, sorted, each once.
std::set<std::string_view> distinct_words(std::string_view text) {
  std::set<std::string_view> words;
  for (std::size_t from = 0; from < text.size();) {
    const std::size_t space = std::min(text.find(' ', from), text.size());
    if (space > from) {
      words.insert(text.substr(from, space - from));
    }
    from = space + 1;
  }
  return words;
}

} // namespace

std::string typo_words_to_write(std::string_view index_texts,
                                const std::unordered_set<std::string>& written) {
  std::string out;
  for (const auto word : distinct_words(index_texts)) {
    if (word.size() <= k_max_typo_word_bytes && !written.contains(std::string(word)) &&
        analysis::correctable(word)) {
      out += out.empty() ? "" : " ";
      out += word;
    }
  }
  return out;
}

void remember_typo_words(std::string_view words, std::unordered_set<std::string>& written) {
  for (const auto word : distinct_words(words)) {
    if (written.size() >= k_remembered_typo_words) {
      written.clear();
    }
    written.emplace(word);
  }
}

std::string write_typo_words(std::string_view parameter) {
  return "INSERT INTO search_words (word) SELECT w FROM unnest(string_to_array(" +
         std::string(parameter) + "::text, ' ')) w ORDER BY 1 ON CONFLICT DO NOTHING";
}

} // namespace internal

namespace {

using internal::episode_entry_from_row;
using internal::episode_search_vector;
using internal::exec_named;
using internal::guarded;
using internal::id_array;
using internal::k_after_episode;
using internal::k_episode_columns;
using internal::k_max_search_notes_bytes;
using internal::k_summary_columns;
using internal::search_notes;
using internal::search_words;
using internal::show_search_vector;
using internal::SnapshotTransaction;
using internal::summary_from_row;
using internal::typo_words_to_write;
using internal::write_typo_words;

std::size_t character_count(std::string_view text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

// How long one search may take before the database cancels it; a query made only of a
// language's stop words is not worth a notice; and no JIT compilation: the planner's estimate
// of the search's cost is far above its real cost, and compiling took 40 to 80 ms of a search
// that runs in one to five.
constexpr const char* k_search_settings =
    "SELECT set_config('statement_timeout', '3000', true),"
    " set_config('client_min_messages', 'warning', true), set_config('jit', 'off', true)";

// Shows `alias` listed under the language $5 (l10n::language_group); every show when it is empty.
std::string in_language(std::string_view alias) {
  return "($5::text = '' OR " + std::string(alias) + ".language_group = $5::text)";
}

// A reading of the query's words (next) that more than this many search configurations share
// (the word as most languages leave it) is looked up in the text search index alone; one that
// fewer share, in the index keyed by configuration too, once per configuration.
constexpr int k_search_shared_reading = 8;

// The rows of `table` (aliased `alias`, with `columns`, its search_config and the `reading` of
// the query in that configuration) that their reading matches, in three parts:
// - the rows any shared reading (`shared`) matches, each kept if its own reading matches it (a
//   French row found by the prefix every reading holds);
// - the rows of the other readings' configurations that hold the reading's whole words, looked
//   up by configuration: a word that Danish, Dutch and German stem to a common English word
//   ("gardenig" to "garden") fetches no English row to reject it;
// - the rows of those configurations that only the last word as a prefix matches, looked up once
//   for all of them (`prefixed`): GIN expands a prefix in full before it intersects, and
//   expanding `con:*` once for each reading made a search of two words take 40 ms.
// OFFSET 0 keeps the planner from reading the index once per configuration for the shared
// readings.
std::string search_candidates(std::string_view table, std::string_view alias,
                              std::string_view columns) {
  const std::string a(alias);
  const std::string from = std::string(columns) + ", " + a + ".search_config, ";
  const std::string in = " FROM " + std::string(table) + " " + a + " WHERE ";
  const std::string not_shared =
      "((SELECT query FROM shared) IS NULL OR NOT c.search_vector @@ (SELECT query FROM shared))";
  const std::string own_reading =
      "(SELECT q.query FROM q WHERE q.cfg = " + a + ".search_config) AS reading";
  return "SELECT c.* FROM (SELECT " + from + own_reading + in + a +
         ".search_vector @@ (SELECT query FROM shared) OFFSET 0) c"
         " WHERE c.search_vector @@ c.reading"
         " UNION ALL SELECT c.* FROM readings r CROSS JOIN LATERAL (SELECT " +
         from + "r.query AS reading" + in + a + ".search_config::oid = ANY(r.cfgs) AND " + a +
         ".search_vector @@ r.whole) c WHERE cardinality(r.cfgs) <= " +
         std::to_string(k_search_shared_reading) + " AND r.whole IS NOT NULL AND " + not_shared +
         // The configurations are a filter, not part of the lookup: their rows are half the
         // index's, which made the lookup cost more than the prefix (37 ms against 8).
         " UNION ALL SELECT c.* FROM prefixed p CROSS JOIN LATERAL (SELECT " + from + own_reading +
         in + a + ".search_vector @@ p.query AND array_position(p.cfgs, " + a +
         ".search_config::oid) IS NOT NULL) c"
         " WHERE c.search_vector @@ c.reading AND NOT coalesce(c.search_vector @@"
         " (SELECT q.whole FROM q WHERE q.cfg = c.search_config), false) AND " +
         not_shared;
}

// The shows matching the text search query (search::TextQuery: $1 the leading terms, $6 the
// last term, $7 as typed), best first, from offset $4, at most $3: show id, its matching
// episodes' ids (best first, at most $8), how it matched (2: its title, 1: its author or notes,
// 0: only episodes), the shows found, the shows matched themselves, the episodes matched. At
// most $2 shows and $2 episodes are ranked; without `episodes`, no episode is looked up and there
// is no $8. Each row is matched by the query read in its own search configuration: the distinct
// readings (`readings`, each with the configurations that read the words so) are looked up as
// search_candidates says, the rows handed on one at a time until $2 have matched. Read as one
// disjunction of every reading, a word one language stems to another's common word fetched
// thousands of rows only to reject them (a search took 400 ms).
// The episodes matching the query, for search_matches: show id, episode id, tier 0, rank, when
// published, when the show was updated; at most $2 of them.
std::string episodes_found() {
  return "SELECT e.show_id, e.id AS episode_id, 0 AS tier, ts_rank(e.search_vector, e.reading),"
         " e.published, s.updated_at"
         " FROM (" +
         search_candidates("episodes", "e",
                           "e.id, e.show_id, e.search_vector, e.published, e.removed_at") +
         ") e"
         " JOIN shows s ON s.id = e.show_id"
         // Not `removed_at IS NULL`: the planner would AND the text search index with a whole
         // scan of an index of current episodes (episodes_show_order_idx), which costs more than
         // it saves.
         " WHERE coalesce(e.removed_at, 'infinity') = 'infinity' AND s.active AND s.title <> ''"
         " AND " +
         in_language("s") + " LIMIT $2";
}

std::string search_matches(bool episodes) {
  // The typed form is read once (in `simple`, which stems nothing), not once per configuration.
  const std::string found_shows =
      // In each configuration: the leading words (`lead`), the query with the last word whole
      // (`whole`, none when that configuration drops the word) and the query (`query`).
      "WITH typed AS MATERIALIZED ("
      "  SELECT to_tsquery('pg_catalog.simple', $7::text) AS query"
      "), q AS ("
      "  SELECT w.cfg, w.lead, CASE WHEN numnode(w.word) > 0 THEN w.lead && w.word END AS whole,"
      "   w.lead && (w.word || t.query) AS query"
      "  FROM (SELECT c.oid AS cfg, to_tsquery(c.oid::regconfig, $1::text) AS lead,"
      "   to_tsquery(c.oid::regconfig, $6::text) AS word FROM pg_ts_config c) w CROSS JOIN typed t"
      "), readings AS ("
      "  SELECT query, whole, array_agg(cfg) AS cfgs FROM q WHERE numnode(query) > 0"
      "  GROUP BY query, whole"
      "), shared AS ("
      "  SELECT string_agg('(' || query::text || ')', ' | ')::tsquery AS query FROM readings"
      "  WHERE cardinality(cfgs) > " +
      std::to_string(k_search_shared_reading) +
      // The prefix in the configurations not shared, after any of their leading words (or
      // alone when one of them has none).
      "), prefixed AS ("
      "  SELECT l.cfgs, CASE WHEN l.unled THEN t.query ELSE l.leads::tsquery && t.query END"
      "   AS query"
      "  FROM (SELECT array_agg(q.cfg) AS cfgs, bool_or(numnode(q.lead) = 0) AS unled,"
      "    string_agg(DISTINCT '(' || q.lead::text || ')', ' | ') AS leads"
      "   FROM readings r CROSS JOIN LATERAL unnest(r.cfgs) u(cfg) JOIN q ON q.cfg = u.cfg"
      "   WHERE cardinality(r.cfgs) <= " +
      std::to_string(k_search_shared_reading) +
      "  ) l CROSS JOIN typed t"
      "  WHERE l.cfgs IS NOT NULL AND numnode(t.query) > 0"
      "), shows_found AS ("
      "  SELECT s.id AS show_id, 0::bigint AS episode_id,"
      "   CASE WHEN ts_filter(s.search_vector, '{a}') @@ s.reading THEN 2 ELSE 1 END AS tier,"
      "   ts_rank(s.search_vector, s.reading) AS rank, NULL::timestamptz AS published,"
      "   s.updated_at AS updated"
      "  FROM (" +
      search_candidates("shows", "s",
                        "s.id, s.search_vector, s.active, s.title, s.language_group,"
                        " s.updated_at") +
      ") s"
      "  WHERE s.active AND s.title <> '' AND " +
      in_language("s") + "  LIMIT $2)";
  if (!episodes) {
    // Each show is found once: nothing to group.
    return found_shows +
           " SELECT f.show_id, '{}', f.tier, count(*) OVER (), count(*) OVER (), 0::bigint"
           " FROM shows_found f"
           " ORDER BY f.tier DESC, f.rank DESC, f.updated DESC, f.show_id"
           " LIMIT $3 OFFSET $4";
  }
  return found_shows + ", episodes_found AS (" + episodes_found() +
         "), grouped AS ("
         "  SELECT m.show_id, max(m.tier) AS tier, max(m.updated) AS updated,"
         "   max(m.rank) FILTER (WHERE m.episode_id = 0) AS show_rank, max(m.rank) AS best_rank,"
         "   (array_agg(m.episode_id ORDER BY m.rank DESC, m.published DESC NULLS LAST, "
         "m.episode_id)"
         "    FILTER (WHERE m.episode_id <> 0))[1:$8::integer] AS episode_ids"
         "  FROM (SELECT * FROM shows_found UNION ALL SELECT * FROM episodes_found) m"
         "  GROUP BY m.show_id"
         ")"
         " SELECT g.show_id, coalesce(g.episode_ids, '{}')::text, g.tier, count(*) OVER (),"
         "  (SELECT count(*) FROM shows_found), (SELECT count(*) FROM episodes_found)"
         " FROM grouped g"
         " ORDER BY g.tier DESC, coalesce(g.show_rank, g.best_rank) DESC, g.updated DESC,"
         "  g.show_id"
         " LIMIT $3 OFFSET $4";
}

// The title words one edit away from $1, most alike first.
constexpr const char* k_typo_candidates =
    "SELECT word FROM search_words WHERE word % $1::text"
    " ORDER BY similarity(word, $1::text) DESC, word LIMIT 20";
// Alternatives kept for one word of a query.
constexpr std::size_t k_max_alternatives = 5;

struct Match {
  std::int64_t show_id = 0;
  std::vector<std::int64_t> episode_ids;
  bool show_matched = false;
  bool corrected = false;
  bool title_matched = false;
};

struct Matches {
  std::vector<Match> page;
  std::int64_t total = 0;
  bool more = false;
};

std::vector<std::int64_t> ids_of(const std::string& array_text) {
  std::vector<std::int64_t> ids;
  for (const auto id : internal::integer_array(array_text)) {
    if (id) {
      ids.push_back(*id);
    }
  }
  return ids;
}

// Where a search looks: its language (empty: every language) and whether in episodes too; and
// how many matching shows (and episodes) it ranks.
struct Scope {
  const std::string& language;
  bool episodes = true;
  std::int64_t candidates = model::k_search_candidates;
};

Matches find_matches(SnapshotTransaction& txn, const analysis::TextQuery& text, const Scope& scope,
                     std::int64_t offset, std::int64_t limit) {
  static const std::string k_with_episodes = search_matches(true);
  static const std::string k_shows_only = search_matches(false);
  const auto rows =
      scope.episodes
          ? exec_named(txn, "podcrawl_search_matches", k_with_episodes, text.leading,
                       scope.candidates, limit, offset, scope.language, text.last, text.typed,
                       model::k_search_episodes_per_show)
          : exec_named(txn, "podcrawl_search_show_matches", k_shows_only, text.leading,
                       scope.candidates, limit, offset, scope.language, text.last, text.typed);
  Matches matches;
  for (const auto& row : rows) {
    matches.page.push_back({row[0].as<std::int64_t>(), ids_of(row[1].as<std::string>()),
                            row[2].as<int>() > 0, false, row[2].as<int>() == 2});
  }
  if (!rows.empty()) {
    matches.total = rows[0][3].as<std::int64_t>();
    matches.more = rows[0][4].as<std::int64_t>() >= scope.candidates ||
                   rows[0][5].as<std::int64_t>() >= scope.candidates;
  }
  return matches;
}

// The title words each long word of the query may have been meant as: one edit away, in the
// vocabulary of titles, not the word itself.
analysis::Alternatives typo_alternatives(SnapshotTransaction& txn, const std::string& query) {
  analysis::Alternatives alternatives;
  for (const auto& term : analysis::query_terms(query)) {
    if (!analysis::correctable(term) || alternatives.contains(term)) {
      continue;
    }
    std::vector<std::string> words;
    for (const auto& row : exec_named(txn, "podcrawl_typo_candidates", k_typo_candidates, term)) {
      auto word = row[0].as<std::string>();
      if (word != term && words.size() < k_max_alternatives &&
          analysis::within_one_edit(term, word)) {
        words.push_back(std::move(word));
      }
    }
    if (!words.empty()) {
      alternatives.emplace(term, std::move(words));
    }
  }
  return alternatives;
}

// The exact matches, then, when they are fewer than model::k_search_typo_below, what the query
// finds with its typos read as the words meant.
Matches ranked_matches(SnapshotTransaction& txn, const std::string& query, const Scope& scope,
                       std::int64_t offset, std::int64_t limit) {
  const analysis::TextQuery exact = analysis::text_query(query);
  Matches found = find_matches(txn, exact, scope, offset, limit);
  if (found.total >= model::k_search_typo_below) {
    return found;
  }
  const analysis::Alternatives alternatives = typo_alternatives(txn, query);
  if (alternatives.empty()) {
    return found;
  }
  // A superset of the exact matches: those come first, the rest after, in their own order.
  const Matches exact_all = find_matches(txn, exact, scope, 0, model::k_search_typo_below);
  const Matches wider = find_matches(txn, analysis::text_query(query, alternatives), scope, 0,
                                     offset + limit + exact_all.total);
  std::vector<Match> all = exact_all.page;
  std::set<std::int64_t> seen;
  for (const auto& match : all) {
    seen.insert(match.show_id);
  }
  for (auto match : wider.page) {
    if (seen.insert(match.show_id).second) {
      match.corrected = true;
      all.push_back(std::move(match));
    }
  }
  Matches result;
  result.total = std::max<std::int64_t>(wider.total, static_cast<std::int64_t>(all.size()));
  result.more = wider.more;
  const auto first = std::min<std::size_t>(static_cast<std::size_t>(offset), all.size());
  const auto last = std::min<std::size_t>(first + static_cast<std::size_t>(limit), all.size());
  result.page.assign(all.begin() + static_cast<std::ptrdiff_t>(first),
                     all.begin() + static_cast<std::ptrdiff_t>(last));
  return result;
}

// The candidates a request ranks: as it asks, within 1..model::k_search_candidates.
std::int64_t candidates_of(const model::SearchRequest& request) {
  return std::clamp<std::int64_t>(request.candidates, 1, model::k_search_candidates);
}

// Whether a request's words (as stored text, `query`) are searched at all: not when there are
// none, too many, or only stop characters; not for an empty page, and not in `language` (its
// group) when the request named no language podcrawl knows (no show is in it).
bool runs(const model::SearchRequest& request, const std::string& query, std::int64_t limit,
          const std::string& language) {
  return !query.empty() && character_count(query) <= model::k_max_search_query_chars && limit > 0 &&
         request.offset >= 0 && !analysis::text_query(query).last.empty() &&
         (request.language.empty() || !language.empty());
}

} // namespace

DirectorySearch::DirectorySearch(Database& database) : m_impl(database.m_impl.get()) {}

std::vector<ShowHit> DirectorySearch::find_shows(const model::SearchRequest& request) {
  const std::string query = search_words(request.query);
  const std::int64_t limit = std::min(request.limit, candidates_of(request));
  const std::string language = l10n::language_group(request.language);
  if (!runs(request, query, limit, language)) {
    return {};
  }
  return guarded(m_impl->redacted_url, "search", [&] {
    SnapshotTransaction txn(m_impl->connection);
    txn.exec(k_search_settings);
    const Matches matches = ranked_matches(
        txn, query, {language, request.episodes, candidates_of(request)}, request.offset, limit);
    txn.commit();
    std::vector<ShowHit> hits;
    for (const auto& match : matches.page) {
      hits.push_back({match.show_id, match.title_matched});
    }
    return hits;
  });
}

model::SearchPage DirectorySearch::search(const model::SearchRequest& request) {
  model::SearchPage result;
  result.query = search_words(request.query);
  result.page = 1 + request.offset / std::max<std::int64_t>(1, request.limit);
  if (character_count(result.query) > model::k_max_search_query_chars) {
    result.too_long = true;
  }
  const std::int64_t limit = std::min(request.limit, candidates_of(request));
  const std::string language = l10n::language_group(request.language);
  if (!runs(request, result.query, limit, language)) {
    return result;
  }
  return guarded(m_impl->redacted_url, "search", [&] {
    SnapshotTransaction txn(m_impl->connection);
    txn.exec(k_search_settings);
    const Matches matches =
        ranked_matches(txn, result.query, {language, request.episodes, candidates_of(request)},
                       request.offset, limit);
    result.total = matches.total;
    result.more = matches.more;
    std::vector<std::int64_t> show_ids;
    std::vector<std::int64_t> episode_ids;
    for (const auto& match : matches.page) {
      show_ids.push_back(match.show_id);
      episode_ids.insert(episode_ids.end(), match.episode_ids.begin(), match.episode_ids.end());
    }
    static const std::string k_shows = std::string("SELECT ") + k_summary_columns +
                                       ", s.id FROM shows s WHERE s.id = ANY($1::bigint[])";
    std::map<std::int64_t, model::ShowSummary> shows;
    for (const auto& row : exec_named(txn, "podcrawl_search_shows", k_shows, id_array(show_ids))) {
      shows.emplace(row[6].as<std::int64_t>(), summary_from_row(row));
    }
    static const std::string k_episodes = std::string("SELECT ") + k_episode_columns +
                                          ", s.slug, s.title, s.effective_language, e.id FROM "
                                          "episodes e JOIN shows s ON s.id = e.show_id"
                                          " WHERE e.id = ANY($1::bigint[])";
    std::map<std::int64_t, model::EpisodeEntry> episodes;
    if (!episode_ids.empty()) {
      for (const auto& row :
           exec_named(txn, "podcrawl_search_episodes", k_episodes, id_array(episode_ids))) {
        episodes.emplace(row[k_after_episode + 3].as<std::int64_t>(), episode_entry_from_row(row));
      }
    }
    txn.commit();
    for (const auto& match : matches.page) {
      const auto show = shows.find(match.show_id);
      if (show == shows.end()) {
        continue;
      }
      model::SearchResult entry{show->second, match.show_matched, match.corrected, {}};
      for (const auto id : match.episode_ids) {
        if (const auto episode = episodes.find(id); episode != episodes.end()) {
          entry.episodes.push_back(episode->second);
        }
      }
      result.results.push_back(std::move(entry));
    }
    return result;
  });
}

std::optional<model::SearchPage> DirectorySearch::load_search_page(const std::string& query,
                                                                   std::int64_t page) {
  const std::int64_t last_page =
      model::page_count(2 * model::k_search_candidates, model::k_search_results_per_page);
  if (page < 1 || page > last_page) {
    return std::nullopt;
  }
  model::SearchPage result = search(
      {query, "", (page - 1) * model::k_search_results_per_page, model::k_search_results_per_page});
  result.page = page;
  if (page > 1 && result.results.empty()) {
    return std::nullopt;
  }
  return result;
}

namespace {

// The index text of shows and episodes, written from their stored text by reindex, with the
// words of their titles ($2) for typos.
const std::string k_reindex_shows =
    "WITH v AS (SELECT * FROM json_to_recordset($1::json) AS v(id bigint, title text,"
    "  author text, notes text)),"
    " rewritten AS ("
    "  UPDATE shows s SET search_title = v.title, search_author = v.author, search_notes = v.notes,"
    "   search_vector = " +
    show_search_vector("s.search_config", "v.title", "v.author", "v.notes") +
    "  FROM v WHERE s.id = v.id RETURNING 1) " + write_typo_words("$2");

const std::string k_reindex_episodes =
    "WITH v AS (SELECT * FROM json_to_recordset($1::json) AS v(id bigint, title text,"
    "  notes text)),"
    " rewritten AS ("
    "  UPDATE episodes e SET search_title = v.title, search_notes = v.notes, search_vector = " +
    episode_search_vector("e.search_config", "v.title", "v.notes") +
    "  FROM v WHERE e.id = v.id RETURNING 1) " + write_typo_words("$2");

// Tries of a batch that lost a deadlock to a crawl writing the same rows.
constexpr int k_reindex_tries = 3;

} // namespace

void DirectorySearch::reindex(int batch,
                              const std::function<void(std::int64_t, std::int64_t)>& progress) {
  batch = std::max(batch, 1);
  guarded(m_impl->redacted_url, "reindex", [&] {
    std::int64_t total = 0;
    {
      pqxx::read_transaction txn(m_impl->connection);
      total = txn.exec1("SELECT (SELECT count(*) FROM shows) + (SELECT count(*) FROM episodes)")[0]
                  .as<std::int64_t>();
      txn.commit();
    }
    std::int64_t done = 0;
    for (const bool shows : {true, false}) {
      const std::string read =
          shows ? "SELECT id, title, author, description FROM shows WHERE id > $1"
                  " ORDER BY id LIMIT $2"
                : "SELECT id, title, description FROM episodes WHERE id > $1 ORDER BY id LIMIT $2";
      for (std::int64_t after = 0;;) {
        pqxx::result rows;
        {
          pqxx::read_transaction txn(m_impl->connection);
          rows = txn.exec_params(read, after, batch);
          txn.commit();
        }
        if (rows.empty()) {
          break;
        }
        nlohmann::json values = nlohmann::json::array();
        std::string titles;
        for (const auto& row : rows) {
          const auto description = row[shows ? 3 : 2].as<std::string>();
          const auto raw_title = row[1].as<std::string>();
          const std::string title =
              shows ? analysis::title_index_text(raw_title) : analysis::index_text(raw_title);
          titles += title + " ";
          nlohmann::json value = {
              {"id", row[0].as<std::int64_t>()},
              {"title", title},
              {"notes", analysis::index_text(search_notes(description, k_max_search_notes_bytes))}};
          if (shows) {
            value["author"] = analysis::index_text(row[2].as<std::string>());
          }
          values.push_back(std::move(value));
        }
        const std::string json =
            values.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        for (int attempt = 1;; ++attempt) {
          try {
            pqxx::work txn(m_impl->connection);
            txn.exec_params(shows ? k_reindex_shows : k_reindex_episodes, json,
                            typo_words_to_write(titles));
            txn.commit();
            break;
          } catch (const pqxx::transaction_rollback&) {
            if (attempt == k_reindex_tries) {
              throw;
            }
          }
        }
        after = rows[rows.size() - 1][0].as<std::int64_t>();
        done += static_cast<std::int64_t>(rows.size());
        if (progress) {
          progress(done, std::max(done, total));
        }
      }
    }
    // Every row was rewritten: without a vacuum, searches read the dead versions and the text
    // search indexes' pending entries until autovacuum gets to them (a search took twice as long).
    pqxx::nontransaction txn(m_impl->connection);
    txn.exec0("VACUUM (ANALYZE) shows");
    txn.exec0("VACUUM (ANALYZE) episodes");
    txn.exec0("VACUUM (ANALYZE) search_words");
  });
}

} // namespace podcrawl::store

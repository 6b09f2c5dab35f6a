#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "podcrawl/feed/json.hpp"
#include "rows_internal.hpp"
#include "store_internal.hpp"

namespace podcrawl::store {
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

Stats read_stats(pqxx::transaction_base& txn) {
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
  const auto hosts = txn.exec_params(
      "SELECT host, concurrency, requests, throttled, overloaded, peak, mean_latency_seconds"
      " FROM host_paces WHERE run_id = (SELECT id FROM crawl_runs"
      "  ORDER BY started_at DESC, id DESC LIMIT 1)"
      " ORDER BY requests DESC, host LIMIT $1",
      k_max_stats_hosts);
  for (const auto& row : hosts) {
    stats.last_crawl_hosts.push_back({row[0].as<std::string>(), row[1].as<double>(),
                                      row[2].as<std::int64_t>(), row[3].as<std::int64_t>(),
                                      row[4].as<std::int64_t>(), row[5].as<int>(),
                                      row[6].as<double>()});
  }
  return stats;
}

Stats Database::stats() {
  return guarded(m_impl->redacted_url, "stats", [&] {
    SnapshotTransaction txn(m_impl->connection);
    Stats stats = read_stats(txn);
    txn.commit();
    return stats;
  });
}

} // namespace podcrawl::store

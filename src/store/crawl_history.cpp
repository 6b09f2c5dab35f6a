#include "podcrawl/store/crawl_history.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "podcrawl/store/database.hpp"
#include "podcrawl/store/history.hpp"
#include "rows_internal.hpp"
#include "store_internal.hpp"

namespace podcrawl::store {

namespace {

using internal::bounded_text;
using internal::commit_without_flush_wait;
using internal::exec_named;
using internal::guarded;
using internal::k_max_host_bytes;
using internal::nullable;
using internal::read_stats;
using internal::SnapshotTransaction;

constexpr const char* k_kind_columns[model::k_fetch_kinds] = {
    "ok",           "unchanged",  "not_modified", "deferred",  "network", "client_error",
    "server_error", "http_other", "not_a_feed",   "too_large", "refused", "gone"};
// The figures' columns after the kinds, and the bucket array last.
constexpr const char* k_count_columns[] = {"new_episodes", "bytes"};

// "ok, unchanged, …, bytes" with each name passed through `column`.
template <typename Column>
std::string figure_columns(Column column) {
  std::string out;
  for (const char* name : k_kind_columns) {
    out += column(std::string(name)) + ", ";
  }
  for (const char* name : k_count_columns) {
    out += column(std::string(name)) + ", ";
  }
  return out;
}

std::string plain_columns() {
  return figure_columns([](const std::string& name) { return name; }) + "latency";
}

// The record definition jsonb_to_record(set) reads the figures with.
std::string record_columns() {
  return figure_columns([](const std::string& name) { return name + " bigint"; }) +
         "latency bigint[]";
}

std::string record_values() {
  return figure_columns([](const std::string& name) { return "r." + name; }) + "r.latency";
}

// SET clause of an upsert: replace (a run's row) or add (an hour's).
std::string set_clause(bool add) {
  std::string out = figure_columns([add](const std::string& name) {
    return name + " = " + (add ? "t." + name + " + excluded." + name : "excluded." + name);
  });
  return out + (add ? "latency = podcrawl_buckets_add(t.latency, excluded.latency)"
                    : "latency = excluded.latency");
}

nlohmann::json figures_json(const model::CrawlFigures& figures) {
  nlohmann::json out = nlohmann::json::object();
  for (std::size_t i = 0; i < model::k_fetch_kinds; ++i) {
    out[k_kind_columns[i]] = figures.outcomes[i];
  }
  out["new_episodes"] = figures.new_episodes;
  out["bytes"] = figures.bytes;
  out["latency"] = figures.latency;
  return out;
}

// Reads the figures from `first` on: the kinds, the counts, and the buckets as "1,2,3" when the
// row has them.
model::CrawlFigures figures_from_row(const pqxx::row& row, pqxx::row::size_type first) {
  model::CrawlFigures figures;
  auto column = first;
  for (std::size_t i = 0; i < model::k_fetch_kinds; ++i) {
    figures.outcomes[i] = row[column++].as<std::int64_t>(0);
  }
  figures.new_episodes = row[column++].as<std::int64_t>(0);
  figures.bytes = row[column++].as<std::int64_t>(0);
  if (column >= row.size()) {
    return figures; // read without its buckets
  }
  const std::string buckets = row[column].as<std::string>("");
  std::size_t bucket = 0;
  const char* at = buckets.data();
  const char* const end = at + buckets.size();
  while (at < end && bucket < model::k_latency_buckets) {
    std::int64_t count = 0;
    const auto parsed = std::from_chars(at, end, count);
    if (parsed.ec != std::errc()) {
      break;
    }
    figures.latency[bucket++] = count;
    at = parsed.ptr < end ? parsed.ptr + 1 : end;
  }
  return figures;
}

// sum(ok), sum(unchanged), …: the figures summed over a group.
std::string summed_columns() {
  std::string out = figure_columns([](const std::string& name) { return "sum(" + name + ")"; });
  return out.substr(0, out.size() - 2); // no buckets: they are summed apart, set-wise
}

std::string requests_expression() {
  std::string out;
  for (std::size_t i = 0; i < model::k_fetch_kinds; ++i) {
    if (static_cast<model::FetchKind>(i) != model::FetchKind::deferred) {
      out += std::string(out.empty() ? "" : " + ") + k_kind_columns[i];
    }
  }
  return out;
}

constexpr std::int64_t k_day_seconds = 86400;
// The log of fetches is pruned in batches of this many rows, at most this many batches a crawl.
constexpr std::int64_t k_fetch_prune_batch = 10000;
constexpr int k_fetch_prune_batches = 50;
// A feed due for longer than this and not fetched is overdue.
constexpr std::int64_t k_overdue_seconds = 3600;

} // namespace

const char* column_name(model::FetchKind kind) {
  return k_kind_columns[static_cast<std::size_t>(kind)];
}

CrawlHistory::CrawlHistory(Database& database) : m_impl(database.m_impl.get()) {}

void CrawlHistory::add_history(std::int64_t run_id, const model::CrawlFigures& run,
                               const HistoryDelta& delta) {
  static const std::string k_run_sql = "INSERT INTO crawl_run_figures AS t (run_id, " +
                                       plain_columns() + ") SELECT $1, " + record_values() +
                                       " FROM jsonb_to_record($2::jsonb) AS r(" + record_columns() +
                                       ") ON CONFLICT (run_id) DO UPDATE SET " + set_clause(false);
  static const std::string k_hours_sql =
      "INSERT INTO crawl_hours AS t (hour, " + plain_columns() + ") SELECT to_timestamp(r.hour), " +
      record_values() + " FROM jsonb_to_recordset($1::jsonb) AS r(hour bigint, " +
      record_columns() + ") ORDER BY r.hour ON CONFLICT (hour) DO UPDATE SET " + set_clause(true);
  static const std::string k_host_hours_sql =
      "INSERT INTO crawl_host_hours AS t (hour, host, " + plain_columns() +
      ") SELECT to_timestamp(r.hour), r.host, " + record_values() +
      " FROM jsonb_to_recordset($1::jsonb) AS r(hour bigint, host text, " + record_columns() +
      ") WHERE r.host <> '' ORDER BY r.hour, r.host"
      " ON CONFLICT (hour, host) DO UPDATE SET " +
      set_clause(true);
  nlohmann::json hours = nlohmann::json::array();
  for (const auto& [hour, figures] : delta.hours) {
    auto row = figures_json(figures);
    row["hour"] = hour;
    hours.push_back(std::move(row));
  }
  // Host names bounded first: two names that share their first bytes become one row.
  std::map<std::pair<std::int64_t, std::string>, model::CrawlFigures> host_hours;
  for (const auto& [key, figures] : delta.host_hours) {
    host_hours[{key.first, bounded_text(key.second, k_max_host_bytes)}].add(figures);
  }
  nlohmann::json hosts = nlohmann::json::array();
  for (const auto& [key, figures] : host_hours) {
    auto row = figures_json(figures);
    row["hour"] = key.first;
    row["host"] = key.second;
    hosts.push_back(std::move(row));
  }
  const auto dump = [](const nlohmann::json& json) {
    return json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  };
  guarded(m_impl->redacted_url, "write crawl history", [&] {
    pqxx::work txn(m_impl->connection);
    commit_without_flush_wait(txn);
    exec_named(txn, "podcrawl_history_run", k_run_sql, run_id, dump(figures_json(run)));
    if (!hours.empty()) {
      exec_named(txn, "podcrawl_history_hours", k_hours_sql, dump(hours));
    }
    if (!hosts.empty()) {
      exec_named(txn, "podcrawl_history_host_hours", k_host_hours_sql, dump(hosts));
    }
    txn.commit();
  });
}

std::int64_t CrawlHistory::prune_history(std::int64_t before) {
  return guarded(m_impl->redacted_url, "prune crawl history", [&] {
    pqxx::work txn(m_impl->connection);
    const auto row = txn.exec_params1(
        "WITH newest AS (SELECT id FROM crawl_runs ORDER BY started_at DESC, id DESC LIMIT 1),"
        " runs AS (DELETE FROM crawl_runs WHERE started_at < to_timestamp($1::bigint)"
        "  AND (finished_at IS NOT NULL"
        "       OR started_at < to_timestamp($1::bigint) - interval '30 days')"
        "  AND id NOT IN (SELECT id FROM newest) RETURNING 1),"
        " hours AS (DELETE FROM crawl_hours WHERE hour < to_timestamp($1::bigint) RETURNING 1),"
        " hosts AS (DELETE FROM crawl_host_hours WHERE hour < to_timestamp($1::bigint)"
        "  RETURNING 1)"
        " SELECT (SELECT count(*) FROM runs) + (SELECT count(*) FROM hours)"
        "  + (SELECT count(*) FROM hosts)",
        before);
    txn.commit();
    std::int64_t pruned = row[0].as<std::int64_t>();
    // The log of every fetch, oldest first (its ids grow with time), a batch a statement, so
    // that no lock is held long; a crawl deletes at most k_fetch_prune_batches of them, and the
    // next one goes on where it stopped.
    pqxx::nontransaction batches(m_impl->connection);
    for (int batch = 0; batch < k_fetch_prune_batches; ++batch) {
      const auto deleted =
          exec_named(batches, "podcrawl_prune_fetches",
                     "WITH oldest AS (SELECT id, fetched_at FROM fetches ORDER BY id LIMIT $2),"
                     " gone AS (DELETE FROM fetches f USING oldest o"
                     "  WHERE f.id = o.id AND o.fetched_at < to_timestamp($1::bigint)"
                     "  RETURNING 1)"
                     " SELECT count(*) FROM gone",
                     before, k_fetch_prune_batch)[0][0]
              .as<std::int64_t>();
      pruned += deleted;
      if (deleted < k_fetch_prune_batch) {
        break;
      }
    }
    return pruned;
  });
}

std::optional<model::CrawlFigures> CrawlHistory::run_figures(std::int64_t run_id) {
  return guarded(m_impl->redacted_url, "read run figures", [&] {
    pqxx::nontransaction txn(m_impl->connection);
    const auto result = txn.exec_params(
        "SELECT " + figure_columns([](const std::string& name) { return name; }) +
            "array_to_string(latency, ',') FROM crawl_run_figures WHERE run_id = $1",
        run_id);
    if (result.empty()) {
      return std::optional<model::CrawlFigures>();
    }
    return std::optional(figures_from_row(result[0], 0));
  });
}

model::CrawlReport CrawlHistory::crawl_report(std::int64_t now, int days) {
  model::CrawlReport report;
  report.now = now;
  report.days = std::max(days, 1);
  const std::int64_t today = now - (now % k_day_seconds + k_day_seconds) % k_day_seconds;
  report.since = today - (report.days - 1) * k_day_seconds;
  const std::int64_t until = today + k_day_seconds;
  return guarded(m_impl->redacted_url, "read the crawl report", [&] {
    SnapshotTransaction txn(m_impl->connection);
    report.stats = read_stats(txn);
    const auto counts = txn.exec_params1(
        "SELECT (SELECT count(*) FROM crawl_runs WHERE started_at >= to_timestamp($1::bigint)"
        "  AND started_at < to_timestamp($2::bigint)),"
        " (SELECT count(*) FROM feeds WHERE status IN ('active', 'failing')"
        "  AND (next_fetch_at < to_timestamp($3::bigint)"
        "       OR (next_fetch_at IS NULL AND added_at < to_timestamp($3::bigint))))",
        report.since, until, now - k_overdue_seconds);
    report.runs = counts[0].as<std::int64_t>();
    report.overdue = counts[1].as<std::int64_t>();

    for (std::int64_t day = report.since; day < until; day += k_day_seconds) {
      report.by_day.emplace_back(day, model::CrawlFigures{});
    }
    const auto hours = txn.exec_params(
        "SELECT extract(epoch FROM hour)::bigint, " +
            figure_columns([](const std::string& name) { return name; }) +
            "array_to_string(latency, ',') FROM crawl_hours"
            " WHERE hour >= to_timestamp($1::bigint) AND hour < to_timestamp($2::bigint)"
            " ORDER BY hour",
        report.since, until);
    for (const auto& row : hours) {
      const auto day =
          static_cast<std::size_t>((row[0].as<std::int64_t>() - report.since) / k_day_seconds);
      const model::CrawlFigures figures = figures_from_row(row, 1);
      if (day < report.by_day.size()) {
        report.by_day[day].second.add(figures);
        report.total.add(figures);
      }
    }

    const auto hosts = txn.exec_params(
        "SELECT host, " + summed_columns() +
            " FROM crawl_host_hours"
            " WHERE hour >= to_timestamp($1::bigint) AND hour < to_timestamp($2::bigint)"
            " GROUP BY host ORDER BY sum(" +
            requests_expression() + ") DESC, host LIMIT $3",
        report.since, until, static_cast<std::int64_t>(model::k_max_report_hosts));
    std::map<std::string, std::size_t> host_index;
    nlohmann::json names = nlohmann::json::array();
    for (const auto& row : hosts) {
      host_index.emplace(row[0].as<std::string>(), report.hosts.size());
      names.push_back(row[0].as<std::string>());
      report.hosts.push_back({row[0].as<std::string>(), figures_from_row(row, 1), {}, {}});
    }
    // Their latency buckets, summed bucket by bucket by the server.
    const auto buckets = txn.exec_params(
        "SELECT h.host, u.n, sum(u.x) FROM crawl_host_hours h,"
        " unnest(h.latency) WITH ORDINALITY AS u(x, n)"
        " WHERE h.hour >= to_timestamp($1::bigint) AND h.hour < to_timestamp($2::bigint)"
        "  AND h.host IN (SELECT jsonb_array_elements_text($3::jsonb))"
        " GROUP BY h.host, u.n",
        report.since, until, names.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    for (const auto& row : buckets) {
      const auto found = host_index.find(row[0].as<std::string>());
      const auto bucket = row[1].as<std::int64_t>() - 1;
      if (found != host_index.end() && bucket >= 0 &&
          bucket < static_cast<std::int64_t>(model::k_latency_buckets)) {
        report.hosts[found->second].figures.latency[static_cast<std::size_t>(bucket)] =
            row[2].as<std::int64_t>();
      }
    }
    for (auto& host : report.hosts) {
      host.median_seconds = model::latency_quantile(host.figures.latency, 0.5);
      host.slow_seconds = model::latency_quantile(host.figures.latency, 0.9);
    }

    // A failing feed has failed since the fetch after its last success (or its first fetch).
    const auto failing = txn.exec_params(
        "SELECT f.url, f.last_status, f.last_error, extract(epoch FROM f.last_fetch_at)::bigint,"
        " (SELECT extract(epoch FROM min(x.fetched_at))::bigint FROM fetches x"
        "  WHERE x.feed_id = f.id AND x.outcome IN ('failed', 'gone')"
        "   AND x.fetched_at > coalesce((SELECT max(y.fetched_at) FROM fetches y"
        "    WHERE y.feed_id = f.id AND y.outcome NOT IN ('failed', 'gone')), '-infinity'))"
        " FROM feeds f WHERE f.status = 'failing'"
        " ORDER BY f.failure_score DESC, f.last_fetch_at DESC NULLS LAST, f.id LIMIT $1",
        static_cast<std::int64_t>(model::k_max_failing_feeds));
    for (const auto& row : failing) {
      report.failing_feeds.push_back({row[0].as<std::string>(), nullable<int>(row[1]),
                                      row[2].as<std::string>(), nullable<std::int64_t>(row[3]),
                                      nullable<std::int64_t>(row[4])});
    }
    report.failing_total = report.stats.feeds_failing;
    report.median_seconds = model::latency_quantile(report.total.latency, 0.5);
    report.slow_seconds = model::latency_quantile(report.total.latency, 0.9);
    txn.commit();
    return report;
  });
}

std::int64_t CrawlHistory::begin_crawl_run(std::int64_t now) {
  return guarded(m_impl->redacted_url, "begin crawl run", [&] {
    pqxx::work txn(m_impl->connection);
    const auto row = txn.exec_params1(
        "INSERT INTO crawl_runs (started_at) VALUES (to_timestamp($1::bigint)) RETURNING id", now);
    txn.commit();
    return row[0].as<std::int64_t>();
  });
}

void CrawlHistory::finish_crawl_run(std::int64_t run_id, const model::CrawlRunStats& totals) {
  guarded(m_impl->redacted_url, "finish crawl run", [&] {
    pqxx::work txn(m_impl->connection);
    txn.exec_params(
        "UPDATE crawl_runs SET finished_at = coalesce(to_timestamp($2::bigint), now()),"
        " fetched = $3, not_modified = $4, failed = $5, new_episodes = $6 WHERE id = $1",
        run_id, totals.finished_at, totals.fetched, totals.not_modified, totals.failed,
        totals.new_episodes);
    txn.commit();
  });
}

std::map<std::string, double> CrawlHistory::load_host_paces() {
  return guarded(m_impl->redacted_url, "load host paces", [&] {
    pqxx::nontransaction txn(m_impl->connection);
    std::map<std::string, double> paces;
    for (const auto& row : txn.exec_params(
             "SELECT host, concurrency FROM host_paces ORDER BY updated_at DESC LIMIT $1",
             k_max_learned_hosts)) {
      paces.emplace(row[0].as<std::string>(), row[1].as<double>());
    }
    return paces;
  });
}

void CrawlHistory::save_host_paces(std::int64_t run_id,
                                   const std::vector<model::HostPaceRecord>& hosts,
                                   std::int64_t now) {
  if (hosts.empty()) {
    return;
  }
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& host : hosts) {
    rows.push_back({{"host", bounded_text(host.host, k_max_host_bytes)},
                    {"concurrency", host.concurrency},
                    {"requests", host.requests},
                    {"throttled", host.throttled},
                    {"overloaded", host.overloaded},
                    {"peak", host.peak},
                    {"latency", host.mean_latency_seconds}});
  }
  guarded(m_impl->redacted_url, "save host paces", [&] {
    pqxx::work txn(m_impl->connection);
    // Sorted by host, so that two crawlers saving at once lock the rows in the same order.
    txn.exec_params(
        "INSERT INTO host_paces AS p (host, concurrency, run_id, requests, throttled, overloaded,"
        "  peak, mean_latency_seconds, updated_at)"
        " SELECT r.host, r.concurrency, $2, r.requests, r.throttled, r.overloaded, r.peak,"
        "  r.latency, to_timestamp($3::bigint)"
        " FROM jsonb_to_recordset($1::jsonb) AS r(host text, concurrency float8, requests bigint,"
        "  throttled bigint, overloaded bigint, peak int, latency float8)"
        " WHERE r.host <> '' ORDER BY r.host"
        " ON CONFLICT (host) DO UPDATE SET concurrency = excluded.concurrency,"
        "  run_id = excluded.run_id, requests = excluded.requests,"
        "  throttled = excluded.throttled, overloaded = excluded.overloaded,"
        "  peak = excluded.peak, mean_latency_seconds = excluded.mean_latency_seconds,"
        "  updated_at = excluded.updated_at",
        rows.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), run_id, now);
    txn.commit();
  });
}

namespace internal {

model::Stats read_stats(pqxx::transaction_base& txn) {
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
  model::Stats stats;
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
    model::CrawlRunStats run;
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
      model::k_max_stats_hosts);
  for (const auto& row : hosts) {
    stats.last_crawl_hosts.push_back({row[0].as<std::string>(), row[1].as<double>(),
                                      row[2].as<std::int64_t>(), row[3].as<std::int64_t>(),
                                      row[4].as<std::int64_t>(), row[5].as<int>(),
                                      row[6].as<double>()});
  }
  const auto hubs = txn.exec_params(
      "WITH hubs AS (SELECT hub FROM websub_hub_counts UNION SELECT hub FROM websub_hubs"
      "  UNION SELECT hub FROM websub_subscriptions WHERE state = 'active')"
      " SELECT h.hub,"
      "  coalesce((SELECT new_episodes FROM websub_hub_counts c"
      "   WHERE c.hub = h.hub AND c.first = 'push'), 0),"
      "  coalesce((SELECT new_episodes FROM websub_hub_counts c"
      "   WHERE c.hub = h.hub AND c.first = 'poll'), 0),"
      "  (SELECT count(*) FROM websub_subscriptions s WHERE s.hub = h.hub AND s.state = 'active')"
      "   AS subscriptions,"
      "  (SELECT extract(epoch FROM last_push_at)::bigint FROM websub_hubs w WHERE w.hub = h.hub)"
      " FROM hubs h ORDER BY subscriptions DESC, h.hub LIMIT $1",
      model::k_max_stats_hubs);
  for (const auto& row : hubs) {
    stats.websub_hubs.push_back({row[0].as<std::string>(), row[1].as<std::int64_t>(),
                                 row[2].as<std::int64_t>(), row[3].as<std::int64_t>(),
                                 nullable<std::int64_t>(row[4])});
  }
  return stats;
}

} // namespace internal

model::Stats CrawlHistory::stats() {
  return guarded(m_impl->redacted_url, "stats", [&] {
    SnapshotTransaction txn(m_impl->connection);
    model::Stats stats = read_stats(txn);
    txn.commit();
    return stats;
  });
}

} // namespace podcrawl::store

#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "podcrawl/store/database.hpp"
#include "podcrawl/store/history.hpp"
#include "podcrawl/store/records.hpp"

namespace podcrawl::store {

// What crawls saw: their runs, the hosts' learned paces, the hourly figures and the log of
// fetches, and the summaries `stats` and `report` read from them.
class CrawlHistory {
public:
  explicit CrawlHistory(Database& database);

  // Bookkeeping for `stats`: a crawl run's start and its totals at the end.
  std::int64_t begin_crawl_run(std::int64_t now);
  void finish_crawl_run(std::int64_t run_id, const model::CrawlRunStats& totals);
  // The paces hosts were left at by earlier crawls, for the k_max_learned_hosts most recently
  // asked hosts.
  std::map<std::string, double> load_host_paces();
  // Remember the hosts' paces and the figures run `run_id` saw so far, one statement.
  void save_host_paces(std::int64_t run_id, const std::vector<model::HostPaceRecord>& hosts,
                       std::int64_t now);

  // Write what run `run_id` saw: `run` is its figures so far (they replace the run's row), and
  // `delta` what it saw since its last write (added to the hours' and host-hours' rows). One
  // transaction; rows locked in key order, so crawls writing at once never deadlock.
  void add_history(std::int64_t run_id, const model::CrawlFigures& run, const HistoryDelta& delta);
  // Delete the history from before `before` (Unix seconds): runs that started earlier and
  // finished (or died, unfinished, 30 days before that), never the newest; hours and
  // host-hours; and the log of fetches, oldest first, up to 500,000 rows a call. Returns the
  // rows deleted.
  std::int64_t prune_history(std::int64_t before);
  // The figures of one run; nullopt when it wrote none.
  std::optional<model::CrawlFigures> run_figures(std::int64_t run_id);
  // The report of the `days` UTC days up to and including the one of `now`, in one snapshot.
  model::CrawlReport crawl_report(std::int64_t now, int days);

  // The counts `podcrawl stats` prints: the crawl list by status, shows, episodes, and the last
  // crawl with the hosts it asked.
  model::Stats stats();

private:
  Database::Impl* m_impl;
};

} // namespace podcrawl::store

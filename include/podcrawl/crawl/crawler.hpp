#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "podcrawl/core/config.hpp"
#include "podcrawl/core/stop_signals.hpp"
#include "podcrawl/crawl/artwork.hpp"
#include "podcrawl/feed/model.hpp"
#include "podcrawl/fetch/fetcher.hpp"

namespace podcrawl::crawl {

struct CrawlOptions {
  std::optional<std::int64_t> limit;            // at most this many feeds
  int concurrency = 64;                         // feeds in flight at once
  std::optional<std::int64_t> deadline_seconds; // claim no new feed after this long
  bool all = false;                             // every listed feed, due or not
};

struct CrawlSummary {
  std::int64_t claimed = 0;
  std::int64_t fetched = 0;      // 2xx and parsed
  std::int64_t not_modified = 0; // 304
  std::int64_t failed = 0;       // fetch or parse failed, gone included
  std::int64_t deferred = 0;     // not asked: their host asked for a pause (Retry-After)
  std::int64_t new_episodes = 0;
  // The hosts with the most feeds waiting for their pace, most first, as "host (N waiting)".
  std::vector<std::string> slowest_hosts;
};

// Called after each feed, from worker threads one at a time, with the running totals.
using Progress = std::function<void(const CrawlSummary&)>;

// Fetch every due feed (or all), store what changed and schedule the next fetch. One thread
// claims feeds in batches (with a lease, so crawls running at the same time in other processes
// or on other machines never fetch one feed twice) and drives every transfer through one
// fetch::TransferPool; worker threads, each with its own connection to database_url, parse and
// store what arrives through a bounded queue. A feed that fails is recorded on the feed; only
// environment failures (the database) throw.
CrawlSummary run_crawl(const std::string& database_url, const core::Config& config,
                       const CrawlOptions& options, const Progress& progress);

// What a watching crawl did between two reports: from the moment it found feeds due until it
// had nothing in flight again (or a minute of it, when it never runs dry), and the cover art it
// fetched then.
struct WatchBatch {
  CrawlSummary feeds;            // the batch's own counts
  std::int64_t urgent = 0;       // of its feeds, those claimed as they were announced urgent
  std::optional<ArtSummary> art; // when a pass over the cover art due ran after it
  // When the watcher looks for due feeds next, unless woken before (Unix seconds); nullopt
  // while it is busy.
  std::optional<std::int64_t> next_look_at;
};

struct WatchOptions {
  // Ends the watch when it fires: no feed is claimed after it, the transfers in flight finish
  // and are recorded, and the feeds claimed but not yet asked are handed back, due at once. Its
  // old dispositions are restored then, so that a second signal ends the process. nullptr: the
  // watch ends only at CrawlOptions::deadline_seconds.
  core::StopSignals* stop = nullptr;
  bool art = true;         // fetch the cover art that is due between batches
  int art_concurrency = 8; // images in flight at once then
  // Called on the watching thread after each batch.
  std::function<void(const WatchBatch&)> on_batch;
};

// Stay up and fetch feeds as they fall due: run_crawl's claims, transfers, bounds and records,
// without an end. Feeds announced urgent (store::UrgentFeeds, on a connection of its own) are
// claimed at once, ahead of the others due. With nothing due, the watcher sleeps until the next
// feed falls due, at most a minute (feeds added since, leases that ran out), and asks the
// database nothing meanwhile. Between batches, and at least every 15 minutes, it fetches the
// cover art that is due, as a crawl does after its feeds. What it sees is recorded as a crawl run
// an hour, so that `stats` and `report` read a watcher as they read crawls. A lost database
// connection is logged once and retried every few seconds; only other environment failures
// throw. Returns once watch.stop fires (or the deadline passes) and the transfers in flight are
// recorded, with the totals since the database was last reached. options.limit and options.all
// do not apply.
CrawlSummary watch_feeds(const std::string& database_url, const core::Config& config,
                         const CrawlOptions& options, const WatchOptions& watch);

// What one failed fetch adds to its feed's failure score: the weight of its kind. `outcome` is
// the fetch's; `ok` stands for a document that arrived but did not parse (not a feed, or
// malformed), and http_status is the response's (0 when none arrived). Always >= 1.
int failure_weight(fetch::FetchOutcome outcome, int http_status);

// Seconds to wait before retrying a feed whose failure score is `score` (>= 1) after its latest
// failure: base * 2^(score-1), capped at the ceiling, then spread by jitter in [0, 1) over its
// last quarter so that feeds failing together do not retry together.
std::int64_t backoff_seconds(int score, const core::CrawlConfig& config, double jitter);

// Seconds until a show that just parsed is due again: the median gap between its latest dated
// episodes (up to 10), clamped to [min_refresh_seconds, max_refresh_seconds];
// refresh_interval_seconds when fewer than two episodes carry a date.
std::int64_t refresh_seconds(const feed::Show& show, const core::CrawlConfig& config);

} // namespace podcrawl::crawl

#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "podcrawl/core/error.hpp"
#include "podcrawl/feed/model.hpp"
#include "podcrawl/store/artwork.hpp"
#include "podcrawl/store/history.hpp"
#include "podcrawl/store/pages.hpp"
#include "podcrawl/store/records.hpp"

namespace podcrawl::store {

// The database could not be reached: a connection that could not be made, or that broke. Other
// failures of the server (a statement timeout, a constraint) are plain EnvironmentErrors.
class ConnectionLost : public core::EnvironmentError {
public:
  using core::EnvironmentError::EnvironmentError;
};

enum class AddOutcome { added, exists };

// What a successful fetch delivered, stored with the feed's state.
struct FetchMeta {
  int http_status = 200;
  std::string etag;
  std::string last_modified;
  std::string content_hash; // core::content_hash of the body
};

struct SaveOutcome {
  std::string show_slug;
  std::int64_t new_episodes = 0;
};

// All SQL of podcrawl lives behind this class. Every statement is parameterized. Errors from
// libpqxx are translated here: connection and server failures become core::EnvironmentError.
// One Database is one connection; use one per thread.
class Database {
public:
  // Connect (an empty URL uses libpq's defaults). Throws ConnectionLost when the server cannot
  // be reached, naming the URL without its password.
  explicit Database(const std::string& url);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // Apply the numbered *.sql files of sql_dir not yet applied, in order, each in a transaction,
  // recording them in schema_migrations; concurrent callers serialize on an advisory lock.
  // Returns the names applied now. Throws core::EnvironmentError, applying nothing, when
  // schema_migrations names a migration sql_dir does not hold: a newer podcrawl migrated the
  // database, and this one must not write to a schema it does not know.
  std::vector<std::string> migrate(const std::filesystem::path& sql_dir);
  // Check, writing nothing, that the database's schema is exactly the one sql_dir describes:
  // for a read-only replica, which cannot be migrated. Throws core::EnvironmentError naming
  // the first migration that is not applied (the schema is older) or that sql_dir does not
  // hold (newer).
  void check_schema(const std::filesystem::path& sql_dir);

  // ---- the crawl list ----
  // Add a normalized URL. A removed or gone feed is re-activated (added); a listed one, or a
  // URL a listed feed moved away from (an alias), is `exists`.
  AddOutcome add_feed(const std::string& url, std::int64_t now);
  // add_feed for each URL, in one transaction (one statement): an outcome per URL, in order. A
  // URL given twice is `exists` the second time.
  std::vector<AddOutcome> add_feeds(const std::vector<std::string>& urls, std::int64_t now);
  // Mark the feed removed (its show stays, inactive). False when the URL is not listed.
  bool remove_feed(const std::string& url);
  // The crawl list, ordered by URL; nullopt lists every status but removed.
  std::vector<FeedRecord> list_feeds(std::optional<FeedStatus> status);
  std::optional<FeedRecord> find_feed(const std::string& url);

  // ---- crawling ----
  // Claim up to limit active or failing feeds, skipping feeds another crawler holds: each
  // claimed feed is leased until now + lease_seconds, or until this connection closes, whichever
  // comes first, so concurrent crawls never fetch one feed twice and a crawler that dies leaves
  // nothing claimed. Keep this Database open for as long as the claimed feeds are worked on.
  // Without all, the feeds due at `now`, most overdue first; with all, every feed with an id above
  // after_id, in id order (pass the last id claimed to walk the whole list once).
  std::vector<FeedRecord> claim_due_feeds(int limit, bool all, std::int64_t now,
                                          std::int64_t lease_seconds, std::int64_t after_id = 0);
  // A claimed feed left unasked (its host asked for a pause): its lease ends and it is next due
  // at next_fetch_at; nothing else about it changes.
  void defer_feed(std::int64_t feed_id, std::int64_t next_fetch_at);
  // 304: only the schedule changes.
  void record_not_modified(std::int64_t feed_id, std::int64_t now, std::int64_t next_fetch_at);
  // A 200 whose body has the content_hash stored with the feed: like a 304, only the fetch state
  // (validators, status) and the schedule change; its history records 'unchanged'.
  void record_unchanged(std::int64_t feed_id, const FetchMeta& meta, std::int64_t now,
                        std::int64_t next_fetch_at);
  // Store the parsed show and the fetch state (with meta.content_hash), in one transaction:
  // the feed joins the show with its identity (podcast:guid) or a new one; episodes are matched
  // to stored ones by the identity rules, matched ones updated in place, new ones inserted,
  // vanished ones marked removed. Storing the same parse again writes no show, episode or
  // category row.
  SaveOutcome record_success(std::int64_t feed_id, const FetchMeta& meta, const feed::Show& show,
                             std::int64_t now, std::int64_t next_fetch_at);
  // A failed fetch or parse: failures+1 and the failure score + failure.weight; the status
  // becomes gone when failure.gone, else failing once the score reaches failure.failing_score
  // and active below it. The HTTP status and error are kept for `list` either way.
  void record_failure(std::int64_t feed_id, const FetchFailure& failure, std::int64_t now,
                      std::int64_t next_fetch_at);
  // A permanent move (301/308, itunes:new-feed-url): the feed's URL becomes new_url, and the old
  // URL stays as an alias. When another feed already has new_url, this feed is merged into it:
  // marked removed, its URL and aliases become the other feed's aliases. False when new_url is
  // already the feed's URL or the feed does not exist.
  bool move_feed(std::int64_t feed_id, const std::string& new_url);
  // Bookkeeping for `stats`: a crawl run's start and its totals at the end.
  std::int64_t begin_crawl_run(std::int64_t now);
  void finish_crawl_run(std::int64_t run_id, const CrawlRunStats& totals);
  // The paces hosts were left at by earlier crawls, for the k_max_learned_hosts most recently
  // asked hosts.
  std::map<std::string, double> load_host_paces();
  // Remember the hosts' paces and the figures run `run_id` saw so far, one statement.
  void save_host_paces(std::int64_t run_id, const std::vector<HostPaceRecord>& hosts,
                       std::int64_t now);

  // ---- the crawl history ----
  // Write what run `run_id` saw: `run` is its figures so far (they replace the run's row), and
  // `delta` what it saw since its last write (added to the hours' and host-hours' rows). One
  // transaction; rows locked in key order, so crawls writing at once never deadlock.
  void add_history(std::int64_t run_id, const CrawlFigures& run, const HistoryDelta& delta);
  // Delete the history from before `before` (Unix seconds): runs that started earlier and
  // finished (or died, unfinished, 30 days before that), never the newest; hours and
  // host-hours; and the log of fetches, oldest first, up to 500,000 rows a call. Returns the
  // rows deleted.
  std::int64_t prune_history(std::int64_t before);
  // The figures of one run; nullopt when it wrote none.
  std::optional<CrawlFigures> run_figures(std::int64_t run_id);
  // The report of the `days` UTC days up to and including the one of `now`, in one snapshot.
  CrawlReport crawl_report(std::int64_t now, int days);

  // ---- cover art ----
  // Add the image URL of every stored show that has no artwork row yet, due at once.
  void enlist_artwork();
  // Claim up to `limit` artwork rows that are due at `now`, leased for `lease_seconds` (they are
  // not due again before then), oldest due first; no two crawlers claim the same row.
  std::vector<ArtworkRecord> claim_due_artwork(std::size_t limit, std::int64_t now,
                                               std::int64_t lease_seconds);
  // The artwork already made of an image file with this content hash, under any URL; nullopt
  // when none was.
  std::optional<StoredArtwork> artwork_with_hash(const std::string& content_hash);
  // Record a fetched image (or a 304: `update.downloaded` false and the hash as it was) with
  // its renditions, clearing any error; due again at `next_fetch_at`.
  void record_artwork(std::int64_t id, const ArtworkUpdate& update, std::int64_t now,
                      std::int64_t next_fetch_at);
  // Record a failed fetch or a refused image; its renditions stay as they were.
  void record_artwork_failure(std::int64_t id, const std::string& error, bool downloaded,
                              std::int64_t now, std::int64_t next_fetch_at);
  // Hand claimed rows back unfinished, due again at `next_fetch_at`, with `error` saying why;
  // what was fetched and made of them before stays as it was.
  void release_artwork(const std::vector<std::int64_t>& ids, const std::string& error,
                       std::int64_t next_fetch_at);

  // ---- reading ----
  // A stored show by feed URL (normalized) or slug, with its current episodes; nullopt if none.
  std::optional<StoredShow> load_show(const std::string& feed_url_or_slug);

  // ---- page models (store/pages.hpp) ----
  // Each reads one snapshot and only what its page shows. A page that does not exist (no listed
  // show, category or language of that name, a page number past the last) is nullopt. Listed
  // shows are the active ones with a title.
  HomePage load_home_page();
  std::optional<ShowListPage> load_category_page(const std::string& slug, std::int64_t page);
  // `tag` in lower case, as LanguageEntry::tag.
  std::optional<ShowListPage> load_language_page(const std::string& tag, std::int64_t page);
  std::optional<ShowPage> load_show_page(const std::string& slug, std::int64_t page);
  std::optional<EpisodePage> load_episode_page(const std::string& show_slug,
                                               const std::string& episode_slug);
  // Prepare the statements of the show, episode, category and language pages on this
  // connection and run each once for a page that cannot exist: a server's first requests then
  // find the connection's catalogs read and the statements planned. From then on, this
  // connection's statements use generic plans (plan_cache_mode = force_generic_plan).
  void prepare_pages();
  // The search of the directory, one for `podcrawl search`, the site's search page and the
  // APIs: the listed shows matching the request's words (search::tsquery, each show and episode
  // read in its own language), each once, with its matching episodes, best first: shows whose
  // title matches, then shows whose author or notes match, then shows matched only by
  // episodes; by rank within each, the most recently updated first on a tie. When the words
  // find fewer than k_search_typo_below shows, a word of 5 characters or more may also stand
  // for a title word one edit away, and what that finds is ranked after. An empty query finds
  // nothing and a too long one is not run (SearchPage::too_long). Bounded: at most
  // k_search_candidates shows and as many episodes are ranked, under a statement timeout.
  SearchPage search(const SearchRequest& request);
  // The search page `page` (from 1) of `query`: search() for that page's results; nullopt for a
  // page past the last.
  std::optional<SearchPage> load_search_page(const std::string& query, std::int64_t page);
  // For a walk over the whole directory, one bounded batch at a time: the listed shows with a
  // slug after `after_slug`, in slug order, at most `limit`, each with all current episodes.
  std::vector<ShowPages> load_show_batch(const std::string& after_slug, int limit);
  // One listed show with all current episodes, as in load_show_batch; nullopt when no listed
  // show has that slug (never stored, removed, or without a title).
  std::optional<ShowPages> load_show_pages(const std::string& slug);
  // The listed shows among `slugs` (at most a batch's worth), in slug order; a slug that names
  // no listed show is left out.
  std::vector<ShowPages> load_show_pages(const std::vector<std::string>& slugs);
  // For readers that catch up on changes (an incremental render, a server on a replica): a
  // token for the database's state now, to pass to shows_changed_since later. Take it before
  // reading: every change it does not cover is reported later.
  std::string directory_snapshot();
  // The slugs of the shows changed (saved, removed) since `snapshot` was taken, listed or not,
  // in slug order; some changed just before may be among them. Throws core::UsageError for a
  // token not from directory_snapshot.
  std::vector<std::string> shows_changed_since(const std::string& snapshot);
  // True when the database is a standby (a read replica): it delivers no notifications.
  bool in_recovery();
  // The categories with listed shows, slug after `after_slug`, in slug order, at most `limit`.
  std::vector<CategoryEntry> load_categories(const std::string& after_slug, int limit);
  // The content languages with listed shows, tag after `after_tag`, in tag order.
  std::vector<LanguageEntry> load_languages(const std::string& after_tag, int limit);
  // Rewrite the search index of every show and episode from its stored text, in batches of
  // `batch` rows, each its own transaction (search answers meanwhile); `progress` is called
  // after each batch with the rows done and the rows in all. Then vacuums the tables rewritten.
  void reindex(int batch,
               const std::function<void(std::int64_t done, std::int64_t total)>& progress);
  Stats stats();

private:
  // A fetch that changed nothing stored: state, schedule and a history row with `outcome`.
  void record_unchanged_fetch(std::int64_t feed_id, const FetchMeta& meta, bool keep_validators,
                              const char* outcome, std::int64_t now, std::int64_t next_fetch_at);

  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

} // namespace podcrawl::store

#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "podcrawl/store/database.hpp"
#include "podcrawl/store/records.hpp"

namespace podcrawl::store {

enum class AddOutcome { added, exists };

// The channel on which the store announces, at commit, a feed made due at once (its id).
inline constexpr const char* k_urgent_channel = "podcrawl_urgent";

// The crawl list: the feeds podcrawl fetches, their addresses and status, and the claims
// crawlers hold on them.
class CrawlList {
public:
  explicit CrawlList(Database& database);

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

  // Claim up to limit active or failing feeds, skipping feeds another crawler holds: each
  // claimed feed is leased until now + lease_seconds, or until this connection closes, whichever
  // comes first, so concurrent crawls never fetch one feed twice and a crawler that dies leaves
  // nothing claimed. Keep this Database open for as long as the claimed feeds are worked on.
  // Without all, the feeds due at `now`, most overdue first; with all, every feed with an id above
  // after_id, in id order (pass the last id claimed to walk the whole list once).
  std::vector<FeedRecord> claim_due_feeds(int limit, bool all, std::int64_t now,
                                          std::int64_t lease_seconds, std::int64_t after_id = 0);
  // Claim those of `ids` that claim_due_feeds would claim at `now` (listed, active or failing,
  // due, held by no crawler), leased in the same way, in id order: for feeds announced urgent,
  // ahead of the others due.
  std::vector<FeedRecord> claim_feeds(const std::vector<std::int64_t>& ids, std::int64_t now,
                                      std::int64_t lease_seconds);
  // When the next feed may be claimed, for a crawler waiting for it: the earliest time (Unix
  // seconds, rounded up) an active or failing feed whose lease has ended at `now` falls due, `now`
  // or earlier when one is due already; nullopt when there is none. A feed held by a crawler that
  // died, until its lease's time, is not counted. One read of feeds_due_idx.
  std::optional<std::int64_t> next_due_at(std::int64_t now);
  // Make a listed feed (active or failing) due now (to the second), and announce it on
  // k_urgent_channel when the transaction commits, so that a watching crawler fetches it at
  // once: for a publisher's ping, a push from a hub, a submission. A feed a crawler has in hand
  // stays due when that crawler records its fetch (which may predate the change), and is
  // announced again then. The feed is named by its URL (or one it moved from), or by
  // the id of the show it describes (the APIs' feed id), or by its own id. Returns the feed's
  // id; nullopt when no listed feed has it.
  std::optional<std::int64_t> mark_urgent_by_url(const std::string& url);
  std::optional<std::int64_t> mark_urgent_by_show(std::int64_t show_id);
  std::optional<std::int64_t> mark_urgent_by_feed(std::int64_t feed_id);

  // A claimed feed left unasked (its host asked for a pause): its lease ends and it is next due
  // at next_fetch_at; nothing else about it changes.
  void defer_feed(std::int64_t feed_id, std::int64_t next_fetch_at);
  // A permanent move (301/308, itunes:new-feed-url): the feed's URL becomes new_url, and the old
  // URL stays as an alias. When another feed already has new_url, this feed is merged into it:
  // marked removed, its URL and aliases become the other feed's aliases. False when new_url is
  // already the feed's URL or the feed does not exist.
  bool move_feed(std::int64_t feed_id, const std::string& new_url);

private:
  Database::Impl* m_impl;
};

} // namespace podcrawl::store

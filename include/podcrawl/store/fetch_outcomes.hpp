#pragma once

#include <cstdint>
#include <string>

#include "podcrawl/feed/model.hpp"
#include "podcrawl/store/database.hpp"
#include "podcrawl/store/records.hpp"

namespace podcrawl::store {

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

// What a fetch of a claimed feed came to: the feed's fetch state and schedule, its fetch
// history, and for a feed that parsed, its show and episodes.
class FetchOutcomes {
public:
  explicit FetchOutcomes(Database& database);

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

private:
  // A fetch that changed nothing stored: state, schedule and a history row with `outcome`.
  void record_unchanged_fetch(std::int64_t feed_id, const FetchMeta& meta, bool keep_validators,
                              const char* outcome, std::int64_t now, std::int64_t next_fetch_at);

  Database::Impl* m_impl;
};

} // namespace podcrawl::store

#include "podcrawl/store/fetch_outcomes.hpp"

#include <algorithm>
#include <string>

#include "store_internal.hpp"

namespace podcrawl::store {

namespace {

using internal::bounded_text;
using internal::commit_without_flush_wait;
using internal::exec_named;
using internal::guarded;
using internal::k_max_error_bytes;
using internal::release_show;

} // namespace

FetchOutcomes::FetchOutcomes(Database& database) : m_impl(database.m_impl.get()) {}

void FetchOutcomes::record_not_modified(std::int64_t feed_id, std::int64_t now,
                                        std::int64_t next_fetch_at) {
  FetchMeta meta;
  meta.http_status = 304;
  record_unchanged_fetch(feed_id, meta, /*keep_validators=*/true, "not_modified", now,
                         next_fetch_at);
}

void FetchOutcomes::record_unchanged(std::int64_t feed_id, const FetchMeta& meta, std::int64_t now,
                                     std::int64_t next_fetch_at) {
  record_unchanged_fetch(feed_id, meta, /*keep_validators=*/false, "unchanged", now, next_fetch_at);
}

void FetchOutcomes::record_unchanged_fetch(std::int64_t feed_id, const FetchMeta& meta,
                                           bool keep_validators, const char* outcome,
                                           std::int64_t now, std::int64_t next_fetch_at) {
  guarded(m_impl->redacted_url, "record unchanged fetch", [&] {
    // One statement is one transaction: the feed's state and its history move together, in a
    // single round trip (the crawl's most frequent write).
    pqxx::nontransaction txn(m_impl->connection);
    static const std::string k_sql =
        "WITH durability AS (SELECT set_config('synchronous_commit', 'off', true)),"
        " state AS ("
        "  UPDATE feeds SET last_fetch_at = to_timestamp($2::bigint),"
        "  next_fetch_at = to_timestamp($3::bigint), lease_until = NULL, last_status = $4,"
        "  etag = CASE WHEN $7::boolean THEN etag ELSE $5 END,"
        "  last_modified = CASE WHEN $7::boolean THEN last_modified ELSE $6 END,"
        "  status = CASE WHEN status = 'removed' THEN status ELSE 'active' END,"
        "  failures = 0, failure_score = 0, last_error = ''"
        "  WHERE id = $1 RETURNING id)"
        " INSERT INTO fetches (feed_id, fetched_at, outcome, http_status)"
        " SELECT id, to_timestamp($2::bigint), $8, $4 FROM state, durability";
    exec_named(txn, "podcrawl_record_unchanged", k_sql, feed_id, now, next_fetch_at,
               meta.http_status, bounded_text(meta.etag, k_max_error_bytes),
               bounded_text(meta.last_modified, k_max_error_bytes), keep_validators, outcome);
  });
}

void FetchOutcomes::record_failure(std::int64_t feed_id, const FetchFailure& failure,
                                   std::int64_t now, std::int64_t next_fetch_at) {
  const std::string message = bounded_text(failure.error, k_max_error_bytes);
  const bool gone = failure.gone;
  const int weight = std::max(failure.weight, 0);
  guarded(m_impl->redacted_url, "record failure", [&] {
    pqxx::work txn(m_impl->connection);
    commit_without_flush_wait(txn);
    txn.exec_params(
        "UPDATE feeds SET failures = failures + 1,"
        " failure_score = least(failure_score::bigint + $7::integer, 2147483647),"
        " status = CASE WHEN status = 'removed' THEN status"
        "               WHEN $5::boolean THEN 'gone'"
        "               WHEN failure_score::bigint + $7::integer >= $8::integer THEN 'failing'"
        "               ELSE 'active' END,"
        " last_status = $2::integer, last_error = $3, last_fetch_at = to_timestamp($4::bigint),"
        " next_fetch_at = to_timestamp($6::bigint), lease_until = NULL"
        " WHERE id = $1",
        feed_id, failure.http_status, message, now, gone, next_fetch_at, weight,
        failure.failing_score);
    if (gone) {
      release_show(txn, feed_id);
    }
    txn.exec_params(
        "INSERT INTO fetches (feed_id, fetched_at, outcome, http_status, error)"
        " VALUES ($1, to_timestamp($2::bigint), $3, $4::integer, $5)",
        feed_id, now, gone ? "gone" : "failed", failure.http_status, message);
    txn.commit();
  });
}

} // namespace podcrawl::store

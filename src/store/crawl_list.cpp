#include "podcrawl/store/crawl_list.hpp"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "podcrawl/core/error.hpp"
#include "store_internal.hpp"

namespace podcrawl::store {
namespace {

using internal::exec_named;
using internal::guarded;
using internal::nullable;
using internal::release_show;

// The columns feed_from_row reads, from `feeds f LEFT JOIN shows s`.
const std::string k_feed_columns =
    "f.id, f.url, f.status,"
    " extract(epoch FROM f.last_fetch_at)::bigint, extract(epoch FROM f.next_fetch_at)::bigint,"
    " f.last_status, f.last_error, f.failures, coalesce(s.slug, ''), f.etag, f.last_modified,"
    " f.content_hash, f.failure_score";

FeedRecord feed_from_row(const pqxx::row& row) {
  FeedRecord feed;
  feed.id = row[0].as<std::int64_t>();
  feed.url = row[1].as<std::string>();
  feed.status = parse_feed_status(row[2].as<std::string>()).value_or(FeedStatus::active);
  feed.last_fetch_at = nullable<std::int64_t>(row[3]);
  feed.next_fetch_at = nullable<std::int64_t>(row[4]);
  feed.last_status = nullable<int>(row[5]);
  feed.last_error = row[6].as<std::string>();
  feed.failures = row[7].as<int>();
  feed.show_slug = row[8].as<std::string>();
  feed.etag = row[9].as<std::string>();
  feed.last_modified = row[10].as<std::string>();
  feed.content_hash = row[11].as<std::string>();
  feed.failure_score = row[12].as<int>();
  return feed;
}

std::vector<FeedRecord> feeds_from_result(const pqxx::result& result) {
  std::vector<FeedRecord> feeds;
  feeds.reserve(result.size());
  for (const auto& row : result) {
    feeds.push_back(feed_from_row(row));
  }
  return feeds;
}

} // namespace

namespace internal {

void release_show(pqxx::work& txn, std::int64_t feed_id) {
  const auto released = txn.exec_params(
      "WITH heir AS ("
      "  SELECT f.id FROM feeds f JOIN shows s ON s.id = f.show_id"
      "  WHERE s.feed_id = $1 AND f.id <> $1 AND f.status IN ('active', 'failing')"
      "  ORDER BY f.last_fetch_at DESC NULLS LAST, f.id LIMIT 1)"
      " UPDATE shows SET feed_id = coalesce((SELECT id FROM heir), feed_id),"
      "  active = EXISTS (SELECT 1 FROM heir)"
      " WHERE feed_id = $1 RETURNING slug",
      feed_id);
  for (const auto& row : released) {
    notify_show_changed(txn, row[0].as<std::string>());
  }
}

} // namespace internal

CrawlList::CrawlList(Database& database) : m_impl(database.m_impl.get()) {}

AddOutcome CrawlList::add_feed(const std::string& url, std::int64_t now) {
  return add_feeds({url}, now).front();
}

std::vector<AddOutcome> CrawlList::add_feeds(const std::vector<std::string>& urls,
                                             std::int64_t now) {
  // Each distinct URL once, in the order first given; later copies are `exists`.
  nlohmann::json distinct = nlohmann::json::array();
  std::unordered_map<std::string, std::size_t> position;
  for (const auto& url : urls) {
    if (position.emplace(url, distinct.size()).second) {
      distinct.push_back(url);
    }
  }
  // One statement: URLs a listed feed moved away from (aliases) are left alone; the others are
  // inserted, or re-activated when removed or gone. Each URL is looked up in its index.
  static const std::string k_sql =
      "WITH given AS ("
      "  SELECT url, ordinality FROM jsonb_array_elements_text($1::jsonb)"
      "   WITH ORDINALITY AS t(url, ordinality)"
      "  WHERE (SELECT 1 FROM feed_aliases a WHERE a.url = t.url LIMIT 1) IS NULL),"
      " inserted AS ("
      "  INSERT INTO feeds (url, added_at) SELECT url, to_timestamp($2::bigint) FROM given"
      "  ORDER BY url ON CONFLICT (url) DO NOTHING RETURNING url),"
      " revived AS ("
      "  UPDATE feeds f SET status = 'active', failures = 0, failure_score = 0, last_error = '',"
      "  next_fetch_at = NULL, lease_until = NULL, content_hash = ''"
      "  WHERE f.id = ANY (ARRAY(SELECT (SELECT o.id FROM feeds o WHERE o.url = g.url"
      "   AND o.status IN ('removed', 'gone') LIMIT 1) FROM given g))"
      "   AND f.status IN ('removed', 'gone') RETURNING f.url)"
      " SELECT g.ordinality FROM given g"
      " WHERE g.url IN (SELECT url FROM inserted UNION ALL SELECT url FROM revived)";
  return guarded(m_impl->redacted_url, "add feeds", [&] {
    std::vector<bool> added;
    // A feed moving to one of these URLs meanwhile can lock rows in the other order; the batch
    // that PostgreSQL cancels to break the deadlock runs once more.
    for (int attempt = 1;; ++attempt) {
      try {
        added.assign(distinct.size(), false);
        pqxx::work txn(m_impl->connection);
        for (const auto& row : exec_named(txn, "podcrawl_add_feeds", k_sql, distinct.dump(), now)) {
          added.at(row[0].as<std::size_t>() - 1) = true;
        }
        txn.commit();
        break;
      } catch (const pqxx::deadlock_detected&) {
        if (attempt == 2) {
          throw;
        }
      }
    }
    std::vector<AddOutcome> outcomes;
    outcomes.reserve(urls.size());
    for (const auto& url : urls) {
      auto& first = position.at(url);
      outcomes.push_back(first < added.size() && added[first] ? AddOutcome::added
                                                              : AddOutcome::exists);
      first = added.size(); // any later copy of the URL is `exists`
    }
    return outcomes;
  });
}

bool CrawlList::remove_feed(const std::string& url) {
  return guarded(m_impl->redacted_url, "remove feed", [&] {
    pqxx::work txn(m_impl->connection);
    const auto removed = txn.exec_params(
        "UPDATE feeds SET status = 'removed', lease_until = NULL"
        " WHERE url = $1 AND status <> 'removed' RETURNING id",
        url);
    if (removed.empty()) {
      return false;
    }
    release_show(txn, removed[0][0].as<std::int64_t>());
    txn.commit();
    return true;
  });
}

std::vector<FeedRecord> CrawlList::list_feeds(std::optional<FeedStatus> status) {
  std::optional<std::string> status_name;
  if (status) {
    status_name = to_string(*status);
  }
  return guarded(m_impl->redacted_url, "list feeds", [&] {
    pqxx::work txn(m_impl->connection);
    const auto result = txn.exec_params(
        "SELECT " + k_feed_columns +
            " FROM feeds f LEFT JOIN shows s ON s.id = f.show_id"
            " WHERE ($1::text IS NULL AND f.status <> 'removed') OR f.status = $1::text"
            " ORDER BY f.url",
        status_name);
    txn.commit();
    return feeds_from_result(result);
  });
}

std::optional<FeedRecord> CrawlList::find_feed(const std::string& url) {
  return guarded(m_impl->redacted_url, "find feed", [&]() -> std::optional<FeedRecord> {
    pqxx::work txn(m_impl->connection);
    const auto result = txn.exec_params("SELECT " + k_feed_columns +
                                            " FROM feeds f LEFT JOIN shows s ON s.id = f.show_id"
                                            " WHERE f.url = $1",
                                        url);
    txn.commit();
    if (result.empty()) {
      return std::nullopt;
    }
    return feed_from_row(result[0]);
  });
}

namespace {

// The feed of `which` (a statement yielding one feed id as `id`) made due now and announced.
std::optional<std::int64_t> mark_urgent(const std::string& redacted_url,
                                        pqxx::connection& connection, const char* name,
                                        const std::string& which, const auto& parameter) {
  return guarded(redacted_url, "mark a feed urgent", [&]() -> std::optional<std::int64_t> {
    pqxx::work txn(connection);
    const std::string sql =
        "WITH named AS (" + which +
        "), marked AS (UPDATE feeds f SET next_fetch_at = date_trunc('second', now()),"
        "   urgent_at = now() FROM named"
        "   WHERE f.id = named.id AND f.status IN ('active', 'failing') RETURNING f.id)"
        " SELECT id, pg_notify('" +
        std::string(k_urgent_channel) + "', id::text) FROM marked";
    const auto rows = internal::exec_named(txn, name, sql, parameter);
    txn.commit();
    if (rows.empty()) {
      return std::nullopt;
    }
    return rows[0][0].template as<std::int64_t>();
  });
}

} // namespace

std::optional<std::int64_t> CrawlList::mark_urgent_by_url(const std::string& url) {
  return mark_urgent(m_impl->redacted_url, m_impl->connection, "podcrawl_urgent_by_url",
                     "SELECT id FROM feeds WHERE url = $1"
                     " UNION ALL SELECT feed_id FROM feed_aliases WHERE url = $1 LIMIT 1",
                     internal::storable_text(url));
}

std::optional<std::int64_t> CrawlList::mark_urgent_by_show(std::int64_t show_id) {
  return mark_urgent(m_impl->redacted_url, m_impl->connection, "podcrawl_urgent_by_show",
                     "SELECT feed_id AS id FROM shows WHERE id = $1", show_id);
}

std::optional<std::int64_t> CrawlList::mark_urgent_by_feed(std::int64_t feed_id) {
  return mark_urgent(m_impl->redacted_url, m_impl->connection, "podcrawl_urgent_by_feed",
                     "SELECT $1::bigint AS id", feed_id);
}

namespace {

// True for a feed no crawler holds at $<now> (a bigint of Unix seconds): its lease ended, or the
// connection that took it is gone (its server process left pg_stat_activity), so a killed
// crawler's feeds are free for the next crawl at once.
std::string lease_free(const std::string& now) {
  return "(lease_until IS NULL OR lease_until < to_timestamp(" + now +
         "::bigint)"
         " OR (lease_holder IS NOT NULL AND lease_holder NOT IN ("
         "  SELECT pid FROM pg_stat_activity WHERE pid IS NOT NULL)))";
}

// After a CTE `due` of feed ids locked FOR UPDATE SKIP LOCKED: lease them to this connection
// from $<now> for $<lease> seconds, taking their urgent marks (a mark made from now on keeps the
// feed due when the lease is released: sql/0024_urgent_during_fetch.sql), and select them as
// feed_from_row reads them, ordered by `order` (over `f`).
std::string lease_due(const std::string& now, const std::string& lease, const std::string& order) {
  return "), claimed AS ("
         "  UPDATE feeds f SET lease_until = to_timestamp(" +
         now + "::bigint + " + lease +
         "::bigint),"
         "   lease_holder = pg_backend_pid(), urgent_at = NULL"
         "  FROM due WHERE f.id = due.id RETURNING f.*"
         ") SELECT " +
         k_feed_columns + " FROM claimed f LEFT JOIN shows s ON s.id = f.show_id ORDER BY " + order;
}

} // namespace

std::vector<FeedRecord> CrawlList::claim_due_feeds(int limit, bool all, std::int64_t now,
                                                   std::int64_t lease_seconds,
                                                   std::int64_t after_id) {
  if (limit <= 0) {
    return {};
  }
  return guarded(m_impl->redacted_url, "claim due feeds", [&] {
    pqxx::work txn(m_impl->connection);
    // SKIP LOCKED passes over feeds another crawler is claiming right now; the lease keeps
    // them away from crawlers that come after its commit. With all, the caller walks the list
    // by id, so a run reaches every feed exactly once whatever it fetches meanwhile.
    const auto result = txn.exec_params(
        "WITH due AS ("
        "  SELECT id FROM feeds"
        "  WHERE status IN ('active', 'failing')"
        "    AND (CASE WHEN $2::boolean THEN id > $5::bigint"
        "         ELSE next_fetch_at IS NULL OR next_fetch_at <= to_timestamp($3::bigint) END)"
        "    AND " +
            lease_free("$3") +
            "  ORDER BY CASE WHEN $2::boolean THEN NULL ELSE next_fetch_at END NULLS FIRST, id"
            "  LIMIT $1::integer"
            "  FOR UPDATE SKIP LOCKED" +
            lease_due("$3", "$4",
                      "CASE WHEN $2::boolean THEN NULL ELSE f.next_fetch_at END NULLS FIRST, f.id"),
        limit, all, now, lease_seconds, after_id);
    txn.commit();
    return feeds_from_result(result);
  });
}

std::vector<FeedRecord> CrawlList::claim_feeds(const std::vector<std::int64_t>& ids,
                                               std::int64_t now, std::int64_t lease_seconds) {
  if (ids.empty()) {
    return {};
  }
  return guarded(m_impl->redacted_url, "claim feeds", [&] {
    pqxx::work txn(m_impl->connection);
    // Due at `now` still: a feed another crawler fetched since it was announced is not.
    const auto result =
        exec_named(txn, "podcrawl_claim_feeds",
                   "WITH due AS ("
                   "  SELECT id FROM feeds"
                   "  WHERE id = ANY($1::bigint[]) AND status IN ('active', 'failing')"
                   "    AND (next_fetch_at IS NULL OR next_fetch_at <= to_timestamp($2::bigint))"
                   "    AND " +
                       lease_free("$2") + "  ORDER BY id FOR UPDATE SKIP LOCKED" +
                       lease_due("$2", "$3", "f.id"),
                   internal::id_array(ids), now, lease_seconds);
    txn.commit();
    return feeds_from_result(result);
  });
}

std::optional<std::int64_t> CrawlList::next_due_at(std::int64_t now) {
  return guarded(m_impl->redacted_url, "find the next due feed", [&] {
    pqxx::nontransaction txn(m_impl->connection);
    // feeds_due_idx in order: the leased feeds it passes over are those in flight, a few.
    const auto result =
        exec_named(txn, "podcrawl_next_due",
                   "SELECT ceil(extract(epoch FROM coalesce(next_fetch_at,"
                   "  to_timestamp($1::bigint))))::bigint FROM feeds"
                   " WHERE status IN ('active', 'failing')"
                   "  AND (lease_until IS NULL OR lease_until < to_timestamp($1::bigint))"
                   " ORDER BY next_fetch_at NULLS FIRST LIMIT 1",
                   now);
    return result.empty() ? std::nullopt : std::optional(result[0][0].as<std::int64_t>());
  });
}

void CrawlList::defer_feed(std::int64_t feed_id, std::int64_t next_fetch_at) {
  guarded(m_impl->redacted_url, "defer feed", [&] {
    pqxx::nontransaction txn(m_impl->connection);
    txn.exec_params(
        "UPDATE feeds SET next_fetch_at = to_timestamp($2::bigint), lease_until = NULL"
        " WHERE id = $1",
        feed_id, next_fetch_at);
  });
}

bool CrawlList::move_feed(std::int64_t feed_id, const std::string& new_url) {
  return guarded(m_impl->redacted_url, "move feed", [&] {
    pqxx::work txn(m_impl->connection);
    const auto moving = txn.exec_params("SELECT url FROM feeds WHERE id = $1 FOR UPDATE", feed_id);
    if (moving.empty() || moving[0][0].as<std::string>() == new_url) {
      return false;
    }
    const std::string old_url = moving[0][0].as<std::string>();
    const auto holder = txn.exec_params(
        "SELECT id FROM feeds WHERE url = $1 AND id <> $2 FOR UPDATE", new_url, feed_id);
    std::int64_t target = feed_id;
    if (holder.empty()) {
      // A move back to a URL the feed had before (A -> B -> A) drops that alias first.
      txn.exec_params("DELETE FROM feed_aliases WHERE url = $1", new_url);
      txn.exec_params("UPDATE feeds SET url = $2 WHERE id = $1", feed_id, new_url);
    } else {
      // Another listed feed already has the new URL: merge into it. This feed leaves the list
      // (its show passes to a live feed of the same show, or becomes inactive); its URLs
      // become the other feed's aliases.
      target = holder[0][0].as<std::int64_t>();
      txn.exec_params("UPDATE feeds SET status = 'removed', lease_until = NULL WHERE id = $1",
                      feed_id);
      release_show(txn, feed_id);
      txn.exec_params("UPDATE feed_aliases SET feed_id = $2 WHERE feed_id = $1", feed_id, target);
    }
    txn.exec_params(
        "INSERT INTO feed_aliases (url, feed_id) VALUES ($1, $2)"
        " ON CONFLICT (url) DO UPDATE SET feed_id = EXCLUDED.feed_id",
        old_url, target);
    txn.commit();
    return true;
  });
}

} // namespace podcrawl::store

#include "podcrawl/store/websub.hpp"

#include <algorithm>

#include "podcrawl/core/config.hpp"
#include "podcrawl/core/hash.hpp"
#include "podcrawl/core/random.hpp"
#include "store_internal.hpp"

namespace podcrawl::store {
namespace {

using internal::exec_named;
using internal::guarded;
using internal::nullable;

// `count` bytes from getrandom(2) as hex digits.
std::string random_hex(std::size_t count) {
  std::string bytes(count, '\0');
  core::random_bytes(reinterpret_cast<unsigned char*>(bytes.data()), count);
  return core::hex(bytes);
}

// Subscriptions that no longer fit their feed (removed, gone, or declaring another hub or topic
// now) are to be ended; those no hub holds (never verified, or their lease is over) go at once.
void end_unwanted(pqxx::work& txn) {
  exec_named(txn, "podcrawl_websub_unwanted",
             "UPDATE websub_subscriptions s SET state = 'unsubscribing', requested_mode = NULL,"
             "  due_at = now()"
             " WHERE s.state <> 'unsubscribing' AND NOT EXISTS ("
             "  SELECT 1 FROM feeds f WHERE f.id = s.feed_id AND f.status IN ('active', 'failing')"
             "   AND f.websub_hub = s.hub AND f.websub_topic = s.topic)");
  exec_named(txn, "podcrawl_websub_unheld",
             "DELETE FROM websub_subscriptions WHERE state = 'unsubscribing'"
             " AND (lease_expires_at IS NULL OR lease_expires_at <= now())");
}

// Each listed feed that declares a hub and has no subscription gets one, due now.
void add_wanted(pqxx::work& txn, int limit) {
  const auto wanted =
      exec_named(txn, "podcrawl_websub_wanted",
                 "SELECT f.id, f.websub_hub, f.websub_topic FROM feeds f"
                 " WHERE f.websub_hub <> '' AND f.status IN ('active', 'failing') AND NOT EXISTS ("
                 "  SELECT 1 FROM websub_subscriptions s WHERE s.feed_id = f.id AND s.state <> "
                 "'unsubscribing')"
                 " ORDER BY f.id LIMIT $1",
                 limit);
  for (const auto& row : wanted) {
    exec_named(txn, "podcrawl_websub_add",
               "INSERT INTO websub_subscriptions (feed_id, hub, topic, token, secret)"
               " VALUES ($1, $2, $3, $4, $5)",
               row[0].as<std::int64_t>(), row[1].as<std::string>(), row[2].as<std::string>(),
               random_hex(k_websub_token_bytes), random_hex(k_websub_secret_bytes));
  }
}

} // namespace

WebSubSubscriptions::WebSubSubscriptions(Database& database) : m_impl(database.m_impl.get()) {}

void WebSubSubscriptions::record_hub(std::int64_t feed_id, const std::string& hub,
                                     const std::string& topic) {
  guarded(m_impl->redacted_url, "record a feed's hub", [&] {
    pqxx::work txn(m_impl->connection);
    exec_named(txn, "podcrawl_websub_record_hub",
               "UPDATE feeds SET websub_hub = $2, websub_topic = $3"
               " WHERE id = $1 AND (websub_hub <> $2 OR websub_topic <> $3)",
               feed_id, internal::storable_text(hub), internal::storable_text(topic));
    txn.commit();
  });
}

std::vector<WebSubRequest> WebSubSubscriptions::claim_requests(int limit) {
  return guarded(m_impl->redacted_url, "claim WebSub requests", [&] {
    pqxx::work txn(m_impl->connection);
    end_unwanted(txn);
    add_wanted(txn, limit);
    const auto due =
        exec_named(txn, "podcrawl_websub_claim",
                   "WITH due AS (SELECT id FROM websub_subscriptions WHERE due_at <= now()"
                   "  ORDER BY due_at LIMIT $1 FOR UPDATE SKIP LOCKED)"
                   " UPDATE websub_subscriptions s SET"
                   "  requested_mode = CASE WHEN s.state = 'unsubscribing' THEN 'unsubscribe'"
                   "   ELSE 'subscribe' END,"
                   "  requested_at = now(), due_at = now() + make_interval(secs => $2)"
                   " FROM due WHERE s.id = due.id"
                   " RETURNING s.id, s.requested_mode, s.hub, s.topic, s.token, s.secret",
                   limit, k_websub_retry_seconds);
    txn.commit();
    std::vector<WebSubRequest> requests;
    for (const auto& row : due) {
      requests.push_back({row[0].as<std::int64_t>(), row[1].as<std::string>(),
                          row[2].as<std::string>(), row[3].as<std::string>(),
                          row[4].as<std::string>(), row[5].as<std::string>()});
    }
    return requests;
  });
}

std::optional<std::int64_t> WebSubSubscriptions::next_request_at() {
  return guarded(m_impl->redacted_url, "read when a WebSub request is due", [&] {
    pqxx::work txn(m_impl->connection);
    const auto row = exec_named(
        txn, "podcrawl_websub_next",
        "SELECT ceil(extract(epoch FROM min(due_at)))::bigint FROM websub_subscriptions");
    txn.commit();
    return nullable<std::int64_t>(row[0][0]);
  });
}

bool WebSubSubscriptions::verify(const std::string& token, const std::string& mode,
                                 const std::string& topic, std::int64_t lease_seconds) {
  return guarded(m_impl->redacted_url, "verify a WebSub request", [&] {
    pqxx::work txn(m_impl->connection);
    pqxx::result verified;
    if (mode == "subscribe") {
      // Renewed when a third of the lease is left (of at most 14 days, whatever was granted).
      const std::int64_t lease = std::max<std::int64_t>(lease_seconds, 1);
      const std::int64_t renew_after = std::min(lease, core::k_max_websub_lease_seconds) * 2 / 3;
      verified =
          exec_named(txn, "podcrawl_websub_verify_subscribe",
                     "UPDATE websub_subscriptions SET state = 'active', requested_mode = NULL,"
                     "  verified_at = now(), lease_expires_at = now() + make_interval(secs => $3),"
                     "  due_at = now() + make_interval(secs => $4)"
                     " WHERE token = $1 AND topic = $2 AND requested_mode = 'subscribe'"
                     "  AND state <> 'unsubscribing' RETURNING id",
                     token, internal::storable_text(topic), lease, renew_after);
    } else if (mode == "unsubscribe") {
      verified = exec_named(txn, "podcrawl_websub_verify_unsubscribe",
                            "DELETE FROM websub_subscriptions"
                            " WHERE token = $1 AND topic = $2 AND requested_mode = 'unsubscribe'"
                            " RETURNING id",
                            token, internal::storable_text(topic));
    } else if (mode == "denied") {
      verified = exec_named(
          txn, "podcrawl_websub_denied",
          "UPDATE websub_subscriptions SET state = CASE WHEN state = 'unsubscribing'"
          "  THEN state ELSE 'denied' END, requested_mode = NULL, lease_expires_at = NULL,"
          "  due_at = now() + make_interval(secs => $3)"
          " WHERE token = $1 AND topic = $2 RETURNING id",
          token, internal::storable_text(topic), k_websub_denied_seconds);
    }
    txn.commit();
    return !verified.empty();
  });
}

std::optional<WebSubDelivery> WebSubSubscriptions::delivery(const std::string& token) {
  return guarded(
      m_impl->redacted_url, "read a WebSub subscription", [&]() -> std::optional<WebSubDelivery> {
        pqxx::work txn(m_impl->connection);
        const auto rows =
            exec_named(txn, "podcrawl_websub_delivery",
                       "SELECT feed_id, hub, secret FROM websub_subscriptions"
                       " WHERE token = $1 AND state = 'active' AND feed_id IS NOT NULL",
                       token);
        txn.commit();
        if (rows.empty()) {
          return std::nullopt;
        }
        return WebSubDelivery{rows[0][0].as<std::int64_t>(), rows[0][1].as<std::string>(),
                              rows[0][2].as<std::string>()};
      });
}

void WebSubSubscriptions::record_push(std::int64_t feed_id, const std::string& hub) {
  guarded(m_impl->redacted_url, "record a WebSub delivery", [&] {
    pqxx::work txn(m_impl->connection);
    exec_named(txn, "podcrawl_websub_pushed", "UPDATE feeds SET pushed_at = now() WHERE id = $1",
               feed_id);
    exec_named(txn, "podcrawl_websub_hub_pushed",
               "INSERT INTO websub_hubs (hub, last_push_at) VALUES ($1, now())"
               " ON CONFLICT (hub) DO UPDATE SET last_push_at = excluded.last_push_at",
               hub);
    txn.commit();
  });
}

void WebSubSubscriptions::count_new_episodes(std::int64_t feed_id, std::int64_t new_episodes,
                                             double fetch_seconds_ago) {
  guarded(m_impl->redacted_url, "count a hub's new episodes", [&] {
    pqxx::work txn(m_impl->connection);
    internal::commit_without_flush_wait(txn);
    exec_named(
        txn, "podcrawl_websub_count",
        "WITH started AS (SELECT now() - make_interval(secs => $3) AS at),"
        " fetched AS ("
        "  SELECT f.websub_hub AS hub, f.pushed_at IS NOT NULL"
        "   AND f.pushed_at <= started.at"
        "   AND f.pushed_at > started.at - interval '1 hour' AS pushed"
        "  FROM feeds f, started WHERE f.id = $1 AND f.websub_hub <> ''"
        "   AND EXISTS (SELECT 1 FROM websub_subscriptions s WHERE s.feed_id = f.id"
        "    AND s.hub = f.websub_hub AND s.state = 'active')),"
        " cleared AS (UPDATE feeds SET pushed_at = NULL FROM started WHERE id = $1"
        "  AND pushed_at <= started.at)"
        " INSERT INTO websub_hub_counts (hub, first, new_episodes)"
        " SELECT hub, CASE WHEN pushed THEN 'push' ELSE 'poll' END, $2::bigint FROM fetched"
        " WHERE $2::bigint > 0"
        " ON CONFLICT (hub, first)"
        "  DO UPDATE SET new_episodes = websub_hub_counts.new_episodes + excluded.new_episodes",
        feed_id, new_episodes, std::max(0.0, fetch_seconds_ago));
    txn.commit();
  });
}

} // namespace podcrawl::store

#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "podcrawl/store/database.hpp"

namespace podcrawl::store {

// Bytes of a subscription's callback token and of its secret, drawn from getrandom(2); both are
// written as twice as many lower-case hex digits.
inline constexpr std::size_t k_websub_token_bytes = 32;
inline constexpr std::size_t k_websub_secret_bytes = 32;
// How long a request sent to a hub waits for the hub's verification before it is sent again
// (a hub that failed, or never verifies).
inline constexpr std::int64_t k_websub_retry_seconds = 3600;
// How long a hub's denial stands before the feed is subscribed again.
inline constexpr std::int64_t k_websub_denied_seconds = 86400;
// Most requests one pass over the subscriptions sends.
inline constexpr int k_websub_requests_per_pass = 500;

// A request the crawler is to send to a hub: subscribe (a first subscription, a renewal, a
// retry) or unsubscribe.
struct WebSubRequest {
  std::int64_t id = 0;
  std::string mode; // "subscribe" or "unsubscribe"
  std::string hub;
  std::string topic;
  std::string token;  // names the callback: <callback_base>/websub/<token>
  std::string secret; // hub.secret, for subscribe
};

// A subscription a delivery's token names, as serve checks it.
struct WebSubDelivery {
  std::int64_t feed_id = 0;
  std::string hub;
  std::string secret;
};

// WebSub subscriptions (sql/0026_websub.sql): the hub and topic each feed declares, the
// subscriptions the crawler holds there, the hub's verifications and deliveries as `serve`
// records them, and what each hub's pushes were worth.
class WebSubSubscriptions {
public:
  explicit WebSubSubscriptions(Database& database);

  // The hub and topic the feed's latest fetch declared ("" for no hub); written only when they
  // changed. A changed hub or topic ends the feed's subscription (the next pass unsubscribes it
  // and subscribes the new one).
  void record_hub(std::int64_t feed_id, const std::string& hub, const std::string& topic);

  // One pass's requests to send, committed as sent before they are returned (a hub may verify
  // before it answers the request): subscriptions that no longer fit their feed (removed, gone,
  // another hub or topic now) are marked for unsubscription, or dropped when no hub holds them;
  // each listed feed that declares a hub and has no subscription gets one (token and secret
  // from getrandom); then up to `limit` subscriptions whose next request is due (a first one, a
  // renewal when a third of the lease is left, a retry k_websub_retry_seconds after an
  // unverified request) are returned, each due again at the retry's time. Throws
  // core::EnvironmentError when the database fails or the system gives no random bytes.
  std::vector<WebSubRequest> claim_requests(int limit);
  // When the next request falls due (Unix seconds), nullopt when none is held.
  std::optional<std::int64_t> next_request_at();

  // The hub's verification of intent for the callback `token`: true (and the challenge is to
  // be echoed) only when a request of `mode` ("subscribe", "unsubscribe") for `topic` is
  // pending there. A verified subscription becomes active for lease_seconds (the hub's grant,
  // at most 14 days for the renewal's time), due for renewal when a third of it is left; a
  // verified unsubscription is deleted. Mode "denied" (the hub refused) records the denial and
  // returns true when the token and topic are known.
  bool verify(const std::string& token, const std::string& mode, const std::string& topic,
              std::int64_t lease_seconds);
  // The active subscription `token` names, for a delivery; nullopt when none.
  std::optional<WebSubDelivery> delivery(const std::string& token);
  // A delivery to the feed whose signature held: the feed is remembered as pushed (the next
  // fetch's new episodes count as seen first by push) and its hub's last push is now. The feed
  // is not marked urgent here (CrawlList::mark_urgent_by_feed).
  void record_push(std::int64_t feed_id, const std::string& hub);

  // A fetch of the feed that began `fetch_seconds_ago` stored `new_episodes`: when the feed is
  // subscribed at its hub, they are counted for that hub as seen first by push (a delivery came
  // before the fetch began, within the hour) or else by the poll. The push mark the fetch
  // answered is cleared. The database's clock alone is read, so the crawler's may differ.
  void count_new_episodes(std::int64_t feed_id, std::int64_t new_episodes,
                          double fetch_seconds_ago);

private:
  Database::Impl* m_impl;
};

} // namespace podcrawl::store

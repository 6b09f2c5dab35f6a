#pragma once

#include <cstdint>
#include <string>

#include "podcrawl/core/config.hpp"
#include "podcrawl/feed/model.hpp"
#include "podcrawl/fetch/fetcher.hpp"

namespace podcrawl::crawl {

// What one pass over the WebSub subscriptions sent.
struct WebSubSummary {
  std::int64_t subscribed = 0;   // subscription requests (first ones and renewals) a hub accepted
  std::int64_t unsubscribed = 0; // unsubscription requests a hub accepted
  std::int64_t failed = 0;       // requests a hub refused or that did not reach it (retried)
};

// The hub a fetched feed declares, and the topic to subscribe to there: the response's Link
// headers first (rel="hub", rel="self"), then the document's atom:link; the topic is the self
// URL, else the feed's URL. Both "" when no hub is declared.
struct WebSubTopic {
  std::string hub;
  std::string topic;
};
WebSubTopic websub_topic(const fetch::FetchResult& result, const feed::Show& show,
                         const std::string& feed_url);

// The seconds a hub is given to answer a subscription request: fetch's bounds, at most this.
inline constexpr long k_websub_request_timeout_seconds = 30;

// Send the WebSub requests that are due (store::WebSubSubscriptions::claim_requests: first
// subscriptions, renewals, retries, unsubscriptions of feeds removed, gone or moved to another
// hub), one at a time, each a form POST to its hub under the fetch bounds and the address policy
// (config.fetch): hub.mode, hub.topic, hub.callback (<[websub] callback_base>/websub/<token>),
// and for a subscription hub.secret and hub.lease_seconds. Does nothing while callback_base is
// empty. A request that fails is logged and sent again later; only database failures throw.
WebSubSummary tend_subscriptions(const std::string& database_url, const core::Config& config);

} // namespace podcrawl::crawl

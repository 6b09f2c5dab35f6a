#include "podcrawl/crawl/websub.hpp"

#include <algorithm>

#include <spdlog/spdlog.h>

#include "podcrawl/fetch/post.hpp"
#include "podcrawl/net/url.hpp"
#include "podcrawl/store/database.hpp"
#include "podcrawl/store/websub.hpp"

namespace podcrawl::crawl {

namespace {

fetch::FormFields request_fields(const store::WebSubRequest& request,
                                 const core::WebSubConfig& config) {
  fetch::FormFields fields = {{"hub.mode", request.mode},
                              {"hub.topic", request.topic},
                              {"hub.callback", config.callback_base + "/websub/" + request.token}};
  if (request.mode == "subscribe") {
    fields.emplace_back("hub.secret", request.secret);
    fields.emplace_back("hub.lease_seconds", std::to_string(config.lease_seconds));
  }
  return fields;
}

} // namespace

WebSubTopic websub_topic(const fetch::FetchResult& result, const feed::Show& show,
                         const std::string& feed_url) {
  WebSubTopic found;
  found.hub = !result.hub_url.empty() ? result.hub_url : show.hub_url;
  if (found.hub.size() > net::k_max_feed_url_length) {
    found.hub.clear();
  }
  if (found.hub.empty()) {
    return found;
  }
  found.topic = !result.self_url.empty() ? result.self_url
                : !show.self_url.empty() ? show.self_url
                                         : feed_url;
  if (found.topic.size() > net::k_max_feed_url_length) {
    found.topic = feed_url;
  }
  return found;
}

WebSubSummary tend_subscriptions(const std::string& database_url, const core::Config& config) {
  WebSubSummary summary;
  if (config.websub.callback_base.empty()) {
    return summary;
  }
  core::FetchConfig bounds = config.fetch;
  bounds.total_timeout_seconds =
      std::min(bounds.total_timeout_seconds, k_websub_request_timeout_seconds);
  store::Database database(database_url);
  store::WebSubSubscriptions subscriptions(database);
  for (const auto& request : subscriptions.claim_requests(store::k_websub_requests_per_pass)) {
    const auto answer =
        fetch::post_form(request.hub, request_fields(request, config.websub), bounds);
    if (answer.outcome == fetch::FetchOutcome::ok) {
      ++(request.mode == "subscribe" ? summary.subscribed : summary.unsubscribed);
      spdlog::debug("websub: {} {} at {}", request.mode, net::redact(request.topic),
                    net::redact(request.hub));
    } else {
      ++summary.failed;
      spdlog::warn("websub: {} {} at {}: {}", request.mode, net::redact(request.topic),
                   net::redact(request.hub), answer.error);
    }
  }
  return summary;
}

} // namespace podcrawl::crawl

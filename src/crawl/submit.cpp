#include "podcrawl/crawl/submit.hpp"

#include <spdlog/spdlog.h>

#include "podcrawl/core/error.hpp"
#include "podcrawl/core/hash.hpp"
#include "podcrawl/core/time.hpp"
#include "podcrawl/crawl/crawler.hpp"
#include "podcrawl/feed/parser.hpp"
#include "podcrawl/html/feed_links.hpp"
#include "podcrawl/net/url.hpp"
#include "podcrawl/store/crawl_list.hpp"
#include "podcrawl/store/fetch_outcomes.hpp"

namespace podcrawl::crawl {

namespace {

bool looks_like_html(const fetch::FetchResult& result) {
  if (result.content_type.find("html") != std::string::npos &&
      result.content_type.find("xml") == std::string::npos) {
    return true;
  }
  const std::string_view head = std::string_view(result.body).substr(0, 512);
  return head.find("<html") != std::string_view::npos ||
         head.find("<!DOCTYPE html") != std::string_view::npos ||
         head.find("<!doctype html") != std::string_view::npos;
}

Resolution refused(std::string url, Refusal refusal, std::string error) {
  Resolution resolution;
  resolution.url = std::move(url);
  resolution.refusal = refusal;
  resolution.error = std::move(error);
  return resolution;
}

// The fetch's result as a refusal; nullopt when the document arrived.
std::optional<Resolution> refusal_of(const std::string& url, const fetch::FetchResult& result) {
  if (result.outcome == fetch::FetchOutcome::ok) {
    return std::nullopt;
  }
  return refused(url,
                 result.outcome == fetch::FetchOutcome::refused ? Refusal::refused_address
                                                                : Refusal::unreachable,
                 result.error);
}

} // namespace

Resolution resolve_feed(const std::string& given, const core::FetchConfig& config,
                        const ResolveOptions& options) {
  const auto url = net::normalize_feed_url(given);
  if (!url) {
    return refused(
        given, Refusal::not_a_url,
        "not an http(s) URL of at most " + std::to_string(net::k_max_feed_url_length) + " bytes");
  }
  Resolution resolution;
  resolution.url = *url;
  if (!options.discover && !options.parse) {
    return resolution;
  }
  fetch::FetchRequest request;
  request.url = *url;
  fetch::FetchResult result = fetch::fetch(request, config);
  if (auto failed = refusal_of(*url, result)) {
    return *failed;
  }
  if (options.discover && looks_like_html(result)) {
    const auto links = html::find_feed_links(result.body, result.final_url);
    if (links.empty()) {
      return refused(*url, Refusal::no_feed_advertised, "an HTML page that advertises no feed");
    }
    const auto feed_url = net::normalize_feed_url(links.front());
    if (!feed_url) {
      return refused(*url, Refusal::no_feed_advertised,
                     "the page advertises an unusable feed URL: " + links.front());
    }
    spdlog::info("{} advertises the feed {}", net::redact(*url), net::redact(*feed_url));
    resolution.url = *feed_url;
    request.url = *feed_url;
    result = fetch::fetch(request, config);
    if (auto failed = refusal_of(*feed_url, result)) {
      return *failed;
    }
  }
  if (options.parse) {
    feed::ParseOptions parse_options;
    parse_options.feed_url = result.final_url;
    parse_options.content_type = result.content_type;
    auto parsed = feed::parse_feed(result.body, parse_options);
    if (parsed.outcome != feed::ParseOutcome::ok) {
      return refused(resolution.url, Refusal::not_a_feed, "not a feed: " + parsed.error);
    }
    resolution.show = std::move(parsed.show);
  }
  resolution.fetched = std::move(result);
  return resolution;
}

Submitted store_resolved(store::Database& database, const Resolution& resolution,
                         const core::CrawlConfig& config, Removed removed) {
  if (!resolution.show || !resolution.fetched) {
    throw core::UsageError(resolution.url + ": no feed to store");
  }
  const std::int64_t now = core::now();
  store::CrawlList list(database);
  Submitted submitted;
  if (const auto listed = list.find_feed(resolution.url);
      listed && listed->status == store::FeedStatus::removed && removed == Removed::keep) {
    submitted.existed = true;
    return submitted;
  }
  submitted.existed = list.add_feed(resolution.url, now) == store::AddOutcome::exists;
  const auto feed = list.find_feed(resolution.url);
  if (!feed) { // listed under the URL it moved to: the crawl stores it there
    return submitted;
  }
  const fetch::FetchResult& result = *resolution.fetched;
  store::FetchMeta meta;
  meta.http_status = result.http_status;
  meta.etag = result.etag;
  meta.last_modified = result.last_modified;
  meta.content_hash = core::content_hash(result.body);
  feed::Show show = *resolution.show;
  show.feed_url = feed->url;
  const auto max_episodes = static_cast<std::size_t>(config.max_episodes_per_feed);
  if (show.episodes.size() > max_episodes) {
    show.episodes.resize(max_episodes);
  }
  submitted.show_slug =
      store::FetchOutcomes(database)
          .record_success(feed->id, meta, show, now, now + refresh_seconds(show, config))
          .show_slug;
  return submitted;
}

} // namespace podcrawl::crawl

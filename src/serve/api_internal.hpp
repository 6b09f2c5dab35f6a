#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "podcrawl/http/server.hpp"
#include "podcrawl/render/api.hpp"
#include "podcrawl/store/directory_api.hpp"

// The requests of the directory's APIs as the live directory reads them: which endpoint a path
// names, and its parameters read and bounded, before any key or database is consulted.
namespace podcrawl::serve::internal {

enum class Endpoint {
  // Podcast Index, under /api/1.0/
  search_byterm,
  search_bytitle,
  podcasts_byfeedid,
  podcasts_byfeedurl,
  podcasts_byguid,
  episodes_byfeedid,
  episodes_byfeedurl,
  episodes_byid,
  recent_episodes,
  recent_feeds,
  categories_list,
  stats_current,
  add_byfeedurl, // a key with write permission adds a feed
  openapi,       // /api/1.0/openapi.json, the description of every endpoint
  hub_pubnotify, // /api/1.0/hub/pubnotify: a publisher asks for its feed to be fetched now
  // iTunes Search, at the root
  itunes_search,
  itunes_lookup,
  // gpodder.net's directory search, at the root
  gpodder_json,
  gpodder_opml,
  gpodder_txt,
};

// The endpoint a path below the site names ("api/1.0/search/byterm", "search", "lookup",
// "search.json"); nullopt for any other path.
std::optional<Endpoint> endpoint_of(std::string_view path);
// Its name, for metrics and logs: "search/byterm", "itunes/search", "gpodder/search.json".
const char* to_string(Endpoint endpoint);
// Podcast Index's read endpoints answer only requests signed with a key (unless the operator
// opened them); the description, hub/pubnotify, iTunes's and gpodder.net's need none.
bool needs_key(Endpoint endpoint);

// Whether an endpoint changes the directory: it needs a key with write permission, even when
// the operator opened the read API (add/byfeedurl).
bool writes(Endpoint endpoint);
// Whether an endpoint takes POST as well as GET (hub/pubnotify and add/byfeedurl, as Podcast
// Index's do).
bool takes_post(Endpoint endpoint);
// The parameters of a request as a query string: its query, and for a POST of a form
// (application/x-www-form-urlencoded) its body after it.
std::string parameters_of(const http::Request& request);

// A request's parameters, read for its endpoint.
struct ApiRequest {
  Endpoint endpoint = Endpoint::stats_current;
  render::api::AnswerStyle style;
  std::string text;                  // q, term, url or guid; recent/episodes' excludeString
  std::vector<std::int64_t> ids;     // id, a comma list where the endpoint takes one
  std::vector<std::string> id_texts; // the ids as sent, for the query echo
  std::optional<std::int64_t> since; // Unix seconds (a negative `since` counted back from now)
  std::optional<std::int64_t> before;
  std::int64_t max = 0;
  bool newest = false;   // episodes/byfeedid: the newest episode of each feed
  std::string enclosure; // episodes/byfeedid: only the episode of this enclosure URL
  bool clean = false;    // searches: only shows not marked explicit
  // Searches: only shows with a value block (`val`) or an iTunes id (`aponly`); the directory
  // records neither, so none.
  bool needs_unknown = false;
  std::optional<int> scale_logo;   // gpodder.net
  bool podcasts = true;            // iTunes: the request asks for podcasts (media, entity)
  store::RecentFeedsFilter recent; // recent/feeds
};

// Read the query of a request to `endpoint`, at time `now`. Parameter names compare in any case
// (clients send fullText= and fulltext); a flag counts by its presence, whatever its value.
// nullopt when a required parameter is missing or one is malformed or out of bounds: the
// answer is Podcast Index's 400.
std::optional<ApiRequest> read_api_request(Endpoint endpoint, std::string_view query,
                                           std::int64_t now);

// The request as a cache key: its endpoint and every parameter it was read to, in one order, so
// that two requests asking the same thing share their answer.
std::string cache_key(const ApiRequest& request);

// The Content-Type of an endpoint's answers.
const char* content_type_of(Endpoint endpoint);

} // namespace podcrawl::serve::internal

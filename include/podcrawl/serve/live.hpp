#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "podcrawl/core/config.hpp"
#include "podcrawl/http/server.hpp"
#include "podcrawl/render/site.hpp"

namespace podcrawl::serve {

// The largest request body the live directory reads: the server it runs on takes POST bodies
// this large (http::ServerOptions::max_body_bytes), for the endpoints that take a POST.
inline constexpr std::size_t k_max_request_body_bytes = 64 * 1024;

struct LiveOptions {
  render::SiteOptions site;
  std::string database_url;
  core::ServeConfig config;
  core::ApiConfig api; // who may call the APIs, and how often
  // How feeds given to be added (add/byfeedurl) are fetched (the address policy, the bounds) and
  // scheduled once stored.
  core::FetchConfig fetch;
  core::CrawlConfig crawl;
  core::SubmitConfig submit; // the form that adds a podcast
  // The clock relative dates are measured from; nullopt: the system clock at each request.
  std::optional<std::int64_t> now;
};

// The live directory: every page of the site answered from the database at request time, with
// the bytes `render` would write for the same database and time (one code path renders both).
//
// A request goes through these phases, each a function of its own: route the path (serve::route),
// take the page from the cache or load its model (store) and render it (render), then negotiate
// the coding and the validators and write the answer. Rendered pages are cached with their gzip
// and brotli forms under [serve] cache_bytes, until the store announces a change to their show
// (or to any show, for the lists) or a relative date on them would read otherwise. While the
// announcements cannot be heard (the listening connection broke), nothing is cached.
class LiveDirectory {
public:
  // Load the templates and catalogs and connect to the database. Throws core::UsageError for
  // bad site options, core::EnvironmentError when the database cannot be reached.
  explicit LiveDirectory(LiveOptions options);
  ~LiveDirectory();
  LiveDirectory(const LiveDirectory&) = delete;
  LiveDirectory& operator=(const LiveDirectory&) = delete;

  // The answer when it is ready without the database or a compression: a cached page, an
  // asset, a redirect, a 404. nullopt when answer_by_loading must give it. Never blocks on the
  // database; an event loop calls it (http::QuickHandler). Safe from several threads at once.
  std::optional<http::Response> answer_from_memory(const http::Request& request);
  // The answer to a request answer_from_memory left: the page loaded, rendered and cached.
  // A worker calls it (http::Handler). Never throws: a database failure is a 503.
  http::Response answer_by_loading(const http::Request& request);

private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

} // namespace podcrawl::serve

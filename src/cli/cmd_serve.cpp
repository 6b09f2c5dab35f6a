#include <iostream>

#include <spdlog/spdlog.h>

#include "context.hpp"
#include "podcrawl/core/error.hpp"
#include "podcrawl/core/time.hpp"
#include "podcrawl/http/server.hpp"
#include "podcrawl/serve/files.hpp"
#include "podcrawl/serve/live.hpp"

namespace podcrawl::cli {

namespace {

// The server's limits from [serve].
http::ServerOptions server_options(const Context& context, const std::string& bind, int port) {
  http::ServerOptions options;
  options.bind = bind;
  options.port = port;
  options.threads = context.config.serve.threads;
  options.max_connections = context.config.serve.max_connections;
  options.connection_timeout_seconds = context.config.serve.connection_timeout_seconds;
  options.max_header_bytes = static_cast<std::size_t>(context.config.serve.max_header_bytes);
  options.drain_timeout_seconds = context.config.serve.drain_timeout_seconds;
  return options;
}

// A rendered site, as files.
void serve_files(const Context& context, const std::string& dir, const std::string& bind,
                 int port) {
  serve::SiteFolder site(dir, context.config.serve);
  const bool access_log = context.config.serve.access_log;
  http::Server server(server_options(context, bind, port),
                      [&site, access_log](const http::Request& request) {
                        http::Response response = site.answer(request);
                        if (access_log) {
                          spdlog::info("{} \"{} {}\" {}", request.client_address, request.method,
                                       request.path, response.status);
                        }
                        return response;
                      });
  std::cout << "serving " << dir << " at http://" << bind << ":" << server.port() << "/"
            << std::endl;
  http::serve_until_signal(server);
}

// The live directory: every page rendered on request from the database.
void serve_live(const Context& context, const serve::LiveOptions& live, const std::string& bind,
                int port) {
  context.open_database_to_read(); // migrations (or, on a replica, the schema checked) first
  serve::LiveDirectory directory(live);
  http::ServerOptions options = server_options(context, bind, port);
  // Each database connection has a worker: a page not in memory waits for the next free one,
  // in the order requests came, while the event loops go on answering from memory.
  options.workers = context.config.serve.database_connections;
  options.max_body_bytes = serve::k_max_request_body_bytes;
  http::Server server(
      options,
      [&directory](const http::Request& request) { return directory.answer_by_loading(request); },
      [&directory](const http::Request& request) { return directory.answer_from_memory(request); });
  std::cout << "serving the live directory at http://" << bind << ":" << server.port() << "/"
            << std::endl;
  http::serve_until_signal(server);
}

} // namespace

void add_serve_command(CLI::App& app, Context& context) {
  struct Options {
    std::string dir;
    std::string bind = "127.0.0.1";
    int port = 8080;
    std::string locales;
    std::string site_url;
    std::optional<std::string> now;
  };
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand(
      "serve",
      "the directory over HTTP: live from the database, or a rendered site with --dir; / "
      "picks the locale from Accept-Language");
  command->add_option("--dir", options->dir,
                      "serve this rendered site as files instead of the live directory");
  command->add_option("--bind", options->bind, "address to listen on")->capture_default_str();
  command->add_option("--port", options->port, "port (0: any free port)")
      ->capture_default_str()
      ->check(CLI::Range(0, 65535));
  command->add_option(
      "--locales", options->locales,
      "live: comma-separated locales, e.g. ar,en (default: [render] locales, else every catalog)");
  command->add_option("--site-url", options->site_url,
                      "live: absolute URL the site is published at (default: [render] site_url)");
  command->add_option("--now", options->now,
                      "live: a fixed time relative dates are measured from (ISO 8601; default: "
                      "the clock at each request)");
  command->callback([options, &context] {
    if (!options->dir.empty()) {
      serve_files(context, options->dir, options->bind, options->port);
      return;
    }
    serve::LiveOptions live;
    live.site = site_options(context, options->locales, options->site_url);
    live.database_url = context.database_url();
    live.config = context.config.serve;
    live.api = context.config.api;
    live.fetch = context.config.fetch;
    live.crawl = context.config.crawl;
    live.submit = context.config.submit;
    if (options->now) {
      live.now = core::resolve_render_time(options->now);
    }
    serve_live(context, live, options->bind, options->port);
  });
}

} // namespace podcrawl::cli

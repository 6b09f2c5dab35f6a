#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include <httplib.h>
#include <spdlog/spdlog.h>

#include "context.hpp"
#include "podcrawl/core/error.hpp"
#include "podcrawl/core/time.hpp"
#include "podcrawl/http/server.hpp"
#include "podcrawl/serve/live.hpp"
#include "podcrawl/serve/negotiate.hpp"

namespace podcrawl::cli {

namespace {

// How much of the language chooser is read to find its language.
constexpr std::size_t k_chooser_head_bytes = 512;

// The locales a rendered site holds: its folders with an index.html, the first locale of the
// render first, then by tag.
std::vector<std::string> site_locales(const std::filesystem::path& dir) {
  std::vector<std::string> locales;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.is_directory() && std::filesystem::exists(entry.path() / "index.html")) {
      locales.push_back(entry.path().filename().string());
    }
  }
  std::sort(locales.begin(), locales.end());
  // The language chooser is written in the site's first locale: that one leads.
  std::ifstream chooser(dir / "index.html", std::ios::binary);
  std::string head(k_chooser_head_bytes, '\0');
  chooser.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(chooser.gcount()));
  const std::string marker = "<html lang=\"";
  if (const auto at = head.find(marker); at != std::string::npos) {
    const auto start = at + marker.size();
    const std::string first = head.substr(start, head.find('"', start) - start);
    std::stable_partition(locales.begin(), locales.end(),
                          [&](const std::string& tag) { return tag == first; });
  }
  return locales;
}

// Each locale's rendered 404 page, read once.
std::map<std::string, std::string> not_found_pages(const std::filesystem::path& dir,
                                                   const std::vector<std::string>& locales) {
  std::map<std::string, std::string> pages;
  for (const auto& locale : locales) {
    std::ifstream in(dir / locale / "404.html", std::ios::binary);
    if (in) {
      std::ostringstream text;
      text << in.rdbuf();
      pages.emplace(locale, text.str());
    }
  }
  return pages;
}

void serve(const std::string& dir, const std::string& bind, int port) {
  if (!std::filesystem::exists(std::filesystem::path(dir) / "index.html")) {
    throw core::UsageError(dir + " holds no rendered site (run podcrawl render --out " + dir + ")");
  }
  const auto locales = site_locales(dir);
  httplib::Server server;
  if (!server.set_mount_point("/", dir)) {
    throw core::UsageError("cannot serve " + dir);
  }
  server.set_file_extension_and_mimetype_mapping("html", "text/html; charset=utf-8");
  server.set_file_extension_and_mimetype_mapping("xml", "application/xml; charset=utf-8");
  // The pages carry their own Content-Security-Policy; a header can also forbid framing them,
  // and no response is to be sniffed into another type.
  server.set_default_headers({{"Content-Security-Policy", "frame-ancestors 'none'"},
                              {"X-Content-Type-Options", "nosniff"}});
  server.set_pre_routing_handler(
      [locales](const httplib::Request& request, httplib::Response& response) {
        if (request.path != "/" || !request.has_header("Accept-Language")) {
          return httplib::Server::HandlerResponse::Unhandled;
        }
        const auto locale =
            serve::negotiate_locale(request.get_header_value("Accept-Language"), locales);
        if (locale.empty()) {
          return httplib::Server::HandlerResponse::Unhandled;
        }
        response.set_redirect("/" + locale + "/", 302);
        response.set_header("Vary", "Accept-Language");
        return httplib::Server::HandlerResponse::Handled;
      });
  // Missing pages get the 404 page of the locale the path names, else the visitor's language,
  // else the first locale.
  const auto pages = not_found_pages(dir, locales);
  std::vector<std::string> with_page;
  for (const auto& locale : locales) {
    if (pages.contains(locale)) {
      with_page.push_back(locale);
    }
  }
  server.set_error_handler(httplib::Server::HandlerWithResponse(
      [pages, with_page](const httplib::Request& request, httplib::Response& response) {
        if (response.status != 404 || with_page.empty()) {
          return httplib::Server::HandlerResponse::Unhandled;
        }
        const std::string locale = serve::not_found_locale(
            request.path, request.get_header_value("Accept-Language"), with_page);
        response.set_content(pages.at(locale), "text/html; charset=utf-8");
        response.set_header("Vary", "Accept-Language");
        return httplib::Server::HandlerResponse::Handled;
      }));
  server.set_logger([](const httplib::Request& request, const httplib::Response& response) {
    spdlog::debug("{} {} {}", request.method, request.path, response.status);
  });
  if (!server.bind_to_port(bind, port)) {
    throw core::EnvironmentError("cannot listen on " + bind + ":" + std::to_string(port));
  }
  std::cout << "serving " << dir << " at http://" << bind << ":" << port << "/" << std::endl;
  server.listen_after_bind();
}

// The live directory: every page rendered on request from the database.
void serve_live(const Context& context, const serve::LiveOptions& live, const std::string& bind,
                int port) {
  context.open_database_to_read(); // migrations (or, on a replica, the schema checked) first
  serve::LiveDirectory directory(live);
  http::ServerOptions server_options;
  server_options.bind = bind;
  server_options.port = port;
  server_options.threads = context.config.serve.threads;
  server_options.max_connections = context.config.serve.max_connections;
  server_options.connection_timeout_seconds = context.config.serve.connection_timeout_seconds;
  server_options.max_header_bytes = static_cast<std::size_t>(context.config.serve.max_header_bytes);
  server_options.drain_timeout_seconds = context.config.serve.drain_timeout_seconds;
  // Each database connection has a worker: a page not in memory waits for the next free one,
  // in the order requests came, while the event loops go on answering from memory.
  server_options.workers = context.config.serve.database_connections;
  http::Server server(
      server_options,
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
      serve(options->dir, options->bind, options->port);
      return;
    }
    serve::LiveOptions live;
    live.site = site_options(context, options->locales, options->site_url);
    live.database_url = context.database_url();
    live.config = context.config.serve;
    if (options->now) {
      live.now = core::resolve_render_time(options->now);
    }
    serve_live(context, live, options->bind, options->port);
  });
}

} // namespace podcrawl::cli

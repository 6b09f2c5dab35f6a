#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include <httplib.h>
#include <spdlog/spdlog.h>

#include "context.hpp"
#include "podcrawl/cli/negotiate.hpp"
#include "podcrawl/core/error.hpp"

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
        const auto locale = negotiate_locale(request.get_header_value("Accept-Language"), locales);
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
        const std::string locale =
            not_found_locale(request.path, request.get_header_value("Accept-Language"), with_page);
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

} // namespace

void add_serve_command(CLI::App& app, Context&) {
  struct Options {
    std::string dir;
    std::string bind = "127.0.0.1";
    int port = 8080;
  };
  auto options = std::make_shared<Options>();
  auto* command =
      app.add_subcommand("serve", "serve a rendered site; / picks the locale from Accept-Language");
  command->add_option("--dir", options->dir, "the rendered site")->required();
  command->add_option("--bind", options->bind, "address to listen on")->capture_default_str();
  command->add_option("--port", options->port, "port")
      ->capture_default_str()
      ->check(CLI::Range(1, 65535));
  command->callback([options] { serve(options->dir, options->bind, options->port); });
}

} // namespace podcrawl::cli

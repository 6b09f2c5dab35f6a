#include <algorithm>
#include <iostream>
#include <sstream>

#include <spdlog/spdlog.h>

#include "context.hpp"
#include "podcrawl/core/error.hpp"
#include "podcrawl/core/time.hpp"
#include "podcrawl/l10n/localizer.hpp"
#include "podcrawl/publish/directory.hpp"
#include "podcrawl/render/site.hpp"

namespace podcrawl::cli {

namespace {

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ',')) {
    if (!item.empty()) {
      items.push_back(item);
    }
  }
  return items;
}

// Every catalog, English (the reference catalog, and so the x-default of the pages) first.
std::vector<std::string> every_catalog(const std::filesystem::path& locales_dir) {
  std::vector<std::string> tags = l10n::available_locales(locales_dir);
  std::stable_partition(tags.begin(), tags.end(),
                        [](const std::string& tag) { return tag == "en"; });
  return tags;
}

} // namespace

render::SiteOptions site_options(const Context& context, const std::string& locales,
                                 const std::string& site_url) {
  render::SiteOptions options;
  options.templates_dir = context.config.source_dir / "templates";
  options.locales_dir = context.config.source_dir / "config" / "locales";
  options.locales = locales.empty() ? context.config.render.locales : split_list(locales);
  if (locales.empty() && options.locales.empty()) {
    options.locales = every_catalog(options.locales_dir);
  }
  if (options.locales.empty()) {
    throw core::UsageError("--locales: no locale given");
  }
  options.site_url = site_url.empty() ? context.config.render.site_url : site_url;
  options.art_dir = core::art_dir(context.config);
  options.submissions = context.config.submit.enabled;
  return options;
}

void add_render_command(CLI::App& app, Context& context) {
  struct Options {
    std::string out;
    std::string locales;
    std::string site_url;
    std::optional<std::string> now;
    bool full = false;
  };
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand(
      "render",
      "write the static directory site: only what changed since the last render of --out, or "
      "everything with --full");
  command->add_option("--out", options->out, "output folder")->required();
  command->add_option(
      "--locales", options->locales,
      "comma-separated locales, e.g. ar,en (default: [render] locales, else every catalog)");
  command->add_option("--site-url", options->site_url, "absolute URL the site is published at");
  command->add_option("--now", options->now,
                      "time relative dates are measured from (ISO 8601; else SOURCE_DATE_EPOCH)");
  command->add_flag("--full", options->full,
                    "render every page and replace the site, even when it could be updated");
  command->callback([options, &context] {
    const render::SiteOptions site = site_options(context, options->locales, options->site_url);
    const std::int64_t now = core::resolve_render_time(options->now);
    auto database = context.open_database_to_read();
    store::DirectoryPages pages(*database);
    const auto [summary, shows] =
        publish::render_directory(pages, site, options->out, now, options->full);
    std::cout << (summary.updated ? "updated " : "rendered ") << options->out << ": "
              << summary.pages << " pages for " << shows << " shows, " << summary.written
              << " files written, " << summary.removed << " removed\n";
    if (summary.missing_art > 0) {
      spdlog::warn("render: {} cover art files the pages link are missing from {}",
                   summary.missing_art, site.art_dir.string());
    }
  });
}

} // namespace podcrawl::cli

#include <algorithm>
#include <iostream>
#include <sstream>

#include "context.hpp"
#include "podcrawl/core/error.hpp"
#include "podcrawl/core/time.hpp"
#include "podcrawl/l10n/localizer.hpp"
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

void add_render_command(CLI::App& app, Context& context) {
  struct Options {
    std::string out;
    std::string locales;
    std::string site_url;
    std::optional<std::string> now;
  };
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand("render", "write the static directory site");
  command->add_option("--out", options->out, "output folder")->required();
  command->add_option(
      "--locales", options->locales,
      "comma-separated locales, e.g. ar,en (default: [render] locales, else every catalog)");
  command->add_option("--site-url", options->site_url, "absolute URL the site is published at");
  command->add_option("--now", options->now,
                      "time relative dates are measured from (ISO 8601; else SOURCE_DATE_EPOCH)");
  command->callback([options, &context] {
    render::RenderOptions render_options;
    render_options.out_dir = options->out;
    render_options.templates_dir = context.config.source_dir / "templates";
    render_options.locales_dir = context.config.source_dir / "config" / "locales";
    render_options.locales =
        options->locales.empty() ? context.config.render.locales : split_list(options->locales);
    if (options->locales.empty() && render_options.locales.empty()) {
      render_options.locales = every_catalog(render_options.locales_dir);
    }
    if (render_options.locales.empty()) {
      throw core::UsageError("--locales: no locale given");
    }
    render_options.site_url =
        options->site_url.empty() ? context.config.render.site_url : options->site_url;
    render_options.now = core::resolve_render_time(options->now);
    auto database = context.open_database();
    const auto shows = database->load_all_shows();
    const auto summary = render::render_site(shows, render_options);
    std::cout << "rendered " << summary.pages << " pages for " << shows.size() << " shows to "
              << options->out << '\n';
  });
}

} // namespace podcrawl::cli

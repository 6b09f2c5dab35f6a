#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "podcrawl/store/records.hpp"

namespace podcrawl::render {

struct RenderOptions {
  std::filesystem::path out_dir;
  std::vector<std::string> locales;    // each must have a catalog
  std::string site_url;                // absolute base for sitemap.xml and hreflang links
  std::int64_t now = 0;                // the time relative dates are measured from
  std::filesystem::path templates_dir; // templates/*.mustache
  std::filesystem::path locales_dir;   // config/locales/*.toml
};

struct RenderSummary {
  std::int64_t pages = 0;         // HTML pages written, the language chooser and 404 pages included
  std::int64_t skipped_shows = 0; // inactive, untitled, or without a usable unique slug
  std::int64_t skipped_episodes = 0; // without a usable slug unique within their show
};

// Write the static site (layout in the SPEC) for the given page models. Feeds' text is
// escaped and isolated; descriptions are the already sanitized HTML. Files are written to a
// temporary name and renamed, so a reader never sees a half-written page. Throws
// core::UsageError for an unknown locale, core::EnvironmentError when writing fails.
// Shows that are inactive (feed removed or gone) or have no title get no pages; neither do
// shows or episodes whose slug is not lower-case ASCII letters, digits and '-'. Output depends
// only on the arguments: the same shows, options and `now` give byte-identical files.
RenderSummary render_site(const std::vector<store::StoredShow>& shows,
                          const RenderOptions& options);

} // namespace podcrawl::render

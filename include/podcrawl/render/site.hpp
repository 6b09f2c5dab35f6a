#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "podcrawl/store/history.hpp"
#include "podcrawl/store/pages.hpp"

namespace podcrawl::render {

struct SiteOptions {
  std::vector<std::string> locales;    // each must have a catalog; the first is the x-default
  std::string site_url;                // absolute base for canonical, sitemap and hreflang links
  std::filesystem::path templates_dir; // templates/*.mustache
  std::filesystem::path locales_dir;   // config/locales/*.toml
  // The crawler's cover art files ([art] dir): SiteWriter places those its pages link under
  // art/ in the site, and the live directory answers /art/ from here. Empty: none published.
  std::filesystem::path art_dir;
  // The latest a page's expires_at is set after `now`, even when no phrase on it changes
  // sooner: a day for the live directory's cache; SiteWriter uses a year, so an exported page is
  // rendered again only when a relative date on it reads otherwise.
  std::int64_t max_page_lifetime = 86400;
};

// A rendered page and how long its bytes stay true.
struct RenderedPage {
  std::string html;
  // The first time after `now` at which a relative phrase on the page ("5 weeks ago") reads
  // otherwise, at most SiteOptions::max_page_lifetime after `now`: the page must be rendered
  // again by then.
  std::int64_t expires_at = 0;
};

// Page models in, bytes out: the one code path for the files `render` writes and the answers
// of the live directory. Feeds' text is escaped and isolated; descriptions are the already
// sanitized HTML. Output depends only on the model, the locale, `now` and the options.
// A Renderer loads its templates and catalogs once; it is not safe to use from two threads at
// once (give each thread its own).
class Renderer {
public:
  // Throws core::UsageError for an unknown or repeated locale, no locale, or a site URL that is
  // not absolute http(s); core::EnvironmentError for a missing or malformed template.
  explicit Renderer(const SiteOptions& options);
  ~Renderer();
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  const std::vector<std::string>& locales() const;
  bool has_locale(std::string_view tag) const;
  // The site's path below its host, without a trailing '/': "" or "/dir".
  const std::string& site_path() const;

  // The language chooser at the site's root.
  std::string root_page();
  // The locale's 404 page; its links are absolute paths, so it can answer any address.
  std::string not_found_page(std::string_view locale);
  // The locale's page for a directory that cannot reach its database (a 503), like the 404.
  std::string unavailable_page(std::string_view locale);
  // Each throws core::UsageError for a locale the Renderer does not have.
  RenderedPage home_page(const store::HomePage& home, std::string_view locale, std::int64_t now);
  RenderedPage list_page(const store::ShowListPage& list, std::string_view locale,
                         std::int64_t now);
  RenderedPage show_page(const store::ShowPage& page, std::string_view locale, std::int64_t now);
  RenderedPage episode_page(const store::EpisodePage& page, std::string_view locale,
                            std::int64_t now);
  // A page of search results, or the page that asks for words (an empty or too long query).
  // Only the live directory answers it: an exported site has no search pages.
  RenderedPage search_page(const store::SearchPage& page, std::string_view locale,
                           std::int64_t now);
  // The crawl health report (render::report_page) in one of the locales.
  std::string report_page(const store::CrawlReport& report, std::string_view locale);
  // The show's OPML document, one for every locale; empty when its feed URL is not http(s).
  std::string show_opml(const store::StoredShow& show) const;
  // The site's stylesheet and the language chooser's script.
  const std::string& stylesheet() const;
  const std::string& locale_script() const;

  // The default of SiteOptions::max_page_lifetime.
  static constexpr std::int64_t k_max_lifetime = 86400;

private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

struct RenderSummary {
  std::int64_t pages = 0;   // HTML pages rendered, the language chooser and 404 pages included
  std::int64_t written = 0; // files written: new, or with new content
  std::int64_t removed = 0; // files and folders removed
  std::int64_t skipped_shows = 0; // shows whose slug is not a safe path segment
  std::int64_t missing_art = 0;   // cover art files a page links that the art folder lacks
  bool updated = false;           // true: the published site was updated, not replaced
};

// What the published site reflects, when a render can update it instead of replacing it.
struct PreviousRender {
  std::string snapshot; // the store's directory_snapshot() the site was rendered from
  // The shows with a relative date that reads otherwise by now, in slug order.
  std::vector<std::string> expired_shows;
  bool lists_expired = false; // likewise for the home and list pages
};

// Writes the static site (layout in the SPEC) from page models handed over one at a time, each
// in every locale, so memory holds a bounded batch whatever the directory's size. Pages are
// rendered on one thread per core, and only files whose bytes change are written.
//
// A render either replaces the site (a new one built beside it and swapped in by one rename) or
// updates it (the changed files staged beside it, then moved in): an update is possible when
// the published site was rendered by this program with the same options, templates and
// catalogs, and not for a later time. Until publish(), and if the render fails or is killed,
// the site at out_dir is untouched; a killed update's commit is finished by the next render.
// The design is in ARCHITECTURE.md.
class SiteWriter {
public:
  // `full`: replace the site even when it could be updated. Throws as Renderer does, and
  // core::EnvironmentError when the site's folder cannot be prepared or another render holds it.
  SiteWriter(const SiteOptions& options, const std::filesystem::path& out_dir, std::int64_t now,
             bool full = true);
  ~SiteWriter();
  SiteWriter(const SiteWriter&) = delete;
  SiteWriter& operator=(const SiteWriter&) = delete;

  // Set when this render updates the published site. The caller then hands over the shows
  // changed since previous()->snapshot and the expired ones (write_show, or remove_show for
  // those no longer listed), and, if any show changed or the lists expired, every list page
  // (write_home and write_list as for a whole render). Everything else stays as published.
  const std::optional<PreviousRender>& previous() const;

  void write_home(const store::HomePage& home);
  void write_list(const store::ShowListPage& list);
  // The show's every page (its episode list pages and each episode), its OPML file and its
  // cover art files (art/<hash>-<width>.webp, linked from the art folder; a file several shows
  // share is placed once, and one the published site has is kept). Pages an update leaves
  // behind (fewer episodes than before) are removed; art files stay until the next --full.
  void write_show(const store::ShowPages& show);
  // An update: the show's pages are removed (it left the directory).
  void remove_show(const std::string& slug);
  // Wait for the pages in flight, write the language chooser, 404 pages, assets, sitemap and
  // the state the next render reads (`snapshot`: the store's, taken before the first model was
  // loaded), and publish. The first error of any page is thrown here or by the next write
  // (core::EnvironmentError, e.g. "No space left on device"); the published site is unchanged.
  RenderSummary publish(const std::string& snapshot = {});

private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

} // namespace podcrawl::render

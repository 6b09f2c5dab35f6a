#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "podcrawl/model/pages.hpp"
#include "podcrawl/model/report.hpp"

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
  // Every page of a locale links the form that adds a podcast (/<locale>/add/), which the live
  // directory answers ([submit] enabled).
  bool submissions = true;
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
  // The site's absolute URL without a trailing '/', as its pages link it.
  const std::string& site_url() const;
  // The site's path below its host, without a trailing '/': "" or "/dir".
  const std::string& site_path() const;

  // The language chooser at the site's root.
  std::string root_page();
  // The locale's 404 page; its links are absolute paths, so it can answer any address.
  std::string not_found_page(std::string_view locale);
  // The locale's page for a directory that cannot reach its database (a 503), like the 404.
  std::string unavailable_page(std::string_view locale);
  // Each throws core::UsageError for a locale the Renderer does not have.
  RenderedPage home_page(const model::HomePage& home, std::string_view locale, std::int64_t now);
  RenderedPage list_page(const model::ShowListPage& list, std::string_view locale,
                         std::int64_t now);
  RenderedPage show_page(const model::ShowPage& page, std::string_view locale, std::int64_t now);
  RenderedPage episode_page(const model::EpisodePage& page, std::string_view locale,
                            std::int64_t now);
  // A page of search results, or the page that asks for words (an empty or too long query).
  // Only the live directory answers it: an exported site has no search pages.
  // The form that adds a podcast, and what became of a URL sent with it; never cached (it
  // holds the form token).
  RenderedPage submit_page(const model::SubmitPage& page, std::string_view locale,
                           std::int64_t now);
  RenderedPage search_page(const model::SearchPage& page, std::string_view locale,
                           std::int64_t now);
  // The crawl health report (render::report_page) in one of the locales.
  std::string report_page(const model::CrawlReport& report, std::string_view locale);
  // The show's OPML document, one for every locale; empty when its feed URL is not http(s).
  std::string show_opml(const model::StoredShow& show) const;
  // The OpenAPI 3.1 description of the directory's APIs (templates/openapi.json).
  const std::string& openapi_document() const;
  // The site's stylesheet and the language chooser's script.
  const std::string& stylesheet() const;
  const std::string& locale_script() const;

  // The default of SiteOptions::max_page_lifetime.
  static constexpr std::int64_t k_max_lifetime = 86400;

private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

// The cover art files the pages showing `artwork` link (art/<name> in the site, <name> in the
// art folder): none when it has no renditions.
std::vector<std::string> art_files(const std::optional<model::StoredArtwork>& artwork);

} // namespace podcrawl::render

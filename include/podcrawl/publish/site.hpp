#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "podcrawl/model/pages.hpp"
#include "podcrawl/render/site.hpp"

// The exported site: the files `podcrawl render` writes, kept in step with the directory.
namespace podcrawl::publish {

// What a render did.
struct Summary {
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
// Each page is rendered by render::Renderer, on a pool of render threads each with its own.
// The design is in ARCHITECTURE.md.
class SiteWriter {
public:
  // `full`: replace the site even when it could be updated. Throws as Renderer does, and
  // core::EnvironmentError when the site's folder cannot be prepared or another render holds it.
  SiteWriter(const render::SiteOptions& options, const std::filesystem::path& out_dir,
             std::int64_t now, bool full = true);
  ~SiteWriter();
  SiteWriter(const SiteWriter&) = delete;
  SiteWriter& operator=(const SiteWriter&) = delete;

  // Set when this render updates the published site. The caller then hands over the shows
  // changed since previous()->snapshot and the expired ones (write_show, or remove_show for
  // those no longer listed), and, if any show changed or the lists expired, every list page
  // (write_home and write_list as for a whole render). Everything else stays as published.
  const std::optional<PreviousRender>& previous() const;

  void write_home(const model::HomePage& home);
  void write_list(const model::ShowListPage& list);
  // The show's every page (its episode list pages and each episode), its OPML file and its
  // cover art files (art/<hash>-<width>.webp, linked from the art folder; a file several shows
  // share is placed once, and one the published site has is kept). Pages an update leaves
  // behind (fewer episodes than before) are removed; art files stay until the next --full.
  void write_show(const model::WholeShow& show);
  // An update: the show's pages are removed (it left the directory).
  void remove_show(const std::string& slug);
  // Wait for the pages in flight, write the language chooser, 404 pages, assets, sitemap and
  // the state the next render reads (`snapshot`: the store's, taken before the first model was
  // loaded), and publish. The first error of any page is thrown here or by the next write
  // (core::EnvironmentError, e.g. "No space left on device"); the published site is unchanged.
  Summary publish(const std::string& snapshot = {});

private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

} // namespace podcrawl::publish

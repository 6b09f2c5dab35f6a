#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "podcrawl/render/site.hpp"

namespace podcrawl::publish::internal {

class SiteFiles;

// One show of a rendered site, as its state records it: where its pages are and when the
// earliest relative date on them reads otherwise.
struct ShowRecord {
  std::string slug;
  std::int64_t expires_at = 0;
  std::int64_t pages = 0;            // episode list pages
  std::vector<std::string> episodes; // episode page slugs, in list order
};
// A record as one line of the state's `shows` (ending in '\n'), and back; nullopt for a line
// that is not one.
std::string show_record_line(const ShowRecord& record);
std::optional<ShowRecord> parse_show_record(std::string_view line);

// What a render recorded about the site it published.
struct RenderState {
  std::string fingerprint;          // render_fingerprint of its options
  std::string snapshot;             // store::DirectoryPages::directory_snapshot() it reflects
  std::int64_t rendered_at = 0;     // its `now`
  std::int64_t lists_expire_at = 0; // the earliest expiry of the home and list pages
};
std::string render_state_text(const RenderState& state);
std::optional<RenderState> read_render_state(const std::filesystem::path& file);
// A hash of everything besides the database that a page's bytes depend on: the locales and
// their catalogs, the site URL, the templates and the program itself. A site rendered with
// another fingerprint can only be replaced, never updated.
std::string render_fingerprint(const render::SiteOptions& options, std::string_view site_url);

// The sitemap: sitemap.xml alone, or an index of sitemap-<n>.xml parts when the site has more
// URLs than one part takes; the parts a larger site left behind are removed.
class SitemapWriter {
public:
  // `locales` as the site's pages list them (the first is the x-default); `site_url` without a
  // trailing '/'.
  SitemapWriter(std::vector<std::string> locales, std::string site_url, SiteFiles& files);
  // One <url> per locale for the page at a locale-relative path, each listing every alternate.
  void add(std::string_view path);
  // Write what is left and the index; returns the number of files of the sitemap.
  std::size_t finish();

private:
  void flush();

  std::vector<std::string> m_locales;
  std::string m_site_url;
  SiteFiles& m_files;
  std::string m_part;
  std::size_t m_urls_in_part = 0;
  std::size_t m_parts = 0;
};

// True when `file` already holds exactly `content`.
bool holds(const std::filesystem::path& file, std::string_view content);

// The files of the site at out_dir as one render changes them (the layout beside the site and
// the guarantees are described in staging.cpp). One render at a time holds a site: the
// constructor takes its lock (core::EnvironmentError when another render holds it) and first
// finishes applying an update a killed render had committed.
class SiteFiles {
public:
  enum class Mode {
    replace, // a whole new site, swapped in by commit()
    update,  // the changed files only, moved in by commit()
  };

  explicit SiteFiles(const std::filesystem::path& out_dir);
  ~SiteFiles();
  SiteFiles(const SiteFiles&) = delete;
  SiteFiles& operator=(const SiteFiles&) = delete;

  // Start staging; once, before any write.
  void begin(Mode mode);
  Mode mode() const { return m_mode; }
  // True when a site is published at out_dir (its root page is there): an update needs one.
  bool site_exists() const;
  // A file of the published state (which may not exist).
  std::filesystem::path state_file(std::string_view name) const;
  // Where the new state's file of that name is written before commit().
  std::filesystem::path staged_state_file(std::string_view name) const;
  // Stage a file of the site (a path relative to its root) unless the published one holds
  // exactly `content`; true when it was written. Safe from several threads at once.
  bool write(const std::string& relative, std::string_view content);
  // Stage a file whose name is its content's hash from `source`: nothing when this render
  // staged it already or an update finds it published; a replacement keeps the published file
  // (a hard link); else the source is hard-linked, or copied across file systems. Throws
  // core::EnvironmentError when it cannot be copied.
  enum class Placed { written, kept, missing };
  Placed place(const std::string& relative, const std::filesystem::path& source);
  // Remove a published file or folder at commit (an update; a replacement never has it);
  // nothing when there is none.
  void remove(const std::string& relative);
  // The published files in a folder of the site ("" for its root) and, when `recursive`, in
  // the folders below; paths relative to the site's root, sorted.
  std::vector<std::string> published_files(const std::string& folder, bool recursive = true) const;
  std::int64_t written() const { return m_written; }
  std::int64_t removed() const;
  // Publish what was staged, with the staged state.
  void commit();

private:
  void apply_update();

  std::filesystem::path m_site;
  std::filesystem::path m_state;
  std::filesystem::path m_next;
  std::filesystem::path m_update;
  std::filesystem::path m_staging;
  Mode m_mode = Mode::replace;
  int m_lock = -1;
  bool m_committed = false;
  std::atomic<std::int64_t> m_written{0};
  mutable std::mutex m_mutex;
  std::vector<std::string> m_removals;
};

} // namespace podcrawl::publish::internal

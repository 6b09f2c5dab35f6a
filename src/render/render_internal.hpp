#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <kainjow/mustache.hpp>

#include "podcrawl/l10n/localizer.hpp"
#include "podcrawl/render/site.hpp"
#include "podcrawl/store/records.hpp"

namespace podcrawl::render::internal {

using Data = kainjow::mustache::data;
using Template = kainjow::mustache::mustache;

// A show that gets pages, with the episodes that get pages (indices into show.episodes).
struct PlannedShow {
  const store::StoredShow* stored = nullptr;
  std::vector<std::size_t> episodes;
  std::vector<std::size_t> categories; // indices into SitePlan::categories
  std::string language;                // the feed's language tag when valid, else ""
};

struct PlannedCategory {
  std::string slug;
  std::string name;               // as the first show (by slug) spells it
  std::string language;           // that show's language tag when valid, else ""
  std::vector<std::size_t> shows; // indices into SitePlan::shows
};

// What the site holds, in a fixed order: shows by slug, categories by slug.
struct SitePlan {
  std::vector<PlannedShow> shows;
  std::vector<PlannedCategory> categories;
  std::int64_t skipped_shows = 0;
  std::int64_t skipped_episodes = 0;
};

// Choose the shows, episodes and categories that get pages. Shows without a title, inactive
// shows, and shows or episodes whose slug is not a safe, unique path segment are skipped.
SitePlan plan_site(const std::vector<store::StoredShow>& shows);

// The page templates, read once. Partials are kept as text for kainjow to expand.
// The site's stylesheet and the language chooser's script: copied from the templates folder to
// the site's root.
constexpr std::string_view k_stylesheet_file = "site.css";
constexpr std::string_view k_locale_script_file = "choose-locale.js";

// Every page's Content-Security-Policy (a meta element, so it holds wherever the site is hosted):
// the site's stylesheet, images and media from the web, and nothing else: no script, no inline
// style, no plugin, no form target, no base URL. The language chooser adds script-src 'self'.
constexpr std::string_view k_content_security_policy =
    "default-src 'none'; style-src 'self'; img-src http: https:; media-src http: https:;"
    " base-uri 'none'; form-action 'none'";

struct Templates {
  std::string head;
  std::string foot;
  std::string show_list;
  Template root{""};
  Template home{""};
  Template category{""};
  Template show{""};
  Template episode{""};
  Template not_found{""};
  std::string stylesheet;
  std::string locale_script;
};

// Read templates/*.mustache. Throws core::EnvironmentError when one is missing or malformed.
Templates load_templates(const std::filesystem::path& dir);

// Everything a page builder needs besides the page's own model.
struct Site {
  const SitePlan& plan;
  const std::vector<l10n::Localizer>& localizers; // in the order of RenderOptions::locales
  std::string site_url;                           // without a trailing '/'
  std::string site_path; // the path part of site_url, without a trailing '/': "" or "/dir"
  std::int64_t now = 0;
};

// A show's episode list is split into pages of this many episodes: the first on the show
// page, the others at podcasts/<slug>/page/<n>/.
constexpr std::size_t k_episodes_per_page = 50;
// The home page lists this many of the newest episodes across all shows.
constexpr std::size_t k_latest_episodes = 20;

// How many pages a show's episode list takes (at least 1).
std::size_t page_count(const PlannedShow& show);

// Locale-relative page paths: "" for the home page, else ending in '/'.
std::string category_path(const PlannedCategory& category);
std::string show_path(const PlannedShow& show);
// Page `page` (1-based) of a show's episode list; page 1 is the show page itself.
std::string show_page_path(const PlannedShow& show, std::size_t page);
std::string episode_path(const PlannedShow& show, std::size_t episode);
// Where a show's OPML file lives, relative to the site root (one file for every locale).
std::string opml_path(const PlannedShow& show);
// Every page path of the site in render order: home, categories, shows (with their further
// pages), episodes.
std::vector<std::string> all_page_paths(const SitePlan& plan);

// "../" once per folder of a locale-relative path: the way from the page to its locale home.
std::string relative_prefix(std::string_view path);
// A link from one page to another of the same locale; "./" for the page's own folder.
std::string relative_link(std::string_view from_path, std::string_view to_path);
// The absolute URL of a page in one locale.
std::string page_url(const Site& site, std::string_view tag, std::string_view path);
// The x-default URL of a page: the language chooser for home pages, else the first locale's.
std::string default_url(const Site& site, std::string_view path);

// Page data, one builder per page kind; each carries the shared frame (head, header, footer).
Data root_page(const Site& site);
Data home_page(const Site& site, const l10n::Localizer& localizer);
Data category_page(const Site& site, const l10n::Localizer& localizer, std::size_t category);
Data show_page(const Site& site, const l10n::Localizer& localizer, std::size_t show,
               std::size_t page = 1);
Data episode_page(const Site& site, const l10n::Localizer& localizer, std::size_t show,
                  std::size_t episode);
// One episode as an item of a list on the page at from_path: title, link, relative date,
// duration (clock and spoken), summary.
Data episode_item(const Site& site, const l10n::Localizer& localizer, const PlannedShow& planned,
                  std::size_t episode, std::string_view from_path);
// The localized 404 page; its links are absolute paths, as it is served at any address.
Data not_found_page(const Site& site, const l10n::Localizer& localizer);
// The frame every locale page shares: lang, dir, title, alternates, language links, strings,
// Open Graph properties.
Data page_frame(const Site& site, const l10n::Localizer& localizer, std::string_view path,
                std::string_view page_title);
// A category's name for display: the catalog's name for Apple's top-level categories (in the
// locale's language), else the feed's spelling in the feed's language. Sets name, name_lang.
void set_category_name(Data& data, const l10n::Localizer& localizer,
                       const PlannedCategory& category);

// Meta descriptions are plain text cut to this many characters.
constexpr std::size_t k_meta_description_chars = 200;
// Set the page's meta description from a feed's sanitized HTML description.
void set_meta_description(Data& data, std::string_view html);

// The sitemap files: sitemap.xml alone, or an index plus numbered parts for large sites.
struct SitemapFile {
  std::string name;
  std::string content;
};
std::vector<SitemapFile> sitemap_files(const Site& site);

// schema.org JSON-LD for a show page (PodcastSeries) and an episode page (PodcastEpisode),
// escaped for a <script type="application/ld+json"> element: no "<" or "&" appears raw.
std::string show_json_ld(const Site& site, const l10n::Localizer& localizer, std::size_t show);
std::string episode_json_ld(const Site& site, const l10n::Localizer& localizer, std::size_t show,
                            std::size_t episode);
// The OPML 2.0 document for one show (its feed as an rss outline); empty when the show's feed
// URL is not http(s).
std::string show_opml(const PlannedShow& show);

// Text helpers for feed content.
bool is_safe_slug(std::string_view slug);
std::string language_tag_or_empty(std::string_view language);
std::string http_url_or_empty(std::string_view url);
// Wrap feed text in Unicode isolates (FSI … PDI) for places markup cannot go.
std::string isolate(std::string_view text);
// A catalog message with one feed-text argument, split around it so the argument can sit in
// its own <bdi> or <time>: "by {0}" -> {"by ", ""}.
struct Around {
  std::string before;
  std::string after;
};
Around split_message(const l10n::Localizer& localizer, std::string_view key);
// A duration as an HTML valid duration string: "PT32M48S".
std::string iso_duration(std::int64_t seconds);
// The time when it is a plausible date (years 1970 to 9999), else nullopt.
std::optional<std::int64_t> plausible_time(std::optional<std::int64_t> t);
std::string escape_xml(std::string_view text);

// True when `file` already holds exactly `content`.
bool holds(const std::filesystem::path& file, std::string_view content);

// Write content to file through a temporary name in the same folder and a rename, unless the
// file already holds it. Throws core::EnvironmentError (with the system's reason, e.g. "No space
// left on device") when writing fails.
void write_file_atomically(const std::filesystem::path& file, std::string_view content);

// The folder a render writes into: a copy of the site at out_dir (hard links to its files) in
// out_dir's parent, swapped in by publish() in one rename. Until then, and if the render fails,
// the site at out_dir is untouched; the copy (after publish, the previous site) is removed on
// destruction, and copies that killed renders left behind are removed on construction.
class StagedSite {
public:
  explicit StagedSite(const std::filesystem::path& out_dir);
  ~StagedSite();
  StagedSite(const StagedSite&) = delete;
  StagedSite& operator=(const StagedSite&) = delete;

  const std::filesystem::path& dir() const { return m_copy; }
  void publish();

private:
  std::filesystem::path m_site;
  std::filesystem::path m_copy;
};

} // namespace podcrawl::render::internal

#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "podcrawl/l10n/localizer.hpp"
#include "podcrawl/model/pages.hpp"
#include "podcrawl/model/show.hpp"
#include "podcrawl/render/layout.hpp"
#include "podcrawl/render/paths.hpp"
#include "podcrawl/render/site.hpp"
#include "template_internal.hpp"

namespace podcrawl::render::internal {

// Every page's Content-Security-Policy (a meta element, so it holds wherever the site is hosted):
// the site's stylesheet, images from the site itself (its cover art), media from the web (the
// episodes' audio), the search form sent to the site itself,
// and nothing else: no script, no inline style, no plugin, no base URL. The language chooser
// adds script-src 'self'.
constexpr std::string_view k_content_security_policy =
    "default-src 'none'; style-src 'self'; img-src 'self'; media-src http: https:;"
    " base-uri 'none'; form-action 'self'";

struct Templates {
  Template root{""};
  Template home{""};
  Template list{""};
  Template show{""};
  Template episode{""};
  Template not_found{""};
  Template search{""};
  Template submit{""};
  std::string stylesheet;
  std::string openapi; // the APIs' OpenAPI description, as the file holds it
  std::string locale_script;
};

// A page template's text as it is parsed: templates/<name>.mustache with its partials expanded.
std::string template_text(const std::filesystem::path& dir, std::string_view name);
// Read templates/*.mustache. Throws core::EnvironmentError when one is missing or malformed.
Templates load_templates(const std::filesystem::path& dir);

// Everything a page builder needs besides the page's own model. One Site per page rendered:
// builders lower expires_at to the first time a relative phrase they write will read otherwise.
struct Site {
  const std::vector<l10n::Localizer>& localizers; // in the order of SiteOptions::locales
  std::string site_url;                           // without a trailing '/'
  std::string site_path; // the path part of site_url, without a trailing '/': "" or "/dir"
  std::int64_t now = 0;
  mutable std::int64_t expires_at = 0;
  bool submissions = true; // SiteOptions::submissions
};

// "../" once per folder of a locale-relative path: the way from the page to its locale home.
std::string relative_prefix(std::string_view path);
// A link from one page to another of the same locale; "./" for the page's own folder.
std::string relative_link(std::string_view from_path, std::string_view to_path);
// The absolute URL of a page in one locale.
std::string page_url(const Site& site, std::string_view tag, std::string_view path);
// The x-default URL of a page: the language chooser for home pages, else the first locale's.
std::string default_url(const Site& site, std::string_view path);

// One episode as an item of a list on the page at from_path: title, link, relative date,
// duration (clock and spoken), summary. show_language is a valid tag or "".
Data episode_item(const Site& site, const l10n::Localizer& localizer, std::string_view show_slug,
                  const std::string& show_language, const feed::Episode& episode,
                  std::string_view episode_slug, std::string_view from_path);

// A show as an item of a list on the page at from_path: title, link, author, episode count.
Data show_item(const l10n::Localizer& localizer, const model::ShowSummary& show,
               std::string_view from_path);

// Where cover art is shown: large at the head of a show or episode page, small in a list.
enum class ArtPlace { page, list };
// The path of a rendition's file relative to the site's root: art/<hash>-<width>.webp.
std::string art_path(const model::StoredArtwork& artwork, const model::ArtRendition& rendition);
// True when the show has cover art to show: renditions made, under a content address.
bool has_artwork(const std::optional<model::StoredArtwork>& artwork);
// Sets `art` for an <img> of a show's cover art on the page at from_path (src, srcset, sizes,
// width, height and a localized alt naming `title`), or to false when the show has none: the
// template then draws a placeholder in CSS.
void set_artwork(Data& data, const l10n::Localizer& localizer,
                 const std::optional<model::StoredArtwork>& artwork, std::string_view title,
                 std::string_view from_path, ArtPlace place);
// The absolute URL of the widest rendition, for og:image and JSON-LD; "" when there is none.
std::string artwork_url(const Site& site, const std::optional<model::StoredArtwork>& artwork);

// Page data, one builder per page kind; each carries the shared frame (head, header, footer).
Data root_page(const Site& site);
Data home_page(const Site& site, const l10n::Localizer& localizer, const model::HomePage& home);
Data list_page(const Site& site, const l10n::Localizer& localizer, const model::ShowListPage& list);
Data show_page(const Site& site, const l10n::Localizer& localizer, const model::ShowPage& page);
Data episode_page(const Site& site, const l10n::Localizer& localizer,
                  const model::EpisodePage& page);
Data search_page(const Site& site, const l10n::Localizer& localizer, const model::SearchPage& page);
Data submit_page(const Site& site, const l10n::Localizer& localizer, const model::SubmitPage& page);
// A page that answers any address in place of the one asked for: the 404 page and the 503
// page, told apart by the catalog keys of their title and text (`notice` "not_found" or
// "unavailable"). Its links are absolute paths, as it is served at any address.
Data notice_page(const Site& site, const l10n::Localizer& localizer, std::string_view notice);
// The locale's catalog strings the templates use, {{t.key}}: the same on every page, so a
// renderer makes them once per locale and renders each page in a context that holds them.
Data interface_strings(const l10n::Localizer& localizer);
// The frame every locale page shares: lang, dir, title, alternates, language links, Open Graph
// properties, the search form.
Data page_frame(const Site& site, const l10n::Localizer& localizer, std::string_view path,
                std::string_view page_title);
// Links to the same page in every locale, relative to the page, or from `absolute_root` (a
// path ending in '/') when given; `suffix` (a query) ends each.
Data language_links(const Site& site, const l10n::Localizer& current, std::string_view path,
                    std::string_view absolute_root = {}, std::string_view suffix = {});
// A category's name for display: the catalog's name for Apple's top-level categories (in the
// locale's language), else the feed's spelling in the feed's language. Sets name, name_lang.
void set_category_name(Data& data, const l10n::Localizer& localizer,
                       const model::CategoryEntry& category);
// Sets has_<name>, <name>_before/_after (the catalog message around the phrase),
// <name>_datetime, <name>_phrase and <name>_date for a relative time inside <time>, and lowers
// site.expires_at to when the phrase changes.
void set_time(Data& data, const Site& site, const l10n::Localizer& localizer,
              const std::string& name, std::string_view key, std::optional<std::int64_t> t);
// The page navigation of a paginated list: previous, first, a window around the current page,
// last, next (has_pagination, pagination, previous_href, next_href); path_of(n) is page n's path,
// and href_suffix (a query, "?q=…") ends every link.
void set_pagination(Data& data, const l10n::Localizer& localizer, std::int64_t pages,
                    std::int64_t page, const std::function<std::string(std::int64_t)>& path_of,
                    std::string_view href_suffix = {});

// Meta descriptions are plain text cut to this many characters.
constexpr std::size_t k_meta_description_chars = 200;
// Set the page's meta description from a feed's sanitized HTML description.
void set_meta_description(Data& data, std::string_view html);

// schema.org JSON-LD for a show page (PodcastSeries) and an episode page (PodcastEpisode),
// escaped for a <script type="application/ld+json"> element: no "<" or "&" appears raw.
std::string show_json_ld(const Site& site, const l10n::Localizer& localizer,
                         const model::ShowPage& page);
std::string episode_json_ld(const Site& site, const l10n::Localizer& localizer,
                            const model::EpisodePage& page);
// The OPML 2.0 document for one show (its feed as an rss outline); empty when the show's feed
// URL is not http(s).
std::string show_opml(const model::StoredShow& show);
// One show's rss outline of an OPML body, a line of its own; empty when its feed URL is not
// http(s).
std::string opml_outline(const model::StoredShow& show);
// An OPML 2.0 document of this title around these outlines.
std::string opml_document(std::string_view title, std::string_view outlines);

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

} // namespace podcrawl::render::internal

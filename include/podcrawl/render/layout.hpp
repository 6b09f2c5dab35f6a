#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

// The site's layout (SPEC "Site layout"): the address of every page and file of the site, built
// (path_of) and parsed (parse_path) here alone. The exported site writes its files at these
// paths, the live directory answers them, and the pages link to each other by them.

namespace podcrawl::render {

// Highest page number of a list addressed; no list is that long.
inline constexpr std::int64_t k_max_page_number = 1'000'000'000;
// Longest slug, tag or file name of one path segment.
inline constexpr std::size_t k_max_segment_bytes = 200;
// The site's stylesheet and the language chooser's script, at the site's root.
inline constexpr std::string_view k_stylesheet_file = "site.css";
inline constexpr std::string_view k_locale_script_file = "choose-locale.js";
// The APIs' OpenAPI description, kept with the templates and served at api/1.0/openapi.json.
inline constexpr std::string_view k_openapi_file = "openapi.json";

// One page or file of the site.
struct PagePath {
  enum class Kind {
    chooser,    // "": the language chooser (index.html at the root)
    stylesheet, // "site.css"
    script,     // "choose-locale.js"
    home,       // "<locale>/"
    not_found,  // "<locale>/404.html"
    category,   // "<locale>/categories/<slug>/[page/<n>/]"
    language,   // "<locale>/languages/<tag>/[page/<n>/]"
    show,       // "<locale>/podcasts/<slug>/[page/<n>/]"
    episode,    // "<locale>/podcasts/<slug>/<episode>/"
    search,     // "<locale>/search/[page/<n>/]"
    submit,     // "<locale>/add/": the form that adds a podcast
    opml,       // "opml/<slug>.opml"
    art,        // "art/<sha1>-<width>.webp" (slug is the file name)
  };
  PagePath() = default;
  explicit PagePath(Kind page_kind, std::string page_locale = {}, std::string page_slug = {},
                    std::string episode_slug = {}, std::int64_t number = 1)
      : kind(page_kind),
        locale(std::move(page_locale)),
        slug(std::move(page_slug)),
        episode(std::move(episode_slug)),
        page(number) {}

  Kind kind = Kind::chooser;
  std::string locale;    // for the pages of a locale, home to search
  std::string slug;      // category slug, language tag, show slug or art file name
  std::string episode;   // episode slug
  std::int64_t page = 1; // of a category, language, show or search: 1 has no "page/1/"

  bool operator==(const PagePath&) const = default;
};

// True when `segment` may be a slug, tag or episode slug of a page's path: lower-case ASCII
// letters, digits and '-', not first, at most k_max_segment_bytes.
bool is_page_segment(std::string_view segment);

// The path of a page below the site's root, without a leading '/': a folder's ends in '/' (its
// file is the folder's index.html, file_of), a file's is its name.
std::string path_of(const PagePath& page);

// The path of a page of a locale below the locale's folder ("" for its home), as its pages link
// to each other; path_of for a page of no locale.
std::string locale_path_of(const PagePath& page);

// The file the exported site holds a page in: path_of, with index.html for a folder.
std::string file_of(const PagePath& page);
// The file of a path as path_of or locale_path_of makes it: itself, or a folder's index.html.
std::string file_in(std::string_view path);

// The absolute URL of a page of a locale: the site's URL (absolute, no trailing '/'), the
// locale, and the page's locale_path_of.
std::string page_url(std::string_view site_url, std::string_view locale, std::string_view path);
// The page's URL for a visitor of no known language (hreflang x-default): the language chooser
// for the home page (an empty path), else the page in the site's first locale.
std::string default_url(std::string_view site_url, std::string_view first_locale,
                        std::string_view path);

// The page at a path as path_of makes it (decoded, below the site's root, no leading '/'), in
// one of `locales`; nullopt for any other path: a segment that is not lower-case ASCII letters,
// digits and '-' (not first), "page/1/", a page number with a leading zero, a folder without its
// '/', "index.html" spelled out.
std::optional<PagePath> parse_path(std::string_view path, const std::vector<std::string>& locales);

} // namespace podcrawl::render

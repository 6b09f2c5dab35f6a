#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "podcrawl/render/layout.hpp"

namespace podcrawl::serve {

// What a request path names in the live directory: the pages of the site's layout
// (render::parse_path, the same addresses `render` writes files at, `…/index.html` included),
// the APIs' endpoints, /metrics and /admin/report; a page's folder without its '/' is sent to the
// folder.
struct Route {
  enum class Kind {
    root,       // "/": the language chooser, or a redirect by Accept-Language
    stylesheet, // "/site.css"
    script,     // "/choose-locale.js"
    metrics,    // "/metrics"
    report,     // "/admin/report", the crawl health report (days and locale in the query)
    websub,     // "/websub/<token>", a WebSub subscription's callback; key is the token
    api,        // an endpoint of the APIs: "/api/1.0/…", "/search", "/lookup", "/search.json";
                // key is its path below the site
    opml,       // "/opml/<show>.opml"
    art,        // "/art/<sha1>-<width>.webp", a cover art file (slug is its name)
    home,       // "/<locale>/"
    not_found_page, // "/<locale>/404.html", answered 200 as the file would be
    category,       // "/<locale>/categories/<slug>/[page/<n>/]"
    language,       // "/<locale>/languages/<tag>/[page/<n>/]"
    show,           // "/<locale>/podcasts/<slug>/[page/<n>/]"
    episode,        // "/<locale>/podcasts/<slug>/<episode>/"
    search,         // "/<locale>/search/[page/<n>/]", the words in the query's q
    submit,         // "/<locale>/add/": the form that adds a podcast (GET and POST)
    redirect,       // a page's address without its trailing '/': 301 to `location`
    not_found,      // anything else
  };
  Kind kind = Kind::not_found;
  // The page of the layout it names (locale, slug, episode, page number); for the root, /metrics,
  // /admin/report, a redirect and anything else, its defaults.
  render::PagePath path;
  std::string words;    // search: the query's q, as typed (see with_search_words)
  std::string key;      // the page's canonical path below the site, e.g. "en/podcasts/x/": the
                        // cache key and the file `render` writes (with index.html)
  std::string location; // for redirect: the path to send the client to, percent-encoded
};

// Longest request path read; a longer one names nothing.
inline constexpr std::size_t k_max_path_bytes = 2048;

// Route a request path as the client sent it (percent-encoded, without the query). Every
// segment must decode to a page segment (lower-case ASCII letters, digits, '-'), so "..",
// encoded or not, and any other byte name nothing. Page 1 of a list has no "page/1/" address.
// `site_path` is the site URL's path ("" or "/dir"): requests outside it name nothing.
Route route(std::string_view path, const std::vector<std::string>& locales,
            std::string_view site_path = {});

// The route of a request: route() of its path, and for a search page the words of its query's q,
// which the cache key then carries too ("en/search/?q=<words>").
Route request_route(std::string_view path, std::string_view query,
                    const std::vector<std::string>& locales, std::string_view site_path = {});

// The value of field `name` of a query string as an HTML form sends it
// (application/x-www-form-urlencoded: '+' is a space, %XX a byte; a malformed escape stays as it
// is): the first such field, "" when there is none. The bytes may be any, invalid UTF-8 too.
std::string query_value(std::string_view query, std::string_view name);
// A field's name or value as an HTML form encodes it, decoded as query_value decodes it.
std::string form_decoded(std::string_view encoded);

// A short name of the route kind for metrics and logs: "show", "episode", …
const char* to_string(Route::Kind kind);

} // namespace podcrawl::serve

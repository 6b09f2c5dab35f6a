#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "podcrawl/http/cache.hpp"
#include "podcrawl/http/server.hpp"

// The answers of the directory's web server, whatever holds the pages (the live directory's
// database or a rendered site's files): one set of headers, validators and codings for both.
namespace podcrawl::serve {

using Page = std::shared_ptr<const http::CachedPage>;

// The types of the site's files, as both servers send them.
inline constexpr const char* k_html = "text/html; charset=utf-8";
inline constexpr const char* k_css = "text/css; charset=utf-8";
inline constexpr const char* k_javascript = "text/javascript; charset=utf-8";
inline constexpr const char* k_opml = "text/x-opml; charset=utf-8";
inline constexpr const char* k_webp = "image/webp";
inline constexpr const char* k_xml = "application/xml; charset=utf-8";
// The Cache-Control of a file whose URL names its bytes for good (cover art).
inline constexpr std::string_view k_immutable_cache_control = "public, max-age=31536000, immutable";
// A time no page expires at.
inline constexpr std::int64_t k_never = INT64_MAX;

// A page whose compressed codings are made when a request first asks for each (http::page_of),
// with a strong ETag of its bytes.
std::shared_ptr<http::CachedPage> make_page(std::string body, const char* content_type,
                                            std::int64_t last_modified, std::int64_t expires_at,
                                            std::vector<std::string> tags, int status = 200);

// A page kept for the server's whole run, outside any cache: every coding made at once.
Page make_lasting_page(std::string body, const char* content_type);

// The page of a file of at most max_bytes, its Last-Modified the file's modification time; null
// when the path names no regular file (a symbolic link is none), or a larger one, or it cannot
// be read.
std::shared_ptr<http::CachedPage> file_page(const std::filesystem::path& file,
                                            const char* content_type, std::uintmax_t max_bytes);

// The coding a request asks for in Accept-Encoding.
http::ContentCoding wanted_coding(const http::Request& request);

// The headers every answer carries: the pages hold their own Content-Security-Policy, these
// forbid framing and sniffing.
void add_security_headers(http::Response& response);

// A short plain-text answer, not to be stored.
http::Response plain_answer(int status, std::string text);

// A page answered with its validators (304 when the request's match), in the coding the request
// asks for when the page holds it. Cache-Control: no-cache for a status other than 200,
// immutable or max-age=0 as the page says, else the time until it expires, at most
// max_age_seconds.
http::Response page_answer(const http::Request& request, const http::CachedPage& page,
                           std::int64_t at, int status, std::int64_t max_age_seconds);

// A page answered in place of the one asked for (the 404 or 503 page of `pages`, by locale), in
// the locale the path below site_path names, else the visitor's language, else the first of
// `locales`; varies by Accept-Language.
http::Response notice_answer(const http::Request& request, const std::map<std::string, Page>& pages,
                             const std::vector<std::string>& locales, std::string_view site_path,
                             std::int64_t at, int status, std::int64_t max_age_seconds);

// The answer at the site's root: a 302 to the locale Accept-Language asks for, else the language
// chooser (`chooser`); varies by Accept-Language.
http::Response root_answer(const http::Request& request, const http::CachedPage& chooser,
                           const std::vector<std::string>& locales, std::string_view site_path,
                           std::int64_t at, std::int64_t max_age_seconds);

// A permanent redirect to location, the request's query kept.
http::Response moved_answer(const http::Request& request, const std::string& location);

} // namespace podcrawl::serve

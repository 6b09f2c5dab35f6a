#include "podcrawl/serve/files.hpp"

#include <algorithm>
#include <ctime>
#include <fstream>

#include <sys/stat.h>

#include "podcrawl/core/ascii.hpp"
#include "podcrawl/core/error.hpp"
#include "podcrawl/render/layout.hpp"
#include "podcrawl/serve/route.hpp"

namespace podcrawl::serve {
namespace {

namespace fs = std::filesystem;
using Kind = Route::Kind;

// How much of the language chooser is read to find its language.
constexpr std::size_t k_chooser_head_bytes = 512;
// Largest file answered; a page of the layout is far smaller.
constexpr std::uintmax_t k_max_file_bytes = 16 * 1024 * 1024;

// The locales a rendered site holds: its folders with an index.html, the locale of the language
// chooser (the first of the render) first, then by tag.
std::vector<std::string> site_locales(const fs::path& dir) {
  std::vector<std::string> locales;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.is_directory() && fs::exists(entry.path() / "index.html")) {
      locales.push_back(entry.path().filename().string());
    }
  }
  std::sort(locales.begin(), locales.end());
  std::ifstream chooser(dir / "index.html", std::ios::binary);
  std::string head(k_chooser_head_bytes, '\0');
  chooser.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(chooser.gcount()));
  const std::string marker = "<html lang=\"";
  if (const auto at = head.find(marker); at != std::string::npos) {
    const auto start = at + marker.size();
    const std::string first = head.substr(start, head.find('"', start) - start);
    std::stable_partition(locales.begin(), locales.end(),
                          [&](const std::string& tag) { return tag == first; });
  }
  return locales;
}

// "sitemap.xml" or "sitemap-<n>.xml", the sitemap files at the site's root.
bool is_sitemap(std::string_view name) {
  if (name == "sitemap.xml") {
    return true;
  }
  if (!name.starts_with("sitemap-") || !name.ends_with(".xml")) {
    return false;
  }
  const std::string_view number = name.substr(8, name.size() - 12);
  return !number.empty() && number.size() <= 9 &&
         std::all_of(number.begin(), number.end(), [](char c) { return core::is_ascii_digit(c); });
}

// The file below the site a route names, and its type; an empty file when none.
struct RoutedFile {
  std::string relative;
  const char* content_type = k_html;
  bool immutable = false;
};

RoutedFile file_of(const Route& route) {
  switch (route.kind) {
    case Kind::root:
    case Kind::home:
    case Kind::not_found_page:
    case Kind::category:
    case Kind::language:
    case Kind::show:
    case Kind::episode:
      return {render::file_in(route.key)};
    case Kind::stylesheet:
      return {route.key, k_css};
    case Kind::script:
      return {route.key, k_javascript};
    case Kind::opml:
      return {route.key, k_opml};
    case Kind::art:
      return {route.key, k_webp, true};
    case Kind::not_found:
      if (is_sitemap(route.key)) {
        return {route.key, k_xml};
      }
      return {};
    default: // the live directory's own: search, metrics, the report
      return {};
  }
}

// What tells a file's versions apart: its size, modification time and inode (a render's update
// renames a new file over the old).
std::string file_stamp(const fs::path& file) {
  struct stat status {};
  if (::lstat(file.c_str(), &status) != 0 || !S_ISREG(status.st_mode)) {
    return {};
  }
  return std::to_string(status.st_size) + ":" + std::to_string(status.st_mtim.tv_sec) + "." +
         std::to_string(status.st_mtim.tv_nsec) + ":" + std::to_string(status.st_ino);
}

} // namespace

SiteFolder::SiteFolder(fs::path dir, const core::ServeConfig& config)
    : m_dir(std::move(dir)),
      m_max_age_seconds(config.max_age_seconds),
      m_cache(static_cast<std::size_t>(config.cache_bytes)) {
  std::error_code error;
  if (!fs::is_regular_file(m_dir / "index.html", error)) {
    throw core::UsageError(m_dir.string() + " holds no rendered site (run podcrawl render --out " +
                           m_dir.string() + ")");
  }
  m_locales = site_locales(m_dir);
  for (const auto& locale : m_locales) {
    if (auto page = file_page(m_dir / locale / "404.html", k_html, k_max_file_bytes)) {
      m_not_found.emplace(locale, make_lasting_page(std::string(*page->identity), k_html));
    }
  }
  if (m_not_found.size() != m_locales.size()) {
    throw core::UsageError(m_dir.string() + " is not a whole rendered site: a locale has no " +
                           "404.html (render it again)");
  }
}

Page SiteFolder::file(const std::string& relative, const char* content_type, bool immutable,
                      http::ContentCoding coding, std::int64_t at) {
  const fs::path path = m_dir / relative;
  const std::string stamp = file_stamp(path);
  if (stamp.empty()) {
    return nullptr;
  }
  const std::string key = relative + "\n" + stamp;
  Page page = m_cache.find(key, at);
  if (!page) {
    auto read = file_page(path, content_type, k_max_file_bytes);
    if (!read) {
      return nullptr;
    }
    read->immutable = immutable;
    read->revalidate = !immutable;
    if (immutable) { // WebP is compressed already
      read->gzip_pending = false;
      read->brotli_pending = false;
    }
    page = std::move(read);
    m_cache.insert(key, page);
  }
  if (http::coding_pending(*page, coding)) {
    Page coded = http::with_coding(*page, coding);
    m_cache.replace(key, page.get(), coded);
    page = std::move(coded);
  }
  return page;
}

http::Response SiteFolder::not_found(const http::Request& request, std::int64_t at) const {
  return notice_answer(request, m_not_found, m_locales, "", at, 404, m_max_age_seconds);
}

http::Response SiteFolder::answer(const http::Request& request) {
  const std::int64_t at = static_cast<std::int64_t>(std::time(nullptr));
  const Route route = serve::route(request.path, m_locales);
  if (route.kind == Kind::redirect) {
    return moved_answer(request, route.location);
  }
  const RoutedFile routed = file_of(route);
  if (routed.relative.empty()) {
    return not_found(request, at);
  }
  const Page page =
      file(routed.relative, routed.content_type, routed.immutable, wanted_coding(request), at);
  if (!page) {
    return not_found(request, at);
  }
  if (route.kind == Kind::root) {
    return root_answer(request, *page, m_locales, "", at, m_max_age_seconds);
  }
  return page_answer(request, *page, at, 200, m_max_age_seconds);
}

} // namespace podcrawl::serve

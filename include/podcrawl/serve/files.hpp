#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "podcrawl/core/config.hpp"
#include "podcrawl/http/cache.hpp"
#include "podcrawl/http/server.hpp"
#include "podcrawl/serve/answer.hpp"

namespace podcrawl::serve {

// A rendered site (`podcrawl render --out DIR`) served as its files, with the live directory's
// answers (serve/answer.hpp): its routes (serve::route, the site's layout), security headers,
// validators, gzip and brotli, root redirect and 404 pages. Only the files of the layout and the
// sitemaps are answered, so nothing else in the folder (or beside it, as the render's state) can
// be reached. A page's file is read again when it changes on disk: a render's update shows at
// once. Pages are answered with max-age=0 (their file does not say when a relative date on them
// turns) and their validators; cover art, named by its bytes, for good.
class SiteFolder {
public:
  // Read the site's locales (its folders holding a home page; the language chooser's locale
  // first, then by tag) and each locale's 404 page. Throws core::UsageError when dir holds no
  // rendered site.
  SiteFolder(std::filesystem::path dir, const core::ServeConfig& config);

  // The answer to a request; safe from several threads at once.
  http::Response answer(const http::Request& request);

  const std::vector<std::string>& locales() const { return m_locales; }

private:
  // The page of the file at `relative` below the site with `coding` made, from memory while the
  // file is as it was read; null when there is no such file.
  Page file(const std::string& relative, const char* content_type, bool immutable,
            http::ContentCoding coding, std::int64_t at);
  http::Response not_found(const http::Request& request, std::int64_t at) const;

  std::filesystem::path m_dir;
  std::int64_t m_max_age_seconds;
  std::vector<std::string> m_locales;
  std::map<std::string, Page> m_not_found; // by locale, as read at the start
  http::PageCache m_cache;
};

} // namespace podcrawl::serve

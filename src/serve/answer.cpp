#include "podcrawl/serve/answer.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "podcrawl/core/files.hpp"
#include "podcrawl/http/conditional.hpp"
#include "podcrawl/http/encoding.hpp"
#include "podcrawl/serve/negotiate.hpp"

namespace podcrawl::serve {
namespace {

// The entity tag of one coding of a page: distinct for each, as RFC 9110 asks of strong tags.
std::string coded_etag(const std::string& etag, http::ContentCoding coding) {
  if (coding == http::ContentCoding::identity || etag.size() < 2) {
    return etag;
  }
  return etag.substr(0, etag.size() - 1) + "-" + http::to_string(coding) + "\"";
}

} // namespace

std::shared_ptr<http::CachedPage> make_page(std::string body, const char* content_type,
                                            std::int64_t last_modified, std::int64_t expires_at,
                                            std::vector<std::string> tags, int status) {
  auto page = http::page_of(std::move(body));
  page->status = status;
  page->etag = http::strong_etag(*page->identity);
  page->last_modified = last_modified;
  page->expires_at = expires_at;
  page->content_type = content_type;
  page->tags = std::move(tags);
  return page;
}

Page make_lasting_page(std::string body, const char* content_type) {
  Page page = make_page(std::move(body), content_type, 0, k_never, {});
  for (const auto coding : {http::ContentCoding::gzip, http::ContentCoding::brotli}) {
    page = http::with_coding(*page, coding);
  }
  return page;
}

std::shared_ptr<http::CachedPage> file_page(const std::filesystem::path& file,
                                            const char* content_type, std::uintmax_t max_bytes) {
  const core::FileDescriptor fd(::open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
  struct stat status {};
  if (fd.get() < 0 || ::fstat(fd.get(), &status) != 0 || !S_ISREG(status.st_mode) ||
      static_cast<std::uintmax_t>(status.st_size) > max_bytes) {
    return nullptr;
  }
  std::string bytes(static_cast<std::size_t>(status.st_size), '\0');
  std::size_t read = 0;
  while (read < bytes.size()) {
    const ssize_t n = ::read(fd.get(), bytes.data() + read, bytes.size() - read);
    if (n <= 0) {
      return nullptr; // an error, or the file was cut short while read
    }
    read += static_cast<std::size_t>(n);
  }
  return make_page(std::move(bytes), content_type, static_cast<std::int64_t>(status.st_mtime),
                   k_never, {});
}

http::ContentCoding wanted_coding(const http::Request& request) {
  return http::choose_coding(request.header("Accept-Encoding"));
}

void add_security_headers(http::Response& response) {
  response.headers.emplace_back("Content-Security-Policy", "frame-ancestors 'none'");
  response.headers.emplace_back("X-Content-Type-Options", "nosniff");
}

http::Response plain_answer(int status, std::string text) {
  http::Response response;
  response.status = status;
  response.headers.emplace_back("Content-Type", "text/plain; charset=utf-8");
  response.headers.emplace_back("Cache-Control", "no-store");
  response.body = std::make_shared<const std::string>(std::move(text));
  add_security_headers(response);
  return response;
}

http::Response page_answer(const http::Request& request, const http::CachedPage& page,
                           std::int64_t at, int status, std::int64_t max_age_seconds) {
  http::ContentCoding coding = wanted_coding(request);
  std::shared_ptr<const std::string> body = http::body_in(page, coding);
  if (!body) { // not worth sending compressed, or not made
    coding = http::ContentCoding::identity;
    body = page.identity;
  }
  http::Response response;
  response.status = status;
  const std::string etag = coded_etag(page.etag, coding);
  response.headers.emplace_back("ETag", etag);
  if (page.last_modified > 0) {
    response.headers.emplace_back("Last-Modified", http::http_date(page.last_modified));
  }
  const std::int64_t max_age = std::clamp<std::int64_t>(page.expires_at - at, 0, max_age_seconds);
  response.headers.emplace_back("Cache-Control",
                                status != 200     ? std::string("no-cache")
                                : page.immutable  ? std::string(k_immutable_cache_control)
                                : page.revalidate ? std::string("max-age=0")
                                                  : "max-age=" + std::to_string(max_age));
  response.headers.emplace_back("Vary", "Accept-Encoding");
  add_security_headers(response);
  if (status == 200 && http::not_modified(request, etag, page.last_modified)) {
    response.status = 304;
    return response;
  }
  response.headers.emplace_back("Content-Type", page.content_type);
  if (coding != http::ContentCoding::identity) {
    response.headers.emplace_back("Content-Encoding", http::to_string(coding));
  }
  response.body = std::move(body);
  return response;
}

http::Response notice_answer(const http::Request& request, const std::map<std::string, Page>& pages,
                             const std::vector<std::string>& locales, std::string_view site_path,
                             std::int64_t at, int status, std::int64_t max_age_seconds) {
  const std::string locale =
      not_found_locale(request.path.substr(std::min(site_path.size(), request.path.size())),
                       request.header("Accept-Language"), locales);
  http::Response response = page_answer(request, *pages.at(locale), at, status, max_age_seconds);
  response.headers.emplace_back("Vary", "Accept-Language");
  return response;
}

http::Response root_answer(const http::Request& request, const http::CachedPage& chooser,
                           const std::vector<std::string>& locales, std::string_view site_path,
                           std::int64_t at, std::int64_t max_age_seconds) {
  const std::string accept_language = request.header("Accept-Language");
  const std::string locale =
      accept_language.empty() ? std::string() : negotiate_locale(accept_language, locales);
  if (locale.empty()) {
    http::Response response = page_answer(request, chooser, at, 200, max_age_seconds);
    response.headers.emplace_back("Vary", "Accept-Language");
    return response;
  }
  http::Response response;
  response.status = 302;
  response.headers.emplace_back("Location", std::string(site_path) + "/" + locale + "/");
  response.headers.emplace_back("Vary", "Accept-Language");
  response.headers.emplace_back("Cache-Control", "no-cache");
  add_security_headers(response);
  return response;
}

http::Response moved_answer(const http::Request& request, const std::string& location) {
  http::Response response;
  response.status = 301;
  response.headers.emplace_back("Location",
                                request.query.empty() ? location : location + "?" + request.query);
  add_security_headers(response);
  return response;
}

} // namespace podcrawl::serve

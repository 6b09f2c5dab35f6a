#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "podcrawl/http/cache.hpp"

namespace podcrawl::serve {

// The tag of every list page (home, categories, languages, search): any change of a show may
// change them.
inline constexpr std::string_view k_lists_tag = "lists";
// The tag of a show's pages (its list pages, its episodes, its OPML file).
std::string show_tag(std::string_view slug);

// The live directory's page cache, kept true to the store's announcements of changed shows.
//
// A page is loaded from a snapshot of the database and cached after: an announcement that comes
// in between makes it stale before it is cached. So each announcement starts a new generation,
// and a page is cached only if no generation began since its load did (cache_if_current),
// checked under the mutex the announcements take.
//
// While announcements cannot be heard (the listening connection broke), the cache must not
// answer pages: they are loaded for each request, and what memory holds (what was cached before,
// and what is loaded since) is kept only to answer stale while the database is unreachable
// (stale-if-error, RFC 5861). Hearing announcements again empties the cache.
class FreshCache {
public:
  explicit FreshCache(std::size_t max_bytes) : m_pages(max_bytes) {}
  FreshCache(const FreshCache&) = delete;
  FreshCache& operator=(const FreshCache&) = delete;

  // The pages, for lookups, codings and figures. Insert through cache_if_current.
  http::PageCache& pages() { return m_pages; }
  const http::PageCache& pages() const { return m_pages; }

  // The generation a load starts from, to hand to cache_if_current with its page.
  std::uint64_t generation() const;
  // Cache the page under key when no announcement (and no change of listening) came since the
  // load that made it started at `started`; else drop it.
  void cache_if_current(const std::string& key, std::shared_ptr<const http::CachedPage> page,
                        std::uint64_t started);

  // The store announced changes to these shows: their pages and every list page are dropped.
  void invalidate(const std::vector<std::string>& slugs);

  // Whether announcements are heard: only then may the cache answer pages.
  bool listening() const;
  // Announcements are heard from now on (the cache is emptied: what it holds may have missed
  // some), or no longer.
  void set_listening(bool on);
  // Wait at most `timeout` for announcements to be heard; whether they are.
  bool wait_until_listening(std::chrono::steady_clock::duration timeout);

private:
  mutable std::mutex m_mutex;
  std::condition_variable m_listening_changed;
  std::uint64_t m_generation = 0;
  bool m_listening = false;
  http::PageCache m_pages;
};

} // namespace podcrawl::serve

#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "podcrawl/http/cache.hpp"
#include "podcrawl/model/api.hpp"

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
//
// Beside the pages it holds feeds as the APIs read them (store::DirectoryApi), by show id, for
// the shows a search finds: popular shows are found by many searches. They are kept true the same
// way (dropped when their show is announced, cached only by a load no announcement overtook, none
// answered while announcements are not heard), and each for at most k_feed_lifetime besides: a
// fetch that changes nothing in its show (the feed's crawl time and status) is not announced.
class FreshCache {
public:
  // How long a feed is answered from memory after its load.
  static constexpr std::chrono::seconds k_feed_lifetime{60};

  // Pages of at most max_bytes, and feeds of about a quarter as many bytes again.
  explicit FreshCache(std::size_t max_bytes)
      : m_pages(max_bytes), m_feed_max_bytes(max_bytes / 4) {}
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

  // The feeds of these show ids that memory holds, each in the place of its id: none while
  // announcements are not heard, none loaded k_feed_lifetime or more before `now`.
  std::vector<std::optional<model::DirectoryFeed>> find_feeds(
      const std::vector<std::int64_t>& ids, std::chrono::steady_clock::time_point now);
  // Keep these feeds, loaded at `now` by a load that began at generation `started`, when no
  // announcement came since (as cache_if_current); the least recently found go first when they
  // take more than the feeds' bytes.
  void cache_feeds_if_current(const std::vector<model::DirectoryFeed>& feeds, std::uint64_t started,
                              std::chrono::steady_clock::time_point now);

  struct FeedFigures {
    std::uint64_t hits = 0;
    std::uint64_t misses = 0;
    std::size_t entries = 0;
    std::size_t bytes = 0; // an estimate: the feeds' text and their fixed size
  };
  FeedFigures feed_figures() const;

private:
  mutable std::mutex m_mutex;
  std::condition_variable m_listening_changed;
  std::uint64_t m_generation = 0;
  bool m_listening = false;
  http::PageCache m_pages;

  struct CachedFeed {
    model::DirectoryFeed feed;
    std::chrono::steady_clock::time_point loaded;
    std::size_t bytes = 0;
  };
  void erase_feed(std::int64_t id);
  void clear_feeds();
  std::size_t m_feed_max_bytes;
  std::list<CachedFeed> m_feed_order; // the most recently found first
  std::unordered_map<std::int64_t, std::list<CachedFeed>::iterator> m_feeds;
  std::unordered_map<std::string, std::int64_t> m_feed_ids_by_slug;
  FeedFigures m_feed_figures;
};

} // namespace podcrawl::serve

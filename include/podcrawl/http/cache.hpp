#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "podcrawl/http/encoding.hpp"

namespace podcrawl::http {

// One rendered answer and the compressed codings made of it so far. Immutable once cached: the
// cache and any number of responses in flight share it, and a coding made later goes into a copy
// (with_coding) that replaces it in the cache.
struct CachedPage {
  int status = 200;
  std::shared_ptr<const std::string> identity;
  std::shared_ptr<const std::string> gzip;   // null when not made yet or not worth sending
  std::shared_ptr<const std::string> brotli; // null when not made yet or not worth sending
  bool gzip_pending = false;                 // gzip is still to be made, on a first request
  bool brotli_pending = false;               // brotli is still to be made, on a first request
  std::string etag;                          // quotes included
  std::int64_t last_modified = -1;           // Unix seconds; negative when unknown
  std::int64_t expires_at = 0;               // Unix seconds: a miss from then on
  std::string content_type;
  std::vector<std::string> tags; // what it was made from, for invalidate_tag ("show:42")
  bool immutable = false;        // content-addressed: the same URL never names other bytes
  bool revalidate = false; // sent with max-age=0 however long it is cached here (search pages)
};

// The bytes a page counts for against the cache's limit: its bodies, strings and tags.
std::size_t cached_size(const std::string& key, const CachedPage& page);

// A page whose identity body is body, its compressed codings pending when body is long enough
// for compressing to be worth its header (each is made by with_coding when first asked for).
std::shared_ptr<CachedPage> page_of(std::string body);

// The body to send in coding: identity always; gzip or brotli when made and smaller than the
// identity body, else null.
std::shared_ptr<const std::string> body_in(const CachedPage& page, ContentCoding coding);

// Whether coding is still to be made for page.
bool coding_pending(const CachedPage& page, ContentCoding coding);

// A copy of page with coding made (kept only if smaller than the identity body), sharing the
// bodies page has. Throws std::bad_alloc when the compressor cannot allocate.
std::shared_ptr<const CachedPage> with_coding(const CachedPage& page, ContentCoding coding);

// A thread-safe in-memory cache of rendered answers under a byte limit, least recently used
// first out. One mutex; every operation but invalidate_tag and clear is O(1) on average plus
// the size of the key, and invalidate_tag is linear in the entries carrying the tag.
class PageCache {
public:
  // A cache holding at most max_bytes (cached_size of each entry, summed).
  explicit PageCache(std::size_t max_bytes);

  PageCache(const PageCache&) = delete;
  PageCache& operator=(const PageCache&) = delete;

  // Return the page cached under key and make it the most recently used, or null (a miss)
  // when there is none or it has expired (now >= expires_at), in which case it is dropped.
  // Counted in hits() or misses() unless `counted` is false: a request looked up again.
  std::shared_ptr<const CachedPage> find(const std::string& key, std::int64_t now,
                                         bool counted = true);

  // The page cached under key however long ago it expired, or null; neither counted nor made
  // the most recently used. For answering stale when the page cannot be made again.
  std::shared_ptr<const CachedPage> find_stale(const std::string& key) const;

  // Cache page under key, replacing any page there, and evict the least recently used pages
  // until the cache is within its limit again. A null page or one whose cached_size alone
  // exceeds the limit is not cached (and the one under key, if any, is dropped).
  void insert(std::string key, std::shared_ptr<const CachedPage> page);

  // Put page in place of expected under key, keeping its place in the order, when expected is
  // still what the cache holds there; otherwise (evicted, invalidated, replaced) do nothing, so
  // a page dropped meanwhile is never brought back. Page must carry expected's tags.
  void replace(const std::string& key, const CachedPage* expected,
               std::shared_ptr<const CachedPage> page);

  // Drop every page carrying tag.
  void invalidate_tag(std::string_view tag);

  // Drop every page. The hit and miss counters go on.
  void clear();

  std::size_t bytes() const;   // the cached_size of the pages cached now, summed
  std::size_t entries() const; // the number of pages cached now
  std::uint64_t hits() const { return m_hits.load(std::memory_order_relaxed); }
  std::uint64_t misses() const { return m_misses.load(std::memory_order_relaxed); }

private:
  struct Entry {
    std::string key;
    std::shared_ptr<const CachedPage> page;
    std::size_t size = 0;
  };
  using Order = std::list<Entry>; // most recently used first

  void erase(Order::iterator entry); // m_mutex held
  void evict_to(std::size_t limit);  // m_mutex held

  const std::size_t m_max_bytes;
  mutable std::mutex m_mutex;
  Order m_order;
  std::unordered_map<std::string_view, Order::iterator> m_by_key; // views of Entry::key
  std::unordered_map<std::string, std::unordered_set<std::string_view>> m_by_tag;
  std::size_t m_bytes = 0;
  std::atomic<std::uint64_t> m_hits{0};
  std::atomic<std::uint64_t> m_misses{0};
};

} // namespace podcrawl::http

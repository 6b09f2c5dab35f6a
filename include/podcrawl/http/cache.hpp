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

namespace podcrawl::http {

// One rendered answer, ready to send in each coding. Immutable once cached: the cache and any
// number of responses in flight share it.
struct CachedPage {
  int status = 200;
  std::shared_ptr<const std::string> identity;
  std::shared_ptr<const std::string> gzip;   // null when not worth sending
  std::shared_ptr<const std::string> brotli; // null when not worth sending
  std::string etag;                          // quotes included
  std::int64_t last_modified = -1;           // Unix seconds; negative when unknown
  std::int64_t expires_at = 0;               // Unix seconds: a miss from then on
  std::string content_type;
  std::vector<std::string> tags; // what it was made from, for invalidate_tag ("show:42")
};

// The bytes a page counts for against the cache's limit: its bodies, strings and tags.
std::size_t cached_size(const std::string& key, const CachedPage& page);

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
  std::shared_ptr<const CachedPage> find(const std::string& key, std::int64_t now);

  // Cache page under key, replacing any page there, and evict the least recently used pages
  // until the cache is within its limit again. A null page or one whose cached_size alone
  // exceeds the limit is not cached (and the one under key, if any, is dropped).
  void insert(std::string key, std::shared_ptr<const CachedPage> page);

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

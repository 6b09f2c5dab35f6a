#include "podcrawl/http/cache.hpp"

#include <utility>

namespace podcrawl::http {

namespace {

// Bodies shorter than this are sent as they are: compressing them saves less than the header.
constexpr std::size_t k_min_compressed_bytes = 256;

// The list node, the two hash-map nodes and the shared_ptr control blocks of an entry.
constexpr std::size_t k_entry_overhead = 256;

std::size_t body_size(const std::shared_ptr<const std::string>& body) {
  return body ? body->size() : 0;
}

} // namespace

std::size_t cached_size(const std::string& key, const CachedPage& page) {
  std::size_t size = k_entry_overhead + key.size() + body_size(page.identity) +
                     body_size(page.gzip) + body_size(page.brotli) + page.etag.size() +
                     page.content_type.size();
  for (const auto& tag : page.tags) {
    size += tag.size() + key.size();
  }
  return size;
}

std::shared_ptr<CachedPage> page_of(std::string body) {
  auto page = std::make_shared<CachedPage>();
  page->gzip_pending = page->brotli_pending = body.size() >= k_min_compressed_bytes;
  page->identity = std::make_shared<const std::string>(std::move(body));
  return page;
}

std::shared_ptr<const std::string> body_in(const CachedPage& page, ContentCoding coding) {
  switch (coding) {
    case ContentCoding::gzip:
      return page.gzip;
    case ContentCoding::brotli:
      return page.brotli;
    case ContentCoding::identity:
      break;
  }
  return page.identity;
}

bool coding_pending(const CachedPage& page, ContentCoding coding) {
  switch (coding) {
    case ContentCoding::gzip:
      return page.gzip_pending;
    case ContentCoding::brotli:
      return page.brotli_pending;
    case ContentCoding::identity:
      break;
  }
  return false;
}

std::shared_ptr<const CachedPage> with_coding(const CachedPage& page, ContentCoding coding) {
  auto coded = std::make_shared<CachedPage>(page);
  if (!coding_pending(page, coding)) {
    return coded;
  }
  const std::string& body = *page.identity;
  std::string made = coding == ContentCoding::gzip ? gzip(body) : brotli(body);
  auto kept =
      made.size() < body.size() ? std::make_shared<const std::string>(std::move(made)) : nullptr;
  if (coding == ContentCoding::gzip) {
    coded->gzip = std::move(kept);
    coded->gzip_pending = false;
  } else {
    coded->brotli = std::move(kept);
    coded->brotli_pending = false;
  }
  return coded;
}

PageCache::PageCache(std::size_t max_bytes) : m_max_bytes(max_bytes) {}

std::shared_ptr<const CachedPage> PageCache::find(const std::string& key, std::int64_t now,
                                                  bool counted) {
  std::lock_guard lock(m_mutex);
  const auto count = [counted](std::atomic<std::uint64_t>& counter) {
    if (counted) {
      counter.fetch_add(1, std::memory_order_relaxed);
    }
  };
  const auto found = m_by_key.find(key);
  if (found == m_by_key.end()) {
    count(m_misses);
    return nullptr;
  }
  const Order::iterator entry = found->second;
  if (now >= entry->page->expires_at) {
    erase(entry);
    count(m_misses);
    return nullptr;
  }
  m_order.splice(m_order.begin(), m_order, entry);
  count(m_hits);
  return entry->page;
}

std::shared_ptr<const CachedPage> PageCache::find_stale(const std::string& key) const {
  std::lock_guard lock(m_mutex);
  const auto found = m_by_key.find(key);
  return found == m_by_key.end() ? nullptr : found->second->page;
}

void PageCache::insert(std::string key, std::shared_ptr<const CachedPage> page) {
  const std::size_t size = page ? cached_size(key, *page) : 0;
  std::lock_guard lock(m_mutex);
  if (const auto found = m_by_key.find(key); found != m_by_key.end()) {
    erase(found->second);
  }
  if (!page || size > m_max_bytes) {
    return;
  }
  evict_to(m_max_bytes - size);
  m_order.push_front(Entry{std::move(key), std::move(page), size});
  const Order::iterator entry = m_order.begin();
  m_by_key.emplace(entry->key, entry);
  for (const auto& tag : entry->page->tags) {
    m_by_tag[tag].insert(entry->key);
  }
  m_bytes += size;
}

void PageCache::replace(const std::string& key, const CachedPage* expected,
                        std::shared_ptr<const CachedPage> page) {
  const std::size_t size = cached_size(key, *page);
  std::lock_guard lock(m_mutex);
  const auto found = m_by_key.find(key);
  if (found == m_by_key.end() || found->second->page.get() != expected) {
    return;
  }
  const Order::iterator entry = found->second;
  m_bytes = m_bytes - entry->size + size;
  entry->size = size;
  entry->page = std::move(page);
  evict_to(m_max_bytes);
}

void PageCache::invalidate_tag(std::string_view tag) {
  std::lock_guard lock(m_mutex);
  const auto found = m_by_tag.find(std::string(tag));
  if (found == m_by_tag.end()) {
    return;
  }
  // erase() edits the set being walked: walk a copy of the keys.
  const std::vector<std::string_view> keys(found->second.begin(), found->second.end());
  for (const std::string_view key : keys) {
    if (const auto entry = m_by_key.find(key); entry != m_by_key.end()) {
      erase(entry->second);
    }
  }
}

void PageCache::clear() {
  std::lock_guard lock(m_mutex);
  m_by_tag.clear();
  m_by_key.clear();
  m_order.clear();
  m_bytes = 0;
}

std::size_t PageCache::bytes() const {
  std::lock_guard lock(m_mutex);
  return m_bytes;
}

std::size_t PageCache::entries() const {
  std::lock_guard lock(m_mutex);
  return m_order.size();
}

void PageCache::erase(Order::iterator entry) {
  for (const auto& tag : entry->page->tags) {
    if (const auto found = m_by_tag.find(tag); found != m_by_tag.end()) {
      found->second.erase(entry->key);
      if (found->second.empty()) {
        m_by_tag.erase(found);
      }
    }
  }
  m_by_key.erase(entry->key);
  m_bytes -= entry->size;
  m_order.erase(entry);
}

void PageCache::evict_to(std::size_t limit) {
  while (m_bytes > limit && !m_order.empty()) {
    erase(std::prev(m_order.end()));
  }
}

} // namespace podcrawl::http

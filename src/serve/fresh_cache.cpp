#include "podcrawl/serve/fresh_cache.hpp"

namespace podcrawl::serve {

std::string show_tag(std::string_view slug) {
  return "show:" + std::string(slug);
}

std::uint64_t FreshCache::generation() const {
  std::lock_guard lock(m_mutex);
  return m_generation;
}

void FreshCache::cache_if_current(const std::string& key,
                                  std::shared_ptr<const http::CachedPage> page,
                                  std::uint64_t started) {
  std::lock_guard lock(m_mutex);
  if (m_generation == started) {
    m_pages.insert(key, std::move(page));
  }
}

void FreshCache::invalidate(const std::vector<std::string>& slugs) {
  std::lock_guard lock(m_mutex);
  ++m_generation;
  for (const auto& slug : slugs) {
    m_pages.invalidate_tag(show_tag(slug));
    if (const auto id = m_feed_ids_by_slug.find(slug); id != m_feed_ids_by_slug.end()) {
      erase_feed(id->second);
    }
  }
  m_pages.invalidate_tag(k_lists_tag);
}

bool FreshCache::listening() const {
  std::lock_guard lock(m_mutex);
  return m_listening;
}

void FreshCache::set_listening(bool on) {
  {
    std::lock_guard lock(m_mutex);
    ++m_generation;
    m_listening = on;
    if (on) {
      m_pages.clear();
    }
    clear_feeds();
  }
  m_listening_changed.notify_all();
}

bool FreshCache::wait_until_listening(std::chrono::steady_clock::duration timeout) {
  std::unique_lock lock(m_mutex);
  return m_listening_changed.wait_for(lock, timeout, [this] { return m_listening; });
}

namespace {

// About the bytes a feed takes in memory: its fixed size and its text.
std::size_t bytes_of(const model::DirectoryFeed& feed) {
  const feed::Show& show = feed.show.show;
  std::size_t bytes = sizeof(feed) + feed.podcast_guid.size() + feed.original_url.size() +
                      feed.status.size() + feed.content_hash.size() + feed.show.slug.size() +
                      feed.show.feed_url.size() + show.title.size() + show.description.size() +
                      show.link.size() + show.image.size() + show.author.size() +
                      show.language.size() + show.itunes.owner_name.size() +
                      show.itunes.owner_email.size();
  for (const auto& category : feed.categories) {
    bytes += sizeof(category) + category.name.size();
  }
  return bytes;
}

} // namespace

std::vector<std::optional<model::DirectoryFeed>> FreshCache::find_feeds(
    const std::vector<std::int64_t>& ids, std::chrono::steady_clock::time_point now) {
  std::vector<std::optional<model::DirectoryFeed>> found(ids.size());
  std::lock_guard lock(m_mutex);
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const auto entry = m_listening ? m_feeds.find(ids[i]) : m_feeds.end();
    if (entry == m_feeds.end() || now - entry->second->loaded >= k_feed_lifetime) {
      ++m_feed_figures.misses;
      continue;
    }
    ++m_feed_figures.hits;
    m_feed_order.splice(m_feed_order.begin(), m_feed_order, entry->second);
    found[i] = entry->second->feed;
  }
  return found;
}

void FreshCache::cache_feeds_if_current(const std::vector<model::DirectoryFeed>& feeds,
                                        std::uint64_t started,
                                        std::chrono::steady_clock::time_point now) {
  std::lock_guard lock(m_mutex);
  if (m_generation != started || !m_listening) {
    return;
  }
  for (const auto& feed : feeds) {
    erase_feed(feed.id);
    const std::size_t bytes = bytes_of(feed);
    if (bytes > m_feed_max_bytes) {
      continue;
    }
    while (m_feed_figures.bytes + bytes > m_feed_max_bytes && !m_feed_order.empty()) {
      erase_feed(m_feed_order.back().feed.id);
    }
    m_feed_order.push_front({feed, now, bytes});
    m_feeds[feed.id] = m_feed_order.begin();
    m_feed_ids_by_slug[feed.show.slug] = feed.id;
    m_feed_figures.bytes += bytes;
  }
  m_feed_figures.entries = m_feeds.size();
}

FreshCache::FeedFigures FreshCache::feed_figures() const {
  std::lock_guard lock(m_mutex);
  return m_feed_figures;
}

void FreshCache::erase_feed(std::int64_t id) {
  const auto entry = m_feeds.find(id);
  if (entry == m_feeds.end()) {
    return;
  }
  const auto slug = m_feed_ids_by_slug.find(entry->second->feed.show.slug);
  if (slug != m_feed_ids_by_slug.end() && slug->second == id) {
    m_feed_ids_by_slug.erase(slug);
  }
  m_feed_figures.bytes -= entry->second->bytes;
  m_feed_order.erase(entry->second);
  m_feeds.erase(entry);
  m_feed_figures.entries = m_feeds.size();
}

void FreshCache::clear_feeds() {
  m_feed_order.clear();
  m_feeds.clear();
  m_feed_ids_by_slug.clear();
  m_feed_figures.bytes = 0;
  m_feed_figures.entries = 0;
}

} // namespace podcrawl::serve

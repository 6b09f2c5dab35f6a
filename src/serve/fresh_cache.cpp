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
  }
  m_listening_changed.notify_all();
}

bool FreshCache::wait_until_listening(std::chrono::steady_clock::duration timeout) {
  std::unique_lock lock(m_mutex);
  return m_listening_changed.wait_for(lock, timeout, [this] { return m_listening; });
}

} // namespace podcrawl::serve

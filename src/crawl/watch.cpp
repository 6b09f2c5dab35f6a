#include <algorithm>
#include <iterator>

#include "podcrawl/core/time.hpp"
#include "watch_internal.hpp"

namespace podcrawl::crawl::internal {

Watch::Watch(const std::string& database_url, const WatchOptions& options)
    : m_options(options), m_urgent(database_url), m_next_look(std::chrono::steady_clock::now()) {}

bool Watch::stop_requested() const {
  return m_options.stop != nullptr && m_options.stop->requested();
}

void Watch::hear() {
  keep(m_urgent.wait(std::chrono::milliseconds(0)));
}

void Watch::keep(const std::vector<std::int64_t>& ids) {
  for (const std::int64_t id : ids) {
    if (m_heard.size() < store::k_max_urgent_heard) {
      m_heard.insert(id);
    }
  }
}

std::vector<std::int64_t> Watch::take_urgent(std::size_t limit) {
  const auto count = std::min(limit, m_heard.size());
  auto end = std::next(m_heard.begin(), static_cast<std::ptrdiff_t>(count));
  std::vector<std::int64_t> taken(m_heard.begin(), end);
  m_heard.erase(m_heard.begin(), end);
  return taken;
}

bool Watch::time_to_look() const {
  return !m_heard.empty() || std::chrono::steady_clock::now() >= m_next_look;
}

void Watch::rest_until(std::optional<std::int64_t> next_due_at, std::int64_t now) {
  const auto rest = next_due_at ? std::chrono::seconds(*next_due_at - now) : k_longest_rest;
  m_next_look = std::chrono::steady_clock::now() +
                std::clamp<std::chrono::seconds>(rest, k_shortest_rest, k_longest_rest);
}

std::int64_t Watch::next_look_at() const {
  const auto rest = m_next_look - std::chrono::steady_clock::now();
  return core::now() +
         std::max<std::int64_t>(0, std::chrono::ceil<std::chrono::seconds>(rest).count());
}

void Watch::sleep(std::chrono::steady_clock::time_point until) {
  until = std::min(until, m_next_look);
  const auto now = std::chrono::steady_clock::now();
  if (!m_heard.empty() || until <= now || stop_requested()) {
    return;
  }
  const auto wait = std::chrono::ceil<std::chrono::milliseconds>(until - now);
  keep(m_urgent.wait(wait, m_options.stop != nullptr ? m_options.stop->fd() : -1));
}

} // namespace podcrawl::crawl::internal

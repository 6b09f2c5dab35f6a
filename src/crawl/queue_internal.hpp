#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>

namespace podcrawl::crawl {

// A bounded queue between a fetching thread and the workers that take what it fetched: push()
// waits while it is full, pop() while it is empty and open.
template <typename Job>
class BoundedQueue {
public:
  explicit BoundedQueue(std::size_t capacity) : m_capacity(capacity) {}

  void push(Job job) {
    std::unique_lock lock(m_mutex);
    m_not_full.wait(lock, [this] { return m_jobs.size() < m_capacity; });
    m_jobs.push_back(std::move(job));
    m_not_empty.notify_one();
  }

  // Push without waiting; false (and `job` left as it was) when the queue is full.
  bool try_push(Job& job) {
    std::lock_guard lock(m_mutex);
    if (m_jobs.size() >= m_capacity) {
      return false;
    }
    m_jobs.push_back(std::move(job));
    m_not_empty.notify_one();
    return true;
  }

  // The next job; nullopt once closed and drained.
  std::optional<Job> pop() {
    std::unique_lock lock(m_mutex);
    m_not_empty.wait(lock, [this] { return !m_jobs.empty() || m_closed; });
    if (m_jobs.empty()) {
      return std::nullopt;
    }
    Job job = std::move(m_jobs.front());
    m_jobs.pop_front();
    m_not_full.notify_one();
    return job;
  }

  void close() {
    std::lock_guard lock(m_mutex);
    m_closed = true;
    m_not_empty.notify_all();
  }

private:
  const std::size_t m_capacity;
  std::mutex m_mutex;
  std::condition_variable m_not_full;
  std::condition_variable m_not_empty;
  std::deque<Job> m_jobs;
  bool m_closed = false;
};

} // namespace podcrawl::crawl

#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <utility>

namespace podcrawl::core {

// A queue of at most `capacity` items between the threads that make work and the threads that
// do it, so that memory holds a bounded amount of work however much there is: push() waits while
// it is full, pop() while it is empty and open.
//
// The first error of any consumer (fail()) ends the work: push() and wait_until_done() throw it
// instead of waiting, and pop() hands out nothing more. wait_until_done() waits for every item
// pushed to be popped and reported done().
template <typename T>
class BoundedQueue {
public:
  explicit BoundedQueue(std::size_t capacity) : m_capacity(capacity == 0 ? 1 : capacity) {}
  BoundedQueue(const BoundedQueue&) = delete;
  BoundedQueue& operator=(const BoundedQueue&) = delete;

  // Queue an item, waiting while the queue is full. Throws the first error, if any.
  void push(T item) {
    std::unique_lock lock(m_mutex);
    m_not_full.wait(lock, [this] { return m_items.size() < m_capacity || m_error; });
    rethrow_locked();
    m_items.push_back(std::move(item));
    m_not_empty.notify_one();
  }

  // Queue an item without waiting; false (and `item` left as it was) when the queue is full or
  // the work has failed.
  bool try_push(T& item) {
    std::lock_guard lock(m_mutex);
    if (m_items.size() >= m_capacity || m_error) {
      return false;
    }
    m_items.push_back(std::move(item));
    m_not_empty.notify_one();
    return true;
  }

  // The next item, waiting while there is none; nullopt once the queue is closed and drained, or
  // the work has failed. Whoever takes an item reports it done() when wait_until_done() matters.
  std::optional<T> pop() {
    std::unique_lock lock(m_mutex);
    m_not_empty.wait(lock, [this] { return !m_items.empty() || m_closed || m_error; });
    if (m_items.empty() || m_error) {
      return std::nullopt;
    }
    T item = std::move(m_items.front());
    m_items.pop_front();
    ++m_in_hand;
    m_not_full.notify_one();
    return item;
  }

  // An item pop() handed out is finished.
  void done() {
    std::lock_guard lock(m_mutex);
    --m_in_hand;
    if (m_items.empty() && m_in_hand == 0) {
      m_idle.notify_all();
    }
  }

  // Wait until every item pushed has been reported done(); throws the first error, if any.
  void wait_until_done() {
    std::unique_lock lock(m_mutex);
    m_idle.wait(lock, [this] { return (m_items.empty() && m_in_hand == 0) || m_error; });
    rethrow_locked();
  }

  // No more items will come: pop() returns nullopt once the queue is empty.
  void close() {
    std::lock_guard lock(m_mutex);
    m_closed = true;
    m_not_empty.notify_all();
  }

  // Record an error of the work; the first one recorded is kept and thrown.
  void fail(std::exception_ptr error) {
    std::lock_guard lock(m_mutex);
    if (!m_error) {
      m_error = std::move(error);
    }
    m_not_full.notify_all();
    m_not_empty.notify_all();
    m_idle.notify_all();
  }

private:
  void rethrow_locked() const {
    if (m_error) {
      std::rethrow_exception(m_error);
    }
  }

  const std::size_t m_capacity;
  std::mutex m_mutex;
  std::condition_variable m_not_full;
  std::condition_variable m_not_empty;
  std::condition_variable m_idle;
  std::deque<T> m_items;
  std::size_t m_in_hand = 0;
  bool m_closed = false;
  std::exception_ptr m_error;
};

} // namespace podcrawl::core

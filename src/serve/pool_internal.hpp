#pragma once

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace podcrawl::serve::internal {

// At most `size` objects made on demand by `make`, each used by one request at a time. An
// object whose use failed is discarded, and a new one made when next needed: a database
// connection that broke is replaced once the server is back.
template <typename T>
class Pool {
public:
  Pool(std::size_t size, std::function<std::unique_ptr<T>()> make)
      : m_size(size), m_make(std::move(make)) {}

  // An object taken from the pool, given back when the lease ends unless discarded.
  class Lease {
  public:
    Lease(Pool& pool, std::unique_ptr<T> item) : m_pool(&pool), m_item(std::move(item)) {}
    Lease(Lease&& other) noexcept
        : m_pool(std::exchange(other.m_pool, nullptr)), m_item(std::move(other.m_item)) {}
    Lease& operator=(Lease&&) = delete;
    ~Lease() {
      if (m_pool != nullptr) {
        m_pool->give_back(std::move(m_item));
      }
    }
    T& operator*() const { return *m_item; }
    T* operator->() const { return m_item.get(); }
    void discard() { m_item.reset(); }

  private:
    Pool* m_pool;
    std::unique_ptr<T> m_item;
  };

  // Take an object, waiting while all are in use; make one when fewer than `size` exist.
  // Throws what `make` throws.
  Lease take() {
    std::unique_lock lock(m_mutex);
    m_available.wait(lock, [&] { return !m_free.empty() || m_made < m_size; });
    if (!m_free.empty()) {
      auto item = std::move(m_free.back());
      m_free.pop_back();
      return Lease(*this, std::move(item));
    }
    ++m_made;
    lock.unlock();
    try {
      return Lease(*this, m_make());
    } catch (...) {
      lock.lock();
      --m_made;
      m_available.notify_one();
      throw;
    }
  }

  // Make objects until `size` exist, so that no request waits for one to be made. Throws what
  // `make` throws.
  void fill() {
    std::vector<Lease> leases;
    for (std::size_t i = 0; i < m_size; ++i) {
      leases.push_back(take());
    }
  }

  // Drop every object not in use: after a failure that has likely broken them all (the
  // database restarted), the next take makes a new one rather than try each old one in turn.
  void discard_idle() {
    std::vector<std::unique_ptr<T>> dropped;
    {
      std::lock_guard lock(m_mutex);
      m_made -= m_free.size();
      dropped.swap(m_free);
    }
    m_available.notify_all();
    // `dropped` closes them here, outside the lock.
  }

private:
  void give_back(std::unique_ptr<T> item) {
    {
      std::lock_guard lock(m_mutex);
      if (item) {
        m_free.push_back(std::move(item));
      } else {
        --m_made;
      }
    }
    m_available.notify_one();
  }

  const std::size_t m_size;
  std::function<std::unique_ptr<T>()> m_make;
  std::mutex m_mutex;
  std::condition_variable m_available;
  std::vector<std::unique_ptr<T>> m_free;
  std::size_t m_made = 0;
};

} // namespace podcrawl::serve::internal

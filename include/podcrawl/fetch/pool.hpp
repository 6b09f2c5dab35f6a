#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

#include "podcrawl/core/config.hpp"
#include "podcrawl/fetch/fetcher.hpp"

namespace podcrawl::fetch {

// Many transfers at once on one thread: a libcurl multi handle with shared connection and DNS
// caches, keep-alive and HTTP/2 multiplexing where offered. At most `concurrency` transfers run
// at a time and at most `per_host` against one host name; the rest wait in order. Each transfer
// follows the rules of fetch() (redirects walked hop by hop, every hop under the address
// policy). Not thread-safe: one thread calls add() and perform().
class TransferPool {
public:
  // Receives each finished transfer with the tag given to add().
  using Done = std::function<void(std::uint64_t tag, FetchResult result)>;

  TransferPool(const core::FetchConfig& config, int concurrency, int per_host);
  ~TransferPool();
  TransferPool(const TransferPool&) = delete;
  TransferPool& operator=(const TransferPool&) = delete;

  // Queue a transfer. Bad URLs are reported through the next perform(), not thrown.
  void add(std::uint64_t tag, const FetchRequest& request);
  // Drive transfers for at most timeout_ms, calling done for every transfer that finished.
  void perform(const Done& done, int timeout_ms);
  // Transfers queued or running.
  std::size_t pending() const;

private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

} // namespace podcrawl::fetch

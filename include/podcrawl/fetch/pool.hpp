#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "podcrawl/core/config.hpp"
#include "podcrawl/fetch/fetcher.hpp"
#include "podcrawl/fetch/pace.hpp"

namespace podcrawl::fetch {

// Many transfers at once on one thread: a libcurl multi handle with shared connection and DNS
// caches, keep-alive and HTTP/2 multiplexing where offered (transfers to one HTTPS host share
// its connections). At most `concurrency` transfers run at a time and against one host name as
// many as its pace allows (a Pacer's, or a fixed `per_host`); the rest wait, each host's in
// order, and a host paused by Retry-After holds no transfer slot. A transfer answered 429 or 503
// with a short Retry-After (or none) waits for the pause and is asked again, up to three times.
// A host that could not be resolved or connected to three times in a row has its other
// transfers finished unasked (deferred, with retry_after_seconds) for five minutes.
// Each transfer follows the rules of fetch() (redirects walked hop by hop, every hop under the
// address policy). Not thread-safe: one thread calls add() and perform().
class TransferPool {
public:
  // Receives each finished transfer with the tag given to add().
  using Done = std::function<void(std::uint64_t tag, FetchResult result)>;

  TransferPool(const core::FetchConfig& config, int concurrency, int per_host);
  // Paced by `pacer`, which must outlive the pool and is told of every answer.
  TransferPool(const core::FetchConfig& config, int concurrency, Pacer& pacer);
  ~TransferPool();
  TransferPool(const TransferPool&) = delete;
  TransferPool& operator=(const TransferPool&) = delete;

  // Queue a transfer. Bad URLs are reported through the next perform(), not thrown.
  void add(std::uint64_t tag, const FetchRequest& request);
  // Drive transfers for at most timeout_ms, calling done for every transfer that finished.
  void perform(const Done& done, int timeout_ms);
  // Start no transfer from now on, for a crawl that stops: each one not started (waiting for a
  // slot, its host's pace or pause; added later; the next hop of a redirect or a throttled
  // retry) finishes unasked, deferred with retry_after_seconds 0 and `reason` as its error,
  // through perform(). The running ones go on to their end.
  void stop_starting(const std::string& reason);
  // Transfers queued or running.
  std::size_t pending() const;
  // Transfers running.
  std::size_t running() const;
  // The hosts with the most transfers waiting, most first, at most `count` of them.
  std::vector<std::pair<std::string, std::size_t>> most_waiting(std::size_t count) const;

private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

} // namespace podcrawl::fetch

#include "podcrawl/fetch/pool.hpp"

#include <deque>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <spdlog/spdlog.h>

#include "podcrawl/net/url.hpp"
#include "transfer_internal.hpp"

namespace podcrawl::fetch {

namespace {

struct MultiDeleter {
  void operator()(CURLM* multi) const { curl_multi_cleanup(multi); }
};

// One transfer across its redirect hops.
struct Transfer {
  std::uint64_t tag = 0;
  FetchRequest request;
  std::string host;
  long hops = 0;
  bool permanent = true; // every redirect so far was 301/308
  std::unique_ptr<detail::Hop> hop;
};

std::string host_of(const std::string& url) {
  const auto parsed = net::parse_url(url);
  return parsed ? parsed->host : std::string();
}

} // namespace

struct TransferPool::Impl {
  const core::FetchConfig config; // a copy: every hop points into it
  const std::size_t concurrency;
  const int per_host;
  std::unique_ptr<CURLM, MultiDeleter> multi;
  std::deque<std::unique_ptr<Transfer>> waiting;
  std::unordered_map<CURL*, std::unique_ptr<Transfer>> running;
  std::unordered_map<std::string, int> running_per_host;
  std::vector<std::pair<std::uint64_t, FetchResult>> finished;

  Impl(const core::FetchConfig& fetch_config, int max_transfers, int max_per_host)
      : config(fetch_config),
        concurrency(static_cast<std::size_t>(std::max(1, max_transfers))),
        per_host(std::max(1, max_per_host)) {
    detail::ensure_global_init();
    multi.reset(curl_multi_init());
    if (multi) {
      curl_multi_setopt(multi.get(), CURLMOPT_PIPELINING, static_cast<long>(CURLPIPE_MULTIPLEX));
      curl_multi_setopt(multi.get(), CURLMOPT_MAX_HOST_CONNECTIONS, static_cast<long>(per_host));
    }
  }

  ~Impl() {
    for (auto& [handle, transfer] : running) {
      curl_multi_remove_handle(multi.get(), handle);
    }
  }

  void finish(Transfer& transfer, FetchResult result) {
    if (transfer.hops > 0 && transfer.permanent && result.permanent_url.empty() &&
        result.outcome != FetchOutcome::refused) {
      result.permanent_url = result.final_url;
    }
    finished.emplace_back(transfer.tag, std::move(result));
  }

  // Start the hop of a transfer for `url`; false (and the transfer finished) when impossible.
  bool start_hop(std::unique_ptr<Transfer> transfer, const std::string& url) {
    transfer->hop = detail::make_hop(transfer->request, url, config);
    if (!transfer->hop || !multi ||
        curl_multi_add_handle(multi.get(), transfer->hop->curl.get()) != CURLM_OK) {
      finish(*transfer, detail::failure(FetchOutcome::network_error,
                                        "libcurl could not start a transfer", url));
      return false;
    }
    ++running_per_host[transfer->host];
    CURL* handle = transfer->hop->curl.get();
    running.emplace(handle, std::move(transfer));
    return true;
  }

  // Start waiting transfers while there is room, in order, skipping hosts at their cap.
  void start_waiting() {
    for (auto it = waiting.begin(); it != waiting.end() && running.size() < concurrency;) {
      if (running_per_host[(*it)->host] >= per_host) {
        ++it;
        continue;
      }
      std::unique_ptr<Transfer> transfer = std::move(*it);
      it = waiting.erase(it);
      const std::string url = transfer->request.url;
      start_hop(std::move(transfer), url);
    }
  }

  void release_host(const std::string& host) {
    if (auto found = running_per_host.find(host);
        found != running_per_host.end() && --found->second <= 0) {
      running_per_host.erase(found);
    }
  }

  void on_hop_done(CURL* handle, CURLcode code) {
    auto found = running.find(handle);
    if (found == running.end()) {
      return;
    }
    std::unique_ptr<Transfer> transfer = std::move(found->second);
    running.erase(found);
    curl_multi_remove_handle(multi.get(), handle);
    release_host(transfer->host);
    detail::HopEnd end = detail::finish_hop(*transfer->hop, code);
    if (end.result) {
      finish(*transfer, std::move(*end.result));
      return;
    }
    if (transfer->hops >= config.max_redirects) {
      finish(*transfer,
             detail::failure(FetchOutcome::http_error,
                             "more than " + std::to_string(config.max_redirects) + " redirects",
                             transfer->hop->url));
      return;
    }
    spdlog::debug("{} redirects to {}", net::redact(transfer->hop->url), net::redact(end.next_url));
    ++transfer->hops;
    transfer->permanent = transfer->permanent && end.permanent;
    transfer->host = host_of(end.next_url);
    start_hop(std::move(transfer), end.next_url);
  }

  void read_messages() {
    int left = 0;
    while (CURLMsg* message = curl_multi_info_read(multi.get(), &left)) {
      if (message->msg == CURLMSG_DONE) {
        on_hop_done(message->easy_handle, message->data.result);
      }
    }
  }
};

TransferPool::TransferPool(const core::FetchConfig& config, int concurrency, int per_host)
    : m_impl(std::make_unique<Impl>(config, concurrency, per_host)) {}

TransferPool::~TransferPool() = default;

void TransferPool::add(std::uint64_t tag, const FetchRequest& request) {
  if (!net::is_http_url(request.url)) {
    m_impl->finished.emplace_back(
        tag, detail::failure(FetchOutcome::refused, "only http and https URLs are fetched",
                             request.url));
    return;
  }
  auto transfer = std::make_unique<Transfer>();
  transfer->tag = tag;
  transfer->request = request;
  transfer->host = host_of(request.url);
  m_impl->waiting.push_back(std::move(transfer));
}

void TransferPool::perform(const Done& done, int timeout_ms) {
  Impl& impl = *m_impl;
  impl.start_waiting();
  if (!impl.running.empty()) {
    int still_running = 0;
    curl_multi_perform(impl.multi.get(), &still_running);
    impl.read_messages();
    if (impl.finished.empty()) {
      curl_multi_poll(impl.multi.get(), nullptr, 0, timeout_ms, nullptr);
      curl_multi_perform(impl.multi.get(), &still_running);
      impl.read_messages();
    }
    impl.start_waiting();
  }
  // Handed over after the bookkeeping above: `done` may add() more transfers.
  auto finished = std::move(impl.finished);
  impl.finished.clear();
  for (auto& [tag, result] : finished) {
    done(tag, std::move(result));
  }
}

std::size_t TransferPool::pending() const {
  return m_impl->waiting.size() + m_impl->running.size() + m_impl->finished.size();
}

} // namespace podcrawl::fetch

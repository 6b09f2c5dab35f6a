#include "podcrawl/fetch/pool.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <spdlog/spdlog.h>

#include "podcrawl/fetch/pace.hpp"
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
  int throttled = 0;     // answers of 429 or 503 asked again
  std::string retry_url; // the hop to ask again once its host's pause ends
  PaceTicket ticket;
  std::unique_ptr<internal::Hop> hop;
  int hops_done = 0;       // hops that reached libcurl's end, retries included
  double busy_seconds = 0; // their time from start to end, as libcurl measured it
  std::int64_t received_bytes = 0;
};

// A transfer answered 429 or 503 is asked again after its host's pause this many times at most,
// and only when the pause asked for is this short; otherwise the answer is the transfer's.
constexpr int k_max_throttled_retries = 3;
constexpr std::int64_t k_max_retry_pause_seconds = 30;
// That a host cannot be resolved or reached is a fact about the host, not about each of its
// feeds: after this many such failures in a row, its other transfers are deferred unasked for
// a while (so that a 15-minute cron asks again at its next run), and then one more try decides
// again.
constexpr int k_unreachable_failures = 3;
constexpr std::int64_t k_unreachable_pause_seconds = 300;

double seconds_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// A finished hop's time from its start to its end (name lookup, connection, request, answer).
double hop_seconds(CURL* handle) {
  curl_off_t microseconds = 0;
  curl_easy_getinfo(handle, CURLINFO_TOTAL_TIME_T, &microseconds);
  return static_cast<double>(std::max<curl_off_t>(microseconds, 0)) / 1e6;
}

// Bytes a finished hop received: its headers and its body as sent.
std::int64_t received_bytes(CURL* handle) {
  curl_off_t body = 0;
  long headers = 0;
  curl_easy_getinfo(handle, CURLINFO_SIZE_DOWNLOAD_T, &body);
  curl_easy_getinfo(handle, CURLINFO_HEADER_SIZE, &headers);
  return static_cast<std::int64_t>(std::max<curl_off_t>(body, 0)) + std::max(headers, 0L);
}

// What a finished hop says of its host's load.
Load load_of(CURLcode code, const internal::HopEnd& end) {
  if (!end.result) {
    return Load::clean; // a redirect
  }
  const FetchResult& result = *end.result;
  switch (result.outcome) {
    case FetchOutcome::ok:
    case FetchOutcome::not_modified:
    case FetchOutcome::gone:
    case FetchOutcome::too_large:
      return Load::clean;
    case FetchOutcome::http_error:
      if (result.http_status == 429 || result.http_status == 503) {
        return Load::throttled;
      }
      return result.http_status == 502 || result.http_status == 504 ? Load::overloaded
                                                                    : Load::clean;
    case FetchOutcome::network_error:
      return code == CURLE_OPERATION_TIMEDOUT || code == CURLE_COULDNT_CONNECT ||
                     code == CURLE_RECV_ERROR || code == CURLE_SEND_ERROR ||
                     code == CURLE_GOT_NOTHING
                 ? Load::overloaded
                 : Load::neutral;
    case FetchOutcome::refused:
    case FetchOutcome::deferred:
      return Load::neutral;
  }
  return Load::neutral;
}

// True for a hop that never reached its host: the name did not resolve, or no connection was
// made (refused, unreachable, or timed out before connecting).
bool never_reached(CURL* handle, CURLcode code) {
  if (code == CURLE_COULDNT_RESOLVE_HOST || code == CURLE_COULDNT_CONNECT) {
    return true;
  }
  curl_off_t connected = 0;
  curl_easy_getinfo(handle, CURLINFO_CONNECT_TIME_T, &connected);
  return code == CURLE_OPERATION_TIMEDOUT && connected == 0;
}

std::string host_of(const std::string& url) {
  const auto parsed = net::parse_url(url);
  return parsed ? host_key(*parsed) : std::string();
}

} // namespace

struct TransferPool::Impl {
  const core::FetchConfig config; // a copy: every hop points into it
  const std::size_t concurrency;
  std::unique_ptr<core::CrawlConfig> own_crawl; // a fixed pace, when no pacer was given
  std::unique_ptr<Pacer> own_pacer;
  Pacer& pacer;
  std::unique_ptr<CURLM, MultiDeleter> multi;
  // Waiting transfers by host, each host's in order.
  std::unordered_map<std::string, std::deque<std::unique_ptr<Transfer>>> waiting;
  std::size_t waiting_count = 0;
  std::unordered_map<CURL*, std::unique_ptr<Transfer>> running;
  std::unordered_map<std::string, int> running_per_host;
  // Hosts whose last hops never reached them: how many in a row, the last error, and until when
  // their transfers are deferred.
  struct Reach {
    int failures = 0;
    std::string error;
    double deferred_until = 0;
  };
  std::unordered_map<std::string, Reach> reach;
  std::vector<std::pair<std::uint64_t, FetchResult>> finished;
  std::optional<std::string> stopped; // why nothing starts any more, once stop_starting()

  Impl(const core::FetchConfig& fetch_config, int max_transfers, Pacer* shared_pacer,
       int fixed_per_host)
      : config(fetch_config),
        concurrency(static_cast<std::size_t>(std::max(1, max_transfers))),
        own_crawl(shared_pacer ? nullptr : fixed_pace(fixed_per_host)),
        own_pacer(shared_pacer ? nullptr : std::make_unique<Pacer>(*own_crawl)),
        pacer(shared_pacer ? *shared_pacer : *own_pacer) {
    internal::ensure_global_init();
    multi.reset(curl_multi_init());
    if (multi) {
      curl_multi_setopt(multi.get(), CURLMOPT_PIPELINING, static_cast<long>(CURLPIPE_MULTIPLEX));
    }
  }

  static std::unique_ptr<core::CrawlConfig> fixed_pace(int per_host) {
    auto crawl = std::make_unique<core::CrawlConfig>();
    crawl->per_host = std::max(1, per_host);
    crawl->per_host_max = crawl->per_host;
    return crawl;
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
    result.seconds = transfer.hops_done > 0 ? transfer.busy_seconds : -1.0;
    result.received_bytes = transfer.received_bytes;
    finished.emplace_back(transfer.tag, std::move(result));
  }

  // Start the hop of a transfer for `url`; false (and the transfer finished) when impossible.
  bool start_hop(std::unique_ptr<Transfer> transfer, const std::string& url, double now) {
    transfer->hop = internal::make_hop(transfer->request, url, config);
    if (!transfer->hop || !multi ||
        curl_multi_add_handle(multi.get(), transfer->hop->curl.get()) != CURLM_OK) {
      finish(*transfer, internal::failure(FetchOutcome::network_error,
                                          "libcurl could not start a transfer", url));
      return false;
    }
    int& in_flight = running_per_host[transfer->host];
    transfer->ticket = pacer.host(transfer->host).on_start(in_flight, now);
    ++in_flight;
    CURL* handle = transfer->hop->curl.get();
    running.emplace(handle, std::move(transfer));
    return true;
  }

  void wait(std::unique_ptr<Transfer> transfer, bool first) {
    auto& queue = waiting[transfer->host];
    if (first) {
      queue.push_front(std::move(transfer));
    } else {
      queue.push_back(std::move(transfer));
    }
    ++waiting_count;
  }

  // Start waiting transfers while there is room, each host's in order, as far as each host's
  // pace allows. A host paused for longer than a crawl waits has its transfers deferred.
  void start_waiting() {
    if (stopped) {
      for (auto& [host, queue] : waiting) {
        defer(queue, 0, *stopped);
      }
      waiting.clear();
      return;
    }
    const double now = seconds_now();
    for (auto it = waiting.begin(); it != waiting.end();) {
      auto& [host, queue] = *it;
      HostPace& pace = pacer.host(host);
      if (pace.paused_until() > now + static_cast<double>(k_max_retry_pause_seconds)) {
        const auto seconds = static_cast<std::int64_t>(std::ceil(pace.paused_until() - now));
        defer(queue, seconds,
              "not asked: the host asked for a pause of " + std::to_string(seconds) + " s");
      }
      if (const auto found = reach.find(host);
          found != reach.end() && found->second.deferred_until > now) {
        defer(queue, static_cast<std::int64_t>(std::ceil(found->second.deferred_until - now)),
              "not asked: " + host + " could not be reached " +
                  std::to_string(found->second.failures) + " times in a row (" +
                  found->second.error + ")");
      }
      while (!queue.empty() && running.size() < concurrency &&
             pace.may_start(running_per_host[host], now)) {
        std::unique_ptr<Transfer> transfer = std::move(queue.front());
        queue.pop_front();
        --waiting_count;
        const std::string url =
            transfer->retry_url.empty() ? transfer->request.url : transfer->retry_url;
        start_hop(std::move(transfer), url, now);
      }
      it = queue.empty() ? waiting.erase(it) : std::next(it);
    }
  }

  // Finish every transfer of a queue unasked, to be asked again in `seconds`.
  void defer(std::deque<std::unique_ptr<Transfer>>& queue, std::int64_t seconds,
             const std::string& reason) {
    for (auto& transfer : queue) {
      const std::string url =
          transfer->retry_url.empty() ? transfer->request.url : transfer->retry_url;
      FetchResult result = internal::failure(FetchOutcome::deferred, reason, url);
      result.retry_after_seconds = seconds;
      finish(*transfer, std::move(result));
    }
    waiting_count -= queue.size();
    queue.clear();
  }

  // Milliseconds until the first waiting host no longer paused or rate-limited may start one;
  // a large number when none waits on that.
  int ms_until_a_host_resumes() {
    constexpr int k_never = 1 << 30;
    const double now = seconds_now();
    double first = -1;
    for (const auto& [host, queue] : waiting) {
      const double resumes = pacer.host(host).resumes_at();
      if (resumes > now && (first < 0 || resumes < first)) {
        first = resumes;
      }
    }
    return first < 0 ? k_never : static_cast<int>((first - now) * 1000) + 1;
  }

  void release_host(const std::string& host) {
    if (auto found = running_per_host.find(host);
        found != running_per_host.end() && --found->second <= 0) {
      running_per_host.erase(found);
    }
  }

  // True when a throttled answer is to be asked again after its host's pause.
  static bool ask_again(const Transfer& transfer, const FetchResult& result) {
    return transfer.throttled < k_max_throttled_retries &&
           result.retry_after_seconds.value_or(0) <= k_max_retry_pause_seconds;
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
    internal::HopEnd end = internal::finish_hop(*transfer->hop, code);
    const double now = seconds_now();
    ++transfer->hops_done;
    transfer->busy_seconds += hop_seconds(handle);
    transfer->received_bytes += received_bytes(handle);
    const Load load = load_of(code, end);
    note_reach(*transfer,
               end.result && end.result->outcome == FetchOutcome::network_error &&
                   never_reached(handle, code),
               end.result ? end.result->error : std::string(), now);
    std::optional<std::int64_t> retry_after;
    if (end.result) {
      retry_after = end.result->retry_after_seconds;
    }
    HostPace& pace = pacer.host(transfer->host);
    const double pace_before = pace.pace();
    pace.on_answer(transfer->ticket, load, now, retry_after);
    if (pace.pace() < pace_before) {
      spdlog::debug("{}: pace cut from {:.1f} to {:.1f} ({})", transfer->host, pace_before,
                    pace.pace(),
                    load == Load::throttled    ? "throttled"
                    : load == Load::overloaded ? "overloaded"
                                               : "slower answers");
    }
    if (end.result && load == Load::throttled && ask_again(*transfer, *end.result)) {
      ++transfer->throttled;
      transfer->retry_url = transfer->hop->url;
      transfer->hop.reset();
      wait(std::move(transfer), true);
      return;
    }
    if (end.result) {
      finish(*transfer, std::move(*end.result));
      return;
    }
    if (transfer->hops >= config.max_redirects) {
      finish(*transfer,
             internal::failure(FetchOutcome::http_error,
                               "more than " + std::to_string(config.max_redirects) + " redirects",
                               transfer->hop->url));
      return;
    }
    spdlog::debug("{} redirects to {}", net::redact(transfer->hop->url), net::redact(end.next_url));
    ++transfer->hops;
    transfer->permanent = transfer->permanent && end.permanent;
    transfer->host = host_of(end.next_url);
    transfer->retry_url = end.next_url;
    // The next hop waits its turn: it may be on a host at its pace, or paused.
    wait(std::move(transfer), true);
  }

  // Count a hop that never reached its host; any other answer starts the count again. At
  // k_unreachable_failures in a row the host's waiting transfers are deferred.
  void note_reach(const Transfer& transfer, bool unreached, const std::string& error, double now) {
    if (!unreached) {
      reach.erase(transfer.host);
      return;
    }
    Reach& host = reach[transfer.host];
    host.error = error;
    if (++host.failures >= k_unreachable_failures && host.deferred_until <= now) {
      host.deferred_until = now + static_cast<double>(k_unreachable_pause_seconds);
      spdlog::info("{}: not reached {} times in a row ({}); its other transfers wait {} s",
                   transfer.host, host.failures, error, k_unreachable_pause_seconds);
    }
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
    : m_impl(std::make_unique<Impl>(config, concurrency, nullptr, per_host)) {}

TransferPool::TransferPool(const core::FetchConfig& config, int concurrency, Pacer& pacer)
    : m_impl(std::make_unique<Impl>(config, concurrency, &pacer, 0)) {}

TransferPool::~TransferPool() = default;

void TransferPool::add(std::uint64_t tag, const FetchRequest& request) {
  if (!net::is_http_url(request.url)) {
    m_impl->finished.emplace_back(
        tag, internal::failure(FetchOutcome::refused, "only http and https URLs are fetched",
                               request.url));
    return;
  }
  auto transfer = std::make_unique<Transfer>();
  transfer->tag = tag;
  transfer->request = request;
  transfer->host = host_of(request.url);
  m_impl->wait(std::move(transfer), false);
}

void TransferPool::perform(const Done& done, int timeout_ms) {
  Impl& impl = *m_impl;
  impl.start_waiting();
  // Waiting transfers whose hosts are paused or rate-limited wake the poll when they may start.
  const int wait_ms = std::clamp(impl.ms_until_a_host_resumes(), 0, std::max(0, timeout_ms));
  if (!impl.running.empty()) {
    int still_running = 0;
    curl_multi_perform(impl.multi.get(), &still_running);
    impl.read_messages();
    if (impl.finished.empty()) {
      curl_multi_poll(impl.multi.get(), nullptr, 0, wait_ms, nullptr);
      curl_multi_perform(impl.multi.get(), &still_running);
      impl.read_messages();
    }
    impl.start_waiting();
  } else if (impl.waiting_count > 0 && impl.finished.empty()) {
    curl_multi_poll(impl.multi.get(), nullptr, 0, wait_ms, nullptr);
    impl.start_waiting();
  }
  // Handed over after the bookkeeping above: `done` may add() more transfers.
  auto finished = std::move(impl.finished);
  impl.finished.clear();
  for (auto& [tag, result] : finished) {
    done(tag, std::move(result));
  }
}

void TransferPool::stop_starting(const std::string& reason) {
  m_impl->stopped = reason;
  m_impl->start_waiting();
}

std::size_t TransferPool::pending() const {
  return m_impl->waiting_count + m_impl->running.size() + m_impl->finished.size();
}

std::size_t TransferPool::running() const {
  return m_impl->running.size();
}

std::vector<std::pair<std::string, std::size_t>> TransferPool::most_waiting(
    std::size_t count) const {
  std::vector<std::pair<std::string, std::size_t>> hosts;
  for (const auto& [host, queue] : m_impl->waiting) {
    hosts.emplace_back(host, queue.size());
  }
  const auto by_size = [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  };
  const std::size_t kept = std::min(count, hosts.size());
  std::partial_sort(hosts.begin(), hosts.begin() + static_cast<std::ptrdiff_t>(kept), hosts.end(),
                    by_size);
  hosts.resize(kept);
  return hosts;
}

} // namespace podcrawl::fetch

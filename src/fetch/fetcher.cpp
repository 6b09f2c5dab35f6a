#include "podcrawl/fetch/fetcher.hpp"

#include "podcrawl/fetch/pool.hpp"

namespace podcrawl::fetch {

const char* to_string(FetchOutcome outcome) {
  switch (outcome) {
    case FetchOutcome::ok:
      return "ok";
    case FetchOutcome::not_modified:
      return "not_modified";
    case FetchOutcome::gone:
      return "gone";
    case FetchOutcome::http_error:
      return "http_error";
    case FetchOutcome::refused:
      return "refused";
    case FetchOutcome::too_large:
      return "too_large";
    case FetchOutcome::network_error:
      return "network_error";
    case FetchOutcome::deferred:
      return "deferred";
  }
  return "unknown";
}

FetchResult fetch(const FetchRequest& request, const core::FetchConfig& config) {
  TransferPool pool(config, 1, 1);
  pool.add(0, request);
  FetchResult out;
  while (pool.pending() > 0) {
    pool.perform([&out](std::uint64_t, FetchResult result) { out = std::move(result); }, 1000);
  }
  return out;
}

} // namespace podcrawl::fetch

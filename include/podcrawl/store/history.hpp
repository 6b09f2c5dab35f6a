#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "podcrawl/model/report.hpp"

namespace podcrawl::store {

// The history's column of each kind: "ok", "not_modified", "client_error", …
const char* column_name(model::FetchKind kind);
// What a run adds to the history between two writes: figures by hour (Unix seconds of the
// hour's start, UTC) and by host and hour.
struct HistoryDelta {
  std::map<std::int64_t, model::CrawlFigures> hours;
  std::map<std::pair<std::int64_t, std::string>, model::CrawlFigures> host_hours;
  bool empty() const { return hours.empty() && host_hours.empty(); }
};

} // namespace podcrawl::store

#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <variant>
#include <vector>

#include "podcrawl/http/server.hpp"
#include "podcrawl/model/report.hpp"

// The live directory's admin answers, /metrics and /admin/report: what they read from a request
// and how they answer, apart from the directory's pages.
namespace podcrawl::serve::internal {

// /admin/report covers this many days unless the query asks for others (1 to the most).
inline constexpr std::int64_t k_report_days = 14;
inline constexpr std::int64_t k_max_report_days = 366;
// /metrics reads the directory's counts at most this often.
inline constexpr std::int64_t k_stats_lifetime_seconds = 15;

// What /admin/report was asked for: the locale the query names (one of `locales`) or
// Accept-Language prefers, else the first; `days` from the query, else k_report_days.
struct ReportRequest {
  std::string locale;
  std::int64_t days = k_report_days;
};
// The request read, or the 400 answer to a `days` that is not a whole number from 1 to
// k_max_report_days.
std::variant<ReportRequest, http::Response> read_report_request(
    const http::Request& request, const std::vector<std::string>& locales);

// The report page's answer: HTML, never cached, varying by Accept-Language.
http::Response report_response(std::string html);
// /metrics' answer: the Prometheus text exposition format.
http::Response metrics_response(std::string text);

// The directory's counts as /metrics shows them: read again at most every
// k_stats_lifetime_seconds; when a read fails, the counts read last time serve. Safe from
// several threads at once (one reads, the others wait for it).
class StatsCache {
public:
  // The counts at wall-clock second `now`, calling `read` when they are older than their
  // lifetime. `read` throws core::EnvironmentError when the database fails.
  model::Stats get(std::int64_t now, const std::function<model::Stats()>& read);

private:
  std::mutex m_mutex;
  model::Stats m_stats;
  std::int64_t m_read_at = 0; // never: the epoch is always long enough ago
};

} // namespace podcrawl::serve::internal

#include "admin_internal.hpp"

#include <algorithm>
#include <charconv>
#include <memory>
#include <utility>

#include <spdlog/spdlog.h>

#include "podcrawl/core/error.hpp"
#include "podcrawl/serve/answer.hpp"
#include "podcrawl/serve/negotiate.hpp"
#include "podcrawl/serve/route.hpp"

namespace podcrawl::serve::internal {

std::variant<ReportRequest, http::Response> read_report_request(
    const http::Request& request, const std::vector<std::string>& locales) {
  ReportRequest report;
  report.locale = query_value(request.query, "locale");
  if (std::find(locales.begin(), locales.end(), report.locale) == locales.end()) {
    report.locale = negotiate_locale(request.header("Accept-Language"), locales);
  }
  if (report.locale.empty()) {
    report.locale = locales.front();
  }
  const std::string asked = query_value(request.query, "days");
  if (!asked.empty()) {
    std::int64_t value = 0;
    const auto parsed = std::from_chars(asked.data(), asked.data() + asked.size(), value);
    if (parsed.ec != std::errc() || parsed.ptr != asked.data() + asked.size() || value < 1 ||
        value > k_max_report_days) {
      return plain_answer(
          400, "days: a whole number from 1 to " + std::to_string(k_max_report_days) + "\n");
    }
    report.days = value;
  }
  return report;
}

http::Response report_response(std::string html) {
  http::Response response;
  response.headers.emplace_back("Content-Type", k_html);
  response.headers.emplace_back("Cache-Control", "no-store");
  response.headers.emplace_back("Vary", "Accept-Language");
  response.body = std::make_shared<const std::string>(std::move(html));
  add_security_headers(response);
  return response;
}

http::Response metrics_response(std::string text) {
  http::Response response = plain_answer(200, std::move(text));
  response.headers.front().second = "text/plain; version=0.0.4; charset=utf-8";
  return response;
}

model::Stats StatsCache::get(std::int64_t now, const std::function<model::Stats()>& read) {
  std::lock_guard lock(m_mutex);
  if (now - m_read_at >= k_stats_lifetime_seconds) {
    try {
      m_stats = read();
    } catch (const core::EnvironmentError& error) {
      // The figures read last time serve; the server's own go on being counted.
      spdlog::debug("serve: /metrics without the directory's figures: {}", error.what());
    }
    m_read_at = now;
  }
  return m_stats;
}

} // namespace podcrawl::serve::internal

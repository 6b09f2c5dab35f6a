#include <algorithm>
#include <iostream>

#include <nlohmann/json.hpp>

#include "context.hpp"
#include "podcrawl/core/time.hpp"
#include "podcrawl/store/crawl_history.hpp"

namespace podcrawl::cli {

namespace {

nlohmann::json hosts_json(const std::vector<model::HostPaceRecord>& hosts) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& host : hosts) {
    out.push_back({{"host", host.host},
                   {"requests", host.requests},
                   {"throttled", host.throttled},
                   {"overloaded", host.overloaded},
                   {"concurrency_reached", host.peak},
                   {"concurrency", host.concurrency},
                   {"mean_latency_seconds", host.mean_latency_seconds}});
  }
  return out;
}

nlohmann::json to_json(const model::Stats& stats) {
  nlohmann::json last_crawl = nullptr;
  if (stats.last_crawl) {
    const auto& run = *stats.last_crawl;
    last_crawl = {{"started_at", nullable_time(run.started_at)},
                  {"finished_at", nullable_time(run.finished_at)},
                  {"fetched", run.fetched},
                  {"not_modified", run.not_modified},
                  {"failed", run.failed},
                  {"new_episodes", run.new_episodes},
                  {"hosts", hosts_json(stats.last_crawl_hosts)}};
  }
  return {{"feeds",
           {{"total", stats.feeds_total},
            {"active", stats.feeds_active},
            {"failing", stats.feeds_failing},
            {"gone", stats.feeds_gone},
            {"removed", stats.feeds_removed}}},
          {"shows", stats.shows},
          {"episodes", stats.episodes},
          {"removed_episodes", stats.removed_episodes},
          {"last_crawl", last_crawl}};
}

} // namespace

void add_stats_command(CLI::App& app, Context& context) {
  auto json = std::make_shared<bool>(false);
  auto* command = app.add_subcommand(
      "stats", "counts: feeds by status, shows, episodes, and the last crawl's outcomes");
  command->add_flag("--json", *json, "print JSON");
  command->callback([json, &context] {
    auto database = context.open_database_to_read();
    const auto stats = store::CrawlHistory(*database).stats();
    if (*json) {
      std::cout << to_json(stats).dump(2) << '\n';
      return;
    }
    std::cout << "feeds: " << stats.feeds_total << " (" << stats.feeds_active << " active, "
              << stats.feeds_failing << " failing, " << stats.feeds_gone << " gone, "
              << stats.feeds_removed << " removed)\n"
              << "shows: " << stats.shows << "\nepisodes: " << stats.episodes << " ("
              << stats.removed_episodes << " removed from their feeds)\n";
    if (stats.last_crawl) {
      const auto& run = *stats.last_crawl;
      std::cout << "last crawl: " << format_optional_time(run.started_at) << " to "
                << format_optional_time(run.finished_at) << ", " << run.fetched << " fetched, "
                << run.not_modified << " not modified, " << run.failed << " failed, "
                << run.new_episodes << " new episodes\n";
      constexpr std::size_t k_text_hosts = 5;
      for (std::size_t i = 0; i < std::min(k_text_hosts, stats.last_crawl_hosts.size()); ++i) {
        const auto& host = stats.last_crawl_hosts[i];
        std::cout << "  " << host.host << ": " << host.requests << " requests, " << host.throttled
                  << " throttled, " << host.overloaded << " overloaded, up to " << host.peak
                  << " at once\n";
      }
    }
  });
}

} // namespace podcrawl::cli

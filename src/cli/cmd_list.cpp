#include <iostream>

#include <nlohmann/json.hpp>

#include "context.hpp"
#include "podcrawl/core/error.hpp"
#include "podcrawl/store/crawl_list.hpp"

namespace podcrawl::cli {

namespace {

nlohmann::json to_json(const store::FeedRecord& feed) {
  return {{"url", feed.url},
          {"status", store::to_string(feed.status)},
          {"last_fetch_at", nullable_time(feed.last_fetch_at)},
          {"next_fetch_at", nullable_time(feed.next_fetch_at)},
          {"last_status", feed.last_status ? nlohmann::json(*feed.last_status) : nullptr},
          {"last_error", nullable(feed.last_error)},
          {"failures", feed.failures},
          {"failure_score", feed.failure_score},
          {"show_slug", nullable(feed.show_slug)}};
}

void print_table(const std::vector<store::FeedRecord>& feeds) {
  for (const auto& feed : feeds) {
    std::cout << store::to_string(feed.status) << '\t' << feed.failures << '\t'
              << format_optional_time(feed.last_fetch_at) << '\t'
              << format_optional_time(feed.next_fetch_at) << '\t' << feed.url;
    if (!feed.last_error.empty()) {
      std::cout << '\t' << feed.last_error;
    }
    std::cout << '\n';
  }
}

} // namespace

void add_list_command(CLI::App& app, Context& context) {
  struct Options {
    bool json = false;
    std::string status = "all";
  };
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand(
      "list", "the crawl list with each feed's status, last fetch, next fetch and last error");
  command->add_flag("--json", options->json, "print a JSON array");
  command->add_option("--status", options->status, "only feeds with this status (default all)")
      ->check(CLI::IsMember({"active", "failing", "gone", "removed", "all"}));
  command->callback([options, &context] {
    auto database = context.open_database_to_read();
    std::vector<store::FeedRecord> feeds;
    if (options->status == "all") {
      // Every status: the listed feeds, then those taken off the list.
      feeds = store::CrawlList(*database).list_feeds(std::nullopt);
      const auto removed = store::CrawlList(*database).list_feeds(store::FeedStatus::removed);
      feeds.insert(feeds.end(), removed.begin(), removed.end());
    } else {
      feeds = store::CrawlList(*database).list_feeds(store::parse_feed_status(options->status));
    }
    if (options->json) {
      auto array = nlohmann::json::array();
      for (const auto& feed : feeds) {
        array.push_back(to_json(feed));
      }
      std::cout << array.dump(2) << '\n';
    } else {
      print_table(feeds);
    }
  });
}

} // namespace podcrawl::cli

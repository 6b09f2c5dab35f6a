#include <iostream>
#include <string>
#include <vector>

#include "context.hpp"
#include "podcrawl/core/error.hpp"
#include "podcrawl/net/url.hpp"
#include "podcrawl/store/crawl_list.hpp"

namespace podcrawl::cli {

void add_remove_command(CLI::App& app, Context& context) {
  auto urls = std::make_shared<std::vector<std::string>>();
  auto* command = app.add_subcommand(
      "remove", "take feeds off the crawl list (their shows stay, marked inactive)");
  command->add_option("urls", *urls, "feed URLs")->required();
  command->callback([urls, &context] {
    auto database = context.open_database();
    int missing = 0;
    for (const auto& given : *urls) {
      const auto url = net::normalize_feed_url(given);
      if (url && store::CrawlList(*database).remove_feed(*url)) {
        std::cout << "removed " << *url << '\n';
      } else {
        std::cout << "error " << given << ": not on the crawl list\n";
        ++missing;
      }
    }
    if (missing > 0) {
      throw core::UsageError(std::to_string(missing) + " URL(s) were not on the crawl list");
    }
  });
}

} // namespace podcrawl::cli

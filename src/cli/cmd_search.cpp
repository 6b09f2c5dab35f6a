#include <iostream>

#include <nlohmann/json.hpp>

#include "context.hpp"
#include "podcrawl/core/error.hpp"

namespace podcrawl::cli {

void add_search_command(CLI::App& app, Context& context) {
  struct Options {
    std::string query;
    std::string language;
    int limit = 20;
    bool json = false;
  };
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand("search", "full-text search over shows and episodes");
  command->add_option("query", options->query, "words to look for")->required();
  command->add_option("--lang", options->language, "language of the query, e.g. ar or en");
  command->add_option("--limit", options->limit, "at most N results")->check(CLI::Range(1, 1000));
  command->add_flag("--json", options->json, "print a JSON array");
  command->callback([options, &context] {
    auto database = context.open_database_to_read();
    const auto hits = database->search(options->query, options->language, options->limit);
    if (options->json) {
      auto array = nlohmann::json::array();
      for (const auto& hit : hits) {
        array.push_back({{"show_slug", hit.show_slug},
                         {"show_title", hit.show_title},
                         {"episode_slug", nullable(hit.episode_slug)},
                         {"episode_title", nullable(hit.episode_title)},
                         {"language", hit.language},
                         {"rank", hit.rank}});
      }
      std::cout << array.dump(2) << '\n';
      return;
    }
    for (const auto& hit : hits) {
      std::cout << hit.show_slug;
      if (!hit.episode_slug.empty()) {
        std::cout << '/' << hit.episode_slug << '\t' << hit.episode_title << " (" << hit.show_title
                  << ")\n";
      } else {
        std::cout << '\t' << hit.show_title << '\n';
      }
    }
  });
}

} // namespace podcrawl::cli

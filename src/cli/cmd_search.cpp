#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "context.hpp"
#include "podcrawl/core/error.hpp"
#include "podcrawl/store/directory_search.hpp"

namespace podcrawl::cli {

namespace {

// Rows of the index rewritten in one transaction by `reindex`.
constexpr int k_reindex_batch = 500;

nlohmann::json result_json(const model::SearchResult& result) {
  auto episodes = nlohmann::json::array();
  for (const auto& episode : result.episodes) {
    episodes.push_back({{"episode_slug", episode.slug}, {"episode_title", episode.episode.title}});
  }
  return {
      {"show_slug", result.show.slug},    {"show_title", result.show.title},
      {"language", result.show.language}, {"matched", result.show_matched ? "show" : "episodes"},
      {"corrected", result.corrected},    {"episodes", std::move(episodes)}};
}

} // namespace

void add_search_command(CLI::App& app, Context& context) {
  struct Options {
    std::string query;
    std::string language;
    int limit = 20;
    bool json = false;
  };
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand(
      "search", "search the directory's shows and episodes, as the site's search page does");
  command->add_option("query", options->query, "words to look for")->required();
  command->add_option("--lang", options->language,
                      "only shows in this language, e.g. ar, en (takes en-US) or zh-TW");
  command->add_option("--limit", options->limit, "at most N shows")
      ->check(CLI::Range(1, static_cast<int>(model::k_search_candidates)));
  command->add_flag("--json", options->json, "print a JSON array, one object per show");
  command->callback([options, &context] {
    auto database = context.open_database_to_read();
    const auto page = store::DirectorySearch(*database).search(
        {options->query, options->language, 0, options->limit});
    if (page.too_long) {
      throw core::UsageError("the query is longer than " +
                             std::to_string(model::k_max_search_query_chars) + " characters");
    }
    if (options->json) {
      auto array = nlohmann::json::array();
      for (const auto& result : page.results) {
        array.push_back(result_json(result));
      }
      std::cout << array.dump(2) << '\n';
      return;
    }
    for (const auto& result : page.results) {
      std::cout << result.show.slug << '\t' << result.show.title << '\n';
      for (const auto& episode : result.episodes) {
        std::cout << result.show.slug << '/' << episode.slug << '\t' << episode.episode.title
                  << '\n';
      }
    }
  });
}

void add_reindex_command(CLI::App& app, Context& context) {
  auto* command = app.add_subcommand(
      "reindex",
      "rebuild the search index of every stored show and episode; search answers "
      "meanwhile");
  command->callback([&context] {
    auto database = context.connect_to_write();
    const bool tty = isatty(STDERR_FILENO) != 0;
    const bool enabled = context.verbosity >= 0;
    auto last = std::chrono::steady_clock::now();
    bool printed = false;
    std::int64_t rows = 0;
    store::DirectorySearch(*database).reindex(
        k_reindex_batch, [&](std::int64_t done, std::int64_t total) {
          rows = done;
          const auto now = std::chrono::steady_clock::now();
          if (!enabled || (now - last < std::chrono::seconds(1) && done < total)) {
            return;
          }
          last = now;
          printed = true;
          std::fprintf(stderr, "%sreindex: %lld of %lld shows and episodes (%.0f%%)%s",
                       tty ? "\r" : "", static_cast<long long>(done), static_cast<long long>(total),
                       100.0 * static_cast<double>(done) /
                           static_cast<double>(std::max<std::int64_t>(total, 1)),
                       tty ? "\x1b[K" : "\n");
        });
    if (printed && tty) {
      std::fputc('\n', stderr);
    }
    std::cout << "reindexed " << rows << " shows and episodes\n";
  });
}

} // namespace podcrawl::cli

#include <fstream>
#include <iostream>

#include "context.hpp"
#include "podcrawl/core/error.hpp"
#include "podcrawl/feed/opml.hpp"
#include "podcrawl/store/crawl_list.hpp"
#include "podcrawl/store/directory_pages.hpp"

namespace podcrawl::cli {

void add_export_opml_command(CLI::App& app, Context& context) {
  auto out = std::make_shared<std::string>();
  auto* command = app.add_subcommand("export-opml", "the crawl list as OPML 2.0");
  command->add_option("--out", *out, "write to this file instead of stdout");
  command->callback([out, &context] {
    auto database = context.open_database_to_read();
    std::vector<feed::OpmlEntry> entries;
    for (const auto& feed : store::CrawlList(*database).list_feeds(std::nullopt)) {
      std::string title = feed.show_slug;
      if (const auto stored = store::DirectoryPages(*database).load_show(feed.url)) {
        title = stored->show.title;
      }
      entries.push_back({feed.url, title});
    }
    const std::string document = feed::write_opml(entries, "podcrawl crawl list");
    if (out->empty()) {
      std::cout << document;
      return;
    }
    std::ofstream file(*out, std::ios::binary);
    file << document;
    if (!file) {
      throw core::EnvironmentError("cannot write " + *out);
    }
  });
}

} // namespace podcrawl::cli

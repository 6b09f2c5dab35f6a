#include <iostream>

#include "context.hpp"
#include "podcrawl/core/error.hpp"
#include "podcrawl/core/time.hpp"
#include "podcrawl/feed/json.hpp"
#include "podcrawl/net/url.hpp"
#include "podcrawl/store/directory_pages.hpp"

namespace podcrawl::cli {

void add_show_command(CLI::App& app, Context& context) {
  auto key = std::make_shared<std::string>();
  auto* command = app.add_subcommand("show", "print a stored show and its episodes as JSON");
  command->add_option("feed", *key, "the feed URL or the show's slug")->required();
  command->callback([key, &context] {
    auto database = context.open_database_to_read();
    const std::string lookup = net::normalize_feed_url(*key).value_or(*key);
    const auto stored = store::DirectoryPages(*database).load_show(lookup);
    if (!stored) {
      throw core::UsageError("no stored show for " + *key);
    }
    feed::Show show = stored->show;
    for (const auto& episode : stored->episodes) {
      show.episodes.push_back(episode.episode);
    }
    auto json = feed::to_json(show);
    json["feed_url"] = stored->feed_url;
    json["slug"] = stored->slug;
    json["effective_language"] = stored->show.effective_language;
    json["added_at"] = core::format_iso8601(stored->added_at);
    if (const auto& art = stored->artwork) {
      nlohmann::json renditions = nlohmann::json::array();
      for (const model::ArtRendition& rendition : art->renditions) {
        renditions.push_back(
            {{"width", rendition.width},
             {"height", rendition.height},
             {"path", "art/" + model::art_file_name(art->content_hash, rendition.width)}});
      }
      json["artwork"] = std::move(renditions);
    }
    std::cout << json.dump(2) << '\n';
  });
}

} // namespace podcrawl::cli

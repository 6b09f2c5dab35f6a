#include <utility>

#include <nlohmann/json.hpp>

#include "api_json_internal.hpp"
#include "podcrawl/core/time.hpp"
#include "podcrawl/render/api.hpp"
#include "podcrawl/render/layout.hpp"
#include "podcrawl/render/paths.hpp"
#include "render_internal.hpp"

// The searches apps call without a key: Apple's iTunes Search API (/search, /lookup), which most
// podcast apps were written against, and gpodder.net's directory search (/search.json), which
// gPodder and mygpoclient speak. Field names and types as those services write them.

namespace podcrawl::render::api {

namespace {

using internal::Json;
using internal::object_with_room;

// The genre every podcast is under in the iTunes Store, and its id.
constexpr const char* k_podcasts_genre = "Podcasts";
constexpr const char* k_podcasts_genre_id = "26";
// The logo width gpodder.net scales to when the request names none.
constexpr int k_default_logo_width = 64;

std::string show_page_url(const model::DirectoryFeed& feed, const SiteLinks& site) {
  return page_url(site.site_url, site.locale, show_path(feed.show.slug));
}

// The URL of the narrowest rendition of the show's cover art at least `width` wide (else the
// widest); the feed's own image URL when the site publishes none.
std::string art_url(const model::DirectoryFeed& feed, const SiteLinks& site, int width) {
  const auto& artwork = feed.show.artwork;
  if (!site.art || !internal::has_artwork(artwork)) {
    return feed.show.show.image;
  }
  const model::ArtRendition* chosen = &artwork->renditions.back();
  for (const auto& rendition : artwork->renditions) {
    if (rendition.width >= width) {
      chosen = &rendition;
      break;
    }
  }
  return site.site_url + "/" + internal::art_path(*artwork, *chosen);
}

Json itunes_result(const model::DirectoryFeed& feed, const SiteLinks& site) {
  const feed::Show& show = feed.show.show;
  const bool explicit_content = show.explicit_content.value_or(false);
  const std::string page = show_page_url(feed, site);
  Json genre_ids = Json::array();
  Json genres = Json::array();
  for (const auto& category : feed.categories) {
    genre_ids.push_back(std::to_string(category.id));
    genres.push_back(category.name);
  }
  genre_ids.push_back(k_podcasts_genre_id);
  genres.push_back(k_podcasts_genre);
  Json json = object_with_room();
  json["wrapperType"] = "track";
  json["kind"] = "podcast";
  json["collectionId"] = feed.id;
  json["trackId"] = feed.id;
  json["artistName"] = show.author;
  json["collectionName"] = show.title;
  json["trackName"] = show.title;
  json["collectionCensoredName"] = show.title;
  json["trackCensoredName"] = show.title;
  json["collectionViewUrl"] = page;
  json["feedUrl"] = feed.show.feed_url;
  json["trackViewUrl"] = page;
  json["artworkUrl30"] = art_url(feed, site, 30);
  json["artworkUrl60"] = art_url(feed, site, 60);
  json["artworkUrl100"] = art_url(feed, site, 100);
  json["artworkUrl600"] = art_url(feed, site, 600);
  json["collectionPrice"] = 0;
  json["trackPrice"] = 0;
  json["collectionHdPrice"] = 0;
  json["releaseDate"] = core::format_iso8601(feed.newest_item_at.value_or(feed.show.updated_at));
  json["collectionExplicitness"] = explicit_content ? "explicit" : "notExplicit";
  json["trackExplicitness"] = explicit_content ? "explicit" : "notExplicit";
  json["trackCount"] = feed.episode_count;
  json["country"] = "USA";
  json["currency"] = "USD";
  json["primaryGenreName"] =
      feed.categories.empty() ? std::string(k_podcasts_genre) : feed.categories.front().name;
  json["contentAdvisoryRating"] = explicit_content ? "Explicit" : "Clean";
  json["genreIds"] = std::move(genre_ids);
  json["genres"] = std::move(genres);
  return json;
}

std::string dump(const Json& json) {
  return json.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

} // namespace

std::string itunes_answer(const std::vector<model::DirectoryFeed>& feeds, const SiteLinks& site) {
  Json results = Json::array();
  for (const auto& feed : feeds) {
    results.push_back(itunes_result(feed, site));
  }
  Json json = object_with_room();
  json["resultCount"] = feeds.size();
  json["results"] = std::move(results);
  return dump(json);
}

std::string gpodder_json(const std::vector<model::DirectoryFeed>& feeds, const SiteLinks& site,
                         std::optional<int> scale_logo) {
  Json list = Json::array();
  for (const auto& feed : feeds) {
    const feed::Show& show = feed.show.show;
    Json json = object_with_room();
    json["url"] = feed.show.feed_url;
    json["title"] = show.title.empty() ? feed.show.feed_url : show.title;
    json["author"] = show.author;
    json["description"] = short_text(show.description);
    json["subscribers"] = 0;
    json["subscribers_last_week"] = 0;
    json["logo_url"] = show.image;
    json["scaled_logo_url"] = art_url(feed, site, scale_logo.value_or(k_default_logo_width));
    json["website"] = show.link;
    json["mygpo_link"] = show_page_url(feed, site);
    list.push_back(std::move(json));
  }
  return dump(list);
}

std::string gpodder_opml(const std::vector<model::DirectoryFeed>& feeds, const std::string& query) {
  std::string outlines;
  for (const auto& feed : feeds) {
    outlines += internal::opml_outline(feed.show);
  }
  return internal::opml_document(query, outlines);
}

std::string gpodder_txt(const std::vector<model::DirectoryFeed>& feeds) {
  std::string text;
  for (const auto& feed : feeds) {
    const std::string url = internal::http_url_or_empty(feed.show.feed_url);
    if (!url.empty()) {
      text += url + "\n";
    }
  }
  return text;
}

} // namespace podcrawl::render::api

#include <ctime>
#include <utility>

#include <zlib.h>
#include <nlohmann/json.hpp>

#include "api_json_internal.hpp"
#include "json_writer.hpp"
#include "podcrawl/html/sanitize.hpp"
#include "podcrawl/render/api.hpp"

// The Podcast Index API's answers (https://podcastindex-org.github.io/docs-api/), field for
// field and convention for convention: `status` is the string "true", counts are numbers, a
// feed's `explicit` is a boolean and an episode's 0 or 1, dates are Unix seconds, a feed or an
// episode not found is an empty array where the object would be.

namespace podcrawl::render::api {

namespace {

using internal::Json;
using internal::JsonWriter;
using internal::object_with_room;

// Words of a description an answer without `fulltext` keeps.
constexpr std::size_t k_short_words = 100;
// The visible text read from a description before it is cut to words: far more than 100 words.
constexpr std::size_t k_short_text_chars = 4000;

std::string dump(const Json& json, const AnswerStyle& style) {
  return json.dump(style.pretty ? 4 : -1, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string described(const std::string& html, const AnswerStyle& style) {
  return style.fulltext ? html : short_text(html);
}

// The categories as Podcast Index writes them: {"<id>": "<name>"}, null when there are none.
void write_categories(JsonWriter& out, const model::DirectoryFeed& feed) {
  if (feed.categories.empty()) {
    out.null();
    return;
  }
  out.begin_object();
  for (const auto& category : feed.categories) {
    out.key(std::to_string(category.id)).value(category.name);
  }
  out.end_object();
}

bool is_dead(const model::DirectoryFeed& feed) {
  return feed.status == "gone" || feed.status == "removed";
}

// A feed object: podcasts/*'s whole, or a search result's (without itunesType, chash and
// funding, with newestItemPubdate).
enum class FeedKind { podcast, search_result };

void write_feed(JsonWriter& out, const model::DirectoryFeed& feed, const AnswerStyle& style,
                FeedKind kind) {
  const feed::Show& show = feed.show.show;
  out.begin_object();
  out.key("id").value(feed.id);
  out.key("podcastGuid").value(feed.podcast_guid);
  out.key("title").value(show.title);
  out.key("url").value(feed.show.feed_url);
  out.key("originalUrl").value(feed.original_url);
  out.key("link").value(show.link);
  out.key("description").value(described(show.description, style));
  out.key("author").value(show.author);
  out.key("ownerName").value(show.itunes.owner_name);
  out.key("image").value(show.image);
  out.key("artwork").value(show.image);
  out.key("lastUpdateTime").value(feed.show.updated_at);
  out.key("lastCrawlTime").value(feed.last_fetch_at.value_or(0));
  out.key("lastParseTime").value(feed.last_success_at.value_or(0));
  out.key("lastGoodHttpStatusTime").value(feed.last_success_at.value_or(0));
  out.key("lastHttpStatus").value(feed.last_http_status.value_or(0));
  out.key("contentType").value("");
  out.key("itunesId").null();
  if (kind == FeedKind::podcast) {
    out.key("itunesType").value(show.itunes.type);
  }
  out.key("generator").null();
  out.key("language").value(show.language);
  out.key("explicit").value(show.explicit_content.value_or(false));
  out.key("type").value(0);
  out.key("medium").value(show.podcast.medium.empty() ? "podcast" : show.podcast.medium);
  out.key("dead").value(is_dead(feed) ? 1 : 0);
  if (kind == FeedKind::podcast) {
    out.key("chash").value(feed.content_hash);
  }
  out.key("episodeCount").value(feed.episode_count);
  out.key("crawlErrors").value(feed.failures);
  out.key("parseErrors").value(0);
  out.key("categories");
  write_categories(out, feed);
  out.key("locked").value(show.podcast.locked.value_or(false) ? 1 : 0);
  out.key("imageUrlHash").value(image_url_hash(show.image));
  if (kind == FeedKind::search_result) {
    out.key("newestItemPubdate").value(feed.newest_item_at);
  } else if (!show.podcast.funding.empty()) {
    out.key("funding").begin_object();
    out.key("url").value(show.podcast.funding.front().url);
    out.key("message").value(show.podcast.funding.front().text);
    out.end_object();
  }
  out.end_object();
}

Json episode_json(const model::DirectoryEpisode& stored, const AnswerStyle& style) {
  const feed::Episode& episode = stored.episode.episode;
  Json json = object_with_room();
  json["id"] = stored.id;
  json["title"] = episode.title;
  json["link"] = episode.link;
  json["description"] = described(episode.description, style);
  json["guid"] = episode.guid;
  json["datePublished"] = episode.published.value_or(0);
  json["datePublishedPretty"] = episode.published ? pretty_date(*episode.published) : "";
  json["dateCrawled"] = stored.first_seen_at;
  json["enclosureUrl"] = episode.enclosure_url;
  json["enclosureType"] = episode.enclosure_type;
  json["enclosureLength"] = episode.enclosure_length.value_or(0);
  json["duration"] = episode.duration_seconds.value_or(0);
  json["explicit"] = episode.explicit_content.value_or(false) ? 1 : 0;
  json["episode"] = episode.episode ? Json(*episode.episode) : Json(nullptr);
  json["episodeType"] =
      episode.itunes.episode_type.empty() ? Json("full") : Json(episode.itunes.episode_type);
  json["season"] = episode.season.value_or(0);
  json["image"] = episode.image;
  json["feedItunesId"] = nullptr;
  json["feedUrl"] = stored.feed_url;
  json["feedImage"] = stored.feed_image;
  json["feedId"] = stored.feed_id;
  json["podcastGuid"] = stored.podcast_guid;
  json["feedTitle"] = stored.feed_title;
  json["feedLanguage"] = stored.feed_language;
  json["feedDead"] = stored.feed_dead ? 1 : 0;
  json["feedDuplicateOf"] = nullptr;
  json["chaptersUrl"] = episode.chapters_url.empty() ? Json(nullptr) : Json(episode.chapters_url);
  json["transcriptUrl"] =
      episode.transcripts.empty() ? Json(nullptr) : Json(episode.transcripts.front().url);
  if (!episode.transcripts.empty()) {
    Json transcripts = Json::array();
    for (const auto& transcript : episode.transcripts) {
      transcripts.push_back({{"url", transcript.url}, {"type", transcript.type}});
    }
    json["transcripts"] = std::move(transcripts);
  }
  if (!episode.podcast.soundbites.empty()) {
    Json soundbites = Json::array();
    for (const auto& soundbite : episode.podcast.soundbites) {
      soundbites.push_back({{"startTime", soundbite.start_seconds},
                            {"duration", soundbite.duration_seconds},
                            {"title", soundbite.title}});
    }
    json["soundbite"] = soundbites.front();
    json["soundbites"] = std::move(soundbites);
  }
  if (!episode.podcast.persons.empty()) {
    Json persons = Json::array();
    for (const auto& person : episode.podcast.persons) {
      persons.push_back({{"name", person.name},
                         {"role", person.role},
                         {"group", person.group},
                         {"href", person.href},
                         {"img", person.image}});
    }
    json["persons"] = std::move(persons);
  }
  return json;
}

Json episodes_json(const std::vector<model::DirectoryEpisode>& episodes, const AnswerStyle& style) {
  Json items = Json::array();
  for (const auto& episode : episodes) {
    items.push_back(episode_json(episode, style));
  }
  return items;
}

Json echo(const QueryEcho& query) {
  Json json = Json::object();
  for (const auto& [name, value] : query) {
    json[name] = value;
  }
  return json;
}

} // namespace

std::uint32_t image_url_hash(const std::string& url) {
  std::string_view rest = url;
  if (const auto scheme = rest.find("://"); scheme != std::string_view::npos) {
    rest.remove_prefix(scheme + 3);
  }
  return static_cast<std::uint32_t>(
      crc32(0L, reinterpret_cast<const Bytef*>(rest.data()), static_cast<uInt>(rest.size())));
}

std::string pretty_date(std::int64_t unix_seconds) {
  static constexpr const char* k_months[] = {"January",   "February", "March",    "April",
                                             "May",       "June",     "July",     "August",
                                             "September", "October",  "November", "December"};
  const auto time = static_cast<std::time_t>(unix_seconds);
  std::tm utc{};
  if (gmtime_r(&time, &utc) == nullptr) {
    return {};
  }
  const int hour = utc.tm_hour % 12 == 0 ? 12 : utc.tm_hour % 12;
  char text[64];
  std::snprintf(text, sizeof text, "%s %02d, %d %d:%02d%s", k_months[utc.tm_mon], utc.tm_mday,
                utc.tm_year + 1900, hour, utc.tm_min, utc.tm_hour < 12 ? "am" : "pm");
  return text;
}

std::string short_text(const std::string& html) {
  const std::string text = html::plain_text(html, k_short_text_chars);
  std::size_t words = 0;
  bool in_word = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool space = text[i] == ' ';
    if (!space && !in_word && ++words > k_short_words) {
      return text.substr(0, i - 1);
    }
    in_word = !space;
  }
  return text;
}

std::string search_answer(const std::vector<model::DirectoryFeed>& feeds, const std::string& query,
                          const AnswerStyle& style) {
  JsonWriter out(style.pretty);
  out.begin_object();
  out.key("status").value("true");
  out.key("feeds").begin_array();
  for (const auto& feed : feeds) {
    write_feed(out, feed, style, FeedKind::search_result);
  }
  out.end_array();
  out.key("count").value(feeds.size());
  out.key("query").value(query);
  out.key("description").value("Found matching feeds");
  out.end_object();
  return out.take() + "\n";
}

std::string feed_answer(const std::optional<model::DirectoryFeed>& feed, const QueryEcho& query,
                        const AnswerStyle& style) {
  JsonWriter out(style.pretty);
  out.begin_object();
  out.key("status").value("true");
  out.key("query").begin_object();
  for (const auto& [name, value] : query) {
    out.key(name).value(value);
  }
  out.end_object();
  out.key("feed");
  if (feed) {
    write_feed(out, *feed, style, FeedKind::podcast);
  } else {
    out.begin_array().end_array();
  }
  out.key("description").value(feed ? "Found matching feed" : "No feeds match this id.");
  out.end_object();
  return out.take() + "\n";
}

std::string episodes_answer(const std::vector<model::DirectoryEpisode>& episodes,
                            const EpisodesQuery& query, const AnswerStyle& style) {
  Json json = object_with_room();
  json["status"] = "true";
  json["liveItems"] = Json::array();
  json["items"] = episodes_json(episodes, style);
  json["count"] = episodes.size();
  if (!query.object.empty()) {
    json["query"] = echo(query.object);
  } else if (query.ids.size() == 1) {
    json["query"] = query.ids.front();
  } else {
    json["query"] = query.ids;
  }
  json["description"] = episodes.empty() ? "No items for this feed" : "Found matching items.";
  return dump(json, style);
}

std::string episode_answer(const std::optional<model::DirectoryEpisode>& episode,
                           const std::string& id, const AnswerStyle& style) {
  Json json = object_with_room();
  json["status"] = "true";
  json["id"] = id;
  Json found = episode ? episode_json(*episode, style) : Json::array();
  if (episode) {
    found["imageUrlHash"] = image_url_hash(episode->episode.episode.image);
  }
  json["episode"] = std::move(found);
  json["description"] = episode ? "Found matching item." : "No episodes match this id.";
  return dump(json, style);
}

std::string recent_episodes_answer(const std::vector<model::DirectoryEpisode>& episodes,
                                   std::int64_t max, const AnswerStyle& style) {
  Json json = object_with_room();
  json["status"] = "true";
  json["items"] = episodes_json(episodes, style);
  json["count"] = episodes.size();
  json["max"] = std::to_string(max);
  json["description"] = "Found matching items.";
  return dump(json, style);
}

std::string recent_feeds_answer(const std::vector<model::DirectoryFeed>& feeds, std::int64_t max,
                                std::optional<std::int64_t> since, const AnswerStyle& style) {
  JsonWriter out(style.pretty);
  out.begin_object();
  out.key("status").value("true");
  out.key("feeds").begin_array();
  for (const auto& feed : feeds) {
    const feed::Show& show = feed.show.show;
    out.begin_object();
    out.key("id").value(feed.id);
    out.key("url").value(feed.show.feed_url);
    out.key("title").value(show.title);
    out.key("description").value(described(show.description, style));
    out.key("image").value(show.image);
    out.key("newestItemPublishTime").value(feed.newest_item_at.value_or(0));
    out.key("oldestItemPublishTime").value(feed.oldest_item_at.value_or(0));
    out.key("itunesId").null();
    out.key("language").value(show.language);
    out.key("categories");
    write_categories(out, feed);
    out.end_object();
  }
  out.end_array();
  out.key("count").value(feeds.size());
  out.key("max").value(std::to_string(max));
  out.key("since").value(since);
  out.key("description").value("Found matching feeds");
  out.end_object();
  return out.take() + "\n";
}

std::string categories_answer(const std::vector<model::CategoryRef>& categories,
                              const AnswerStyle& style) {
  Json list = Json::array();
  for (const auto& category : categories) {
    list.push_back({{"id", category.id}, {"name", category.name}});
  }
  Json json = object_with_room();
  json["status"] = "true";
  json["feeds"] = std::move(list);
  json["count"] = categories.size();
  json["description"] = "Categories list";
  return dump(json, style);
}

std::string stats_answer(const model::DirectoryCounts& counts, const AnswerStyle& style) {
  Json json = object_with_room();
  json["status"] = "true";
  json["stats"] = {{"feedCountTotal", counts.feeds},
                   {"episodeCountTotal", counts.episodes},
                   {"feedsWithNewEpisodes3days", counts.feeds_new_3_days},
                   {"feedsWithNewEpisodes10days", counts.feeds_new_10_days},
                   {"feedsWithNewEpisodes30days", counts.feeds_new_30_days},
                   {"feedsWithNewEpisodes90days", counts.feeds_new_90_days},
                   {"feedsWithValueBlocks", 0}};
  json["description"] = "Stats for the current index";
  return dump(json, style);
}

std::string pubnotify_answer(bool marked, bool too_soon) {
  Json json = object_with_room();
  json["status"] = marked ? "true" : "false";
  json["description"] = marked     ? "Feed marked for immediate update."
                        : too_soon ? "This feed was marked less than a minute ago."
                                   : "No feed in the directory matches this id or url.";
  return dump(json, {});
}

std::string added_answer(std::int64_t feed_id, bool existed) {
  Json json = object_with_room();
  json["status"] = "true";
  json["feedId"] = feed_id;
  json["existed"] = existed ? "true" : "false";
  json["description"] = existed ? "Feed already in the directory." : "Feed added.";
  return dump(json, {});
}

std::string not_added_answer(const std::string& why) {
  Json json = object_with_room();
  json["status"] = "false";
  json["description"] = why;
  return dump(json, {});
}

std::string invalid_parameters_answer() {
  return "{\"status\":\"false\",\"description\":\"Invalid parameters\"}\n";
}

} // namespace podcrawl::render::api

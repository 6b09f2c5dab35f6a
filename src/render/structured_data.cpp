#include <nlohmann/json.hpp>

#include "podcrawl/core/time.hpp"
#include "podcrawl/html/escape.hpp"
#include "podcrawl/html/sanitize.hpp"
#include "render_internal.hpp"

namespace podcrawl::render::internal {

namespace {

using Json = nlohmann::ordered_json;

// Descriptions in structured data are plain text cut to this many characters.
constexpr std::size_t k_json_description_chars = 500;

// JSON text that cannot end its <script> element or open a comment or CDATA section in it:
// "<", ">" and "&" are written as \u escapes, which mean the same to a JSON parser. U+2028 and
// U+2029 are escaped too, for consumers that evaluate the text as JavaScript.
std::string script_safe(const Json& json) {
  const std::string text = json.dump(-1, ' ', false, Json::error_handler_t::replace);
  std::string result;
  result.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '<') {
      result += "\\u003c";
    } else if (c == '>') {
      result += "\\u003e";
    } else if (c == '&') {
      result += "\\u0026";
    } else if (text.compare(i, 3, "\u2028") == 0) {
      result += "\\u2028";
      i += 2;
    } else if (text.compare(i, 3, "\u2029") == 0) {
      result += "\\u2029";
      i += 2;
    } else {
      result += c;
    }
  }
  return result;
}

void set_if(Json& json, const char* key, const std::string& value) {
  if (!value.empty()) {
    json[key] = value;
  }
}

Json series(const Site& site, const l10n::Localizer& localizer, const model::StoredShow& stored) {
  Json json;
  json["@type"] = "PodcastSeries";
  json["name"] = stored.show.title;
  json["url"] = page_url(site, localizer.tag(), show_path(stored.slug));
  return json;
}

} // namespace

std::string show_json_ld(const Site& site, const l10n::Localizer& localizer,
                         const model::ShowPage& page) {
  const auto& stored = page.show;
  const auto& show = stored.show;
  Json json;
  json["@context"] = "https://schema.org";
  json.update(series(site, localizer, stored));
  set_if(json, "description", html::plain_text(show.description, k_json_description_chars));
  set_if(json, "inLanguage", language_tag_or_empty(show.effective_language));
  set_if(json, "webFeed", http_url_or_empty(stored.feed_url));
  set_if(json, "image", artwork_url(site, stored.artwork));
  set_if(json, "sameAs", http_url_or_empty(show.link));
  if (!show.author.empty()) {
    json["author"] = {{"@type", "Person"}, {"name", show.author}};
  }
  if (!page.categories.empty()) {
    Json genres = Json::array();
    for (const auto& category : page.categories) {
      genres.push_back(category.name);
    }
    json["genre"] = genres;
  }
  json["numberOfEpisodes"] = page.episode_count;
  return script_safe(json);
}

std::string episode_json_ld(const Site& site, const l10n::Localizer& localizer,
                            const model::EpisodePage& page) {
  const auto& stored = page.show;
  const auto& episode = stored.episodes.at(0).episode;
  Json json;
  json["@context"] = "https://schema.org";
  json["@type"] = "PodcastEpisode";
  json["name"] = episode.title.empty() ? localizer.text("untitled_episode") : episode.title;
  json["url"] =
      page_url(site, localizer.tag(), episode_path(stored.slug, stored.episodes.at(0).slug));
  set_if(json, "description", html::plain_text(episode.description, k_json_description_chars));
  set_if(json, "inLanguage", language_tag_or_empty(stored.show.effective_language));
  if (const auto published = plausible_time(episode.published)) {
    json["datePublished"] = core::format_iso8601(*published);
  }
  if (episode.duration_seconds && *episode.duration_seconds > 0) {
    json["timeRequired"] = iso_duration(*episode.duration_seconds);
  }
  if (episode.episode) {
    json["episodeNumber"] = *episode.episode;
  }
  if (episode.season) {
    json["partOfSeason"] = {{"@type", "PodcastSeason"}, {"seasonNumber", *episode.season}};
  }
  if (const std::string audio = http_url_or_empty(episode.enclosure_url); !audio.empty()) {
    Json media = {{"@type", "AudioObject"}, {"contentUrl", audio}};
    set_if(media, "encodingFormat", episode.enclosure_type);
    json["associatedMedia"] = media;
  }
  json["partOfSeries"] = series(site, localizer, stored);
  return script_safe(json);
}

std::string opml_outline(const model::StoredShow& stored) {
  const std::string feed_url = http_url_or_empty(stored.feed_url);
  if (feed_url.empty()) {
    return {};
  }
  const auto& show = stored.show;
  const std::string language = language_tag_or_empty(show.effective_language);
  std::string outline = "    <outline type=\"rss\" text=\"" + html::escaped_xml(show.title) +
                        "\" title=\"" + html::escaped_xml(show.title) + "\" xmlUrl=\"" +
                        html::escaped_xml(feed_url) + "\"";
  if (const std::string link = http_url_or_empty(show.link); !link.empty()) {
    outline += " htmlUrl=\"" + html::escaped_xml(link) + "\"";
  }
  if (!language.empty()) {
    outline += " language=\"" + html::escaped_xml(language) + "\"";
  }
  return outline + "/>\n";
}

std::string opml_document(std::string_view title, std::string_view outlines) {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\">\n  <head>\n"
         "    <title>" +
         html::escaped_xml(title) + "</title>\n  </head>\n  <body>\n" + std::string(outlines) +
         "  </body>\n</opml>\n";
}

std::string show_opml(const model::StoredShow& stored) {
  const std::string outline = opml_outline(stored);
  return outline.empty() ? std::string() : opml_document(stored.show.title, outline);
}

} // namespace podcrawl::render::internal

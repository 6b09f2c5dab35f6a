#include "podcrawl/feed/json.hpp"

namespace podcrawl::feed {
namespace {

nlohmann::json text_or_null(const std::string& text) {
  return text.empty() ? nlohmann::json(nullptr) : nlohmann::json(text);
}

template <typename T>
nlohmann::json value_or_null(const std::optional<T>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

nlohmann::json episode_json(const Episode& episode) {
  nlohmann::json transcripts = nlohmann::json::array();
  for (const Transcript& transcript : episode.transcripts) {
    transcripts.push_back({{"url", transcript.url}, {"type", text_or_null(transcript.type)}});
  }
  return {
      {"guid", text_or_null(episode.guid)},
      {"title", text_or_null(episode.title)},
      {"published", value_or_null(episode.published)},
      {"enclosure_url", text_or_null(episode.enclosure_url)},
      {"enclosure_type", text_or_null(episode.enclosure_type)},
      {"enclosure_length", value_or_null(episode.enclosure_length)},
      {"duration_seconds", value_or_null(episode.duration_seconds)},
      {"link", text_or_null(episode.link)},
      {"description", text_or_null(episode.description)},
      {"season", value_or_null(episode.season)},
      {"episode", value_or_null(episode.episode)},
      {"explicit", value_or_null(episode.explicit_content)},
      {"image", text_or_null(episode.image)},
      {"transcripts", transcripts},
      {"chapters_url", text_or_null(episode.chapters_url)},
  };
}

} // namespace

nlohmann::json to_json(const Show& show) {
  nlohmann::json episodes = nlohmann::json::array();
  for (const Episode& episode : show.episodes) {
    episodes.push_back(episode_json(episode));
  }
  return {
      {"title", text_or_null(show.title)},
      {"link", text_or_null(show.link)},
      {"description", text_or_null(show.description)},
      {"language", text_or_null(show.language)},
      {"image", text_or_null(show.image)},
      {"author", text_or_null(show.author)},
      {"explicit", value_or_null(show.explicit_content)},
      {"categories", show.categories},
      {"podcast_guid", text_or_null(show.podcast_guid)},
      {"new_feed_url", text_or_null(show.new_feed_url)},
      {"feed_url", text_or_null(show.feed_url)},
      {"episodes", episodes},
  };
}

} // namespace podcrawl::feed

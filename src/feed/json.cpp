#include "podcrawl/feed/json.hpp"

#include <cstdint>
#include <ostream>
#include <string_view>
#include <type_traits>

#include "podcrawl/core/json_string.hpp"

namespace podcrawl::feed {
namespace {

// Members written only when present.
void put(nlohmann::json& out, const char* key, const std::string& value) {
  if (!value.empty()) {
    out[key] = value;
  }
}

template <typename T>
void put(nlohmann::json& out, const char* key, const std::optional<T>& value) {
  if (value) {
    out[key] = *value;
  }
}

template <typename T>
void put(nlohmann::json& out, const char* key, const std::vector<T>& values) {
  if (!values.empty()) {
    out[key] = values;
  }
}

// Members read when present with the expected type; anything else leaves the value as it was.
void get(const nlohmann::json& in, const char* key, std::string& value) {
  if (auto it = in.find(key); it != in.end() && it->is_string()) {
    value = it->get<std::string>();
  }
}

template <typename T>
void get(const nlohmann::json& in, const char* key, std::optional<T>& value) {
  auto it = in.find(key);
  if (it == in.end()) {
    return;
  }
  if constexpr (std::is_same_v<T, bool>) {
    if (it->is_boolean()) {
      value = it->get<bool>();
    }
  } else if constexpr (std::is_arithmetic_v<T>) {
    if (it->is_number()) {
      value = it->get<T>();
    }
  } else if (it->is_object()) {
    value = it->get<T>();
  }
}

template <typename T>
void get(const nlohmann::json& in, const char* key, std::vector<T>& values) {
  auto it = in.find(key);
  if (it == in.end() || !it->is_array()) {
    return;
  }
  for (const nlohmann::json& item : *it) {
    if constexpr (std::is_same_v<T, std::string>) {
      if (item.is_string()) {
        values.push_back(item.get<std::string>());
      }
    } else if (item.is_object()) {
      values.push_back(item.get<T>());
    }
  }
}

// An object without members is written as null.
void null_when_empty(nlohmann::json& out) {
  if (out.empty()) {
    out = nullptr;
  }
}

} // namespace

void to_json(nlohmann::json& out, const Person& person) {
  out = nlohmann::json::object();
  put(out, "name", person.name);
  put(out, "role", person.role);
  put(out, "group", person.group);
  put(out, "image", person.image);
  put(out, "href", person.href);
}

void from_json(const nlohmann::json& in, Person& person) {
  get(in, "name", person.name);
  get(in, "role", person.role);
  get(in, "group", person.group);
  get(in, "image", person.image);
  get(in, "href", person.href);
}

void to_json(nlohmann::json& out, const Funding& funding) {
  out = nlohmann::json::object();
  put(out, "url", funding.url);
  put(out, "text", funding.text);
}

void from_json(const nlohmann::json& in, Funding& funding) {
  get(in, "url", funding.url);
  get(in, "text", funding.text);
}

void to_json(nlohmann::json& out, const Location& location) {
  out = nlohmann::json::object();
  put(out, "name", location.name);
  put(out, "geo", location.geo);
  put(out, "osm", location.osm);
}

void from_json(const nlohmann::json& in, Location& location) {
  get(in, "name", location.name);
  get(in, "geo", location.geo);
  get(in, "osm", location.osm);
}

void to_json(nlohmann::json& out, const License& license) {
  out = nlohmann::json::object();
  put(out, "name", license.name);
  put(out, "url", license.url);
}

void from_json(const nlohmann::json& in, License& license) {
  get(in, "name", license.name);
  get(in, "url", license.url);
}

void to_json(nlohmann::json& out, const Image& image) {
  out = nlohmann::json::object();
  put(out, "url", image.url);
  put(out, "width", image.width);
}

void from_json(const nlohmann::json& in, Image& image) {
  get(in, "url", image.url);
  get(in, "width", image.width);
}

void to_json(nlohmann::json& out, const Soundbite& soundbite) {
  out = {{"start_seconds", soundbite.start_seconds},
         {"duration_seconds", soundbite.duration_seconds}};
  put(out, "title", soundbite.title);
}

void from_json(const nlohmann::json& in, Soundbite& soundbite) {
  std::optional<double> start;
  std::optional<double> duration;
  get(in, "start_seconds", start);
  get(in, "duration_seconds", duration);
  soundbite.start_seconds = start.value_or(0);
  soundbite.duration_seconds = duration.value_or(0);
  get(in, "title", soundbite.title);
}

void to_json(nlohmann::json& out, const AlternateEnclosure& enclosure) {
  out = nlohmann::json::object();
  put(out, "type", enclosure.type);
  put(out, "length", enclosure.length);
  put(out, "bitrate", enclosure.bitrate);
  put(out, "height", enclosure.height);
  put(out, "language", enclosure.language);
  put(out, "title", enclosure.title);
  put(out, "rel", enclosure.rel);
  put(out, "codecs", enclosure.codecs);
  if (enclosure.is_default) {
    out["default"] = true;
  }
  put(out, "sources", enclosure.sources);
}

void from_json(const nlohmann::json& in, AlternateEnclosure& enclosure) {
  get(in, "type", enclosure.type);
  get(in, "length", enclosure.length);
  get(in, "bitrate", enclosure.bitrate);
  get(in, "height", enclosure.height);
  get(in, "language", enclosure.language);
  get(in, "title", enclosure.title);
  get(in, "rel", enclosure.rel);
  get(in, "codecs", enclosure.codecs);
  std::optional<bool> is_default;
  get(in, "default", is_default);
  enclosure.is_default = is_default.value_or(false);
  get(in, "sources", enclosure.sources);
}

void to_json(nlohmann::json& out, const Trailer& trailer) {
  out = nlohmann::json::object();
  put(out, "url", trailer.url);
  put(out, "title", trailer.title);
  put(out, "type", trailer.type);
  put(out, "published", trailer.published);
  put(out, "length", trailer.length);
  put(out, "season", trailer.season);
}

void from_json(const nlohmann::json& in, Trailer& trailer) {
  get(in, "url", trailer.url);
  get(in, "title", trailer.title);
  get(in, "type", trailer.type);
  get(in, "published", trailer.published);
  get(in, "length", trailer.length);
  get(in, "season", trailer.season);
}

void to_json(nlohmann::json& out, const UpdateFrequency& frequency) {
  out = nlohmann::json::object();
  put(out, "text", frequency.text);
  put(out, "rrule", frequency.rrule);
  put(out, "complete", frequency.complete);
  put(out, "start", frequency.start);
}

void from_json(const nlohmann::json& in, UpdateFrequency& frequency) {
  get(in, "text", frequency.text);
  get(in, "rrule", frequency.rrule);
  get(in, "complete", frequency.complete);
  get(in, "start", frequency.start);
}

void to_json(nlohmann::json& out, const ItunesShow& itunes) {
  out = nlohmann::json::object();
  put(out, "owner_name", itunes.owner_name);
  put(out, "owner_email", itunes.owner_email);
  put(out, "type", itunes.type);
  put(out, "block", itunes.block);
  put(out, "complete", itunes.complete);
  put(out, "keywords", itunes.keywords);
  null_when_empty(out);
}

void from_json(const nlohmann::json& in, ItunesShow& itunes) {
  get(in, "owner_name", itunes.owner_name);
  get(in, "owner_email", itunes.owner_email);
  get(in, "type", itunes.type);
  get(in, "block", itunes.block);
  get(in, "complete", itunes.complete);
  get(in, "keywords", itunes.keywords);
}

void to_json(nlohmann::json& out, const ItunesEpisode& itunes) {
  out = nlohmann::json::object();
  put(out, "episode_type", itunes.episode_type);
  put(out, "block", itunes.block);
  put(out, "keywords", itunes.keywords);
  null_when_empty(out);
}

void from_json(const nlohmann::json& in, ItunesEpisode& itunes) {
  get(in, "episode_type", itunes.episode_type);
  get(in, "block", itunes.block);
  get(in, "keywords", itunes.keywords);
}

void to_json(nlohmann::json& out, const PodcastShow& podcast) {
  out = nlohmann::json::object();
  put(out, "locked", podcast.locked);
  put(out, "locked_owner", podcast.locked_owner);
  put(out, "funding", podcast.funding);
  put(out, "persons", podcast.persons);
  put(out, "location", podcast.location);
  put(out, "license", podcast.license);
  put(out, "medium", podcast.medium);
  put(out, "images", podcast.images);
  put(out, "update_frequency", podcast.update_frequency);
  put(out, "trailers", podcast.trailers);
  null_when_empty(out);
}

void from_json(const nlohmann::json& in, PodcastShow& podcast) {
  get(in, "locked", podcast.locked);
  get(in, "locked_owner", podcast.locked_owner);
  get(in, "funding", podcast.funding);
  get(in, "persons", podcast.persons);
  get(in, "location", podcast.location);
  get(in, "license", podcast.license);
  get(in, "medium", podcast.medium);
  get(in, "images", podcast.images);
  get(in, "update_frequency", podcast.update_frequency);
  get(in, "trailers", podcast.trailers);
}

void to_json(nlohmann::json& out, const PodcastEpisode& podcast) {
  out = nlohmann::json::object();
  put(out, "chapters_type", podcast.chapters_type);
  put(out, "persons", podcast.persons);
  put(out, "soundbites", podcast.soundbites);
  put(out, "location", podcast.location);
  put(out, "license", podcast.license);
  put(out, "alternate_enclosures", podcast.alternate_enclosures);
  put(out, "images", podcast.images);
  null_when_empty(out);
}

void from_json(const nlohmann::json& in, PodcastEpisode& podcast) {
  get(in, "chapters_type", podcast.chapters_type);
  get(in, "persons", podcast.persons);
  get(in, "soundbites", podcast.soundbites);
  get(in, "location", podcast.location);
  get(in, "license", podcast.license);
  get(in, "alternate_enclosures", podcast.alternate_enclosures);
  get(in, "images", podcast.images);
}

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
      {"itunes", episode.itunes},
      {"podcast", episode.podcast},
  };
}

// Writes JSON the way nlohmann::json::dump(2) does: keys in byte order, two spaces a level,
// `"key": value`, empty arrays as [], UTF-8 kept and only '"', '\\' and controls escaped.
class TextWriter {
public:
  explicit TextWriter(std::size_t capacity) { m_out.reserve(capacity); }
  // Writes to `sink` whenever a value ends past k_flush_bytes, and on flush().
  explicit TextWriter(std::ostream& sink) : m_sink(&sink) { m_out.reserve(2 * k_flush_bytes); }

  void flush() {
    if (m_sink != nullptr) {
      m_sink->write(m_out.data(), static_cast<std::streamsize>(m_out.size()));
      m_out.clear();
    }
  }

  // False when a string was not valid UTF-8, which dump() refuses with an exception.
  bool valid() const { return m_valid; }
  std::string take() { return std::move(m_out); }

  void open(char bracket) {
    m_out += bracket;
    m_first = true;
    ++m_depth;
  }
  void close(char bracket) {
    --m_depth;
    if (!m_first) {
      m_out += '\n';
      indent();
    }
    m_out += bracket;
    m_first = false;
  }
  void key(std::string_view name) {
    element();
    m_out += '"';
    m_out.append(name);
    m_out.append("\": ");
  }
  // Starts an array element (or, through key(), an object member) on its own line.
  void element() {
    if (m_out.size() >= k_flush_bytes) {
      flush();
    }
    m_out.append(m_first ? "\n" : ",\n");
    m_first = false;
    indent();
  }
  void null() { m_out.append("null"); }
  // A value as dump(2) writes it, indented to this depth.
  void json(const nlohmann::json& value) {
    std::string text = value.dump(2);
    std::string margin(2 * m_depth + 1, ' ');
    margin.front() = '\n';
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') {
        m_out.append(margin);
      } else {
        m_out += text[i];
      }
    }
  }
  void text(const std::string& value) {
    if (value.empty()) {
      null();
    } else {
      string(value);
    }
  }
  template <typename T>
  void value(const std::optional<T>& number) {
    if (!number) {
      null();
    } else if constexpr (std::is_same_v<T, bool>) {
      m_out.append(*number ? "true" : "false");
    } else {
      m_out.append(std::to_string(*number));
    }
  }
  void string(std::string_view value) {
    m_out += '"';
    if (!core::append_json_escaped(m_out, value, core::k_json_short_escapes)) {
      m_valid = false;
    }
    m_out += '"';
  }

private:
  static constexpr std::size_t k_flush_bytes = 64 * 1024;

  void indent() { m_out.append(2 * m_depth, ' '); }

  std::ostream* m_sink = nullptr;
  std::string m_out;
  std::size_t m_depth = 0;
  bool m_first = true;
  bool m_valid = true;
};

void write_episode(TextWriter& out, const Episode& episode) {
  out.open('{');
  out.key("chapters_url");
  out.text(episode.chapters_url);
  out.key("description");
  out.text(episode.description);
  out.key("duration_seconds");
  out.value(episode.duration_seconds);
  out.key("enclosure_length");
  out.value(episode.enclosure_length);
  out.key("enclosure_type");
  out.text(episode.enclosure_type);
  out.key("enclosure_url");
  out.text(episode.enclosure_url);
  out.key("episode");
  out.value(episode.episode);
  out.key("explicit");
  out.value(episode.explicit_content);
  out.key("guid");
  out.text(episode.guid);
  out.key("image");
  out.text(episode.image);
  out.key("itunes");
  out.json(episode.itunes);
  out.key("link");
  out.text(episode.link);
  out.key("podcast");
  out.json(episode.podcast);
  out.key("published");
  out.value(episode.published);
  out.key("season");
  out.value(episode.season);
  out.key("title");
  out.text(episode.title);
  out.key("transcripts");
  out.open('[');
  for (const Transcript& transcript : episode.transcripts) {
    out.element();
    out.open('{');
    out.key("type");
    out.text(transcript.type);
    out.key("url");
    out.string(transcript.url);
    out.close('}');
  }
  out.close(']');
  out.close('}');
}

void write_show(TextWriter& out, const Show& show) {
  out.open('{');
  out.key("author");
  out.text(show.author);
  out.key("categories");
  out.open('[');
  for (const std::string& category : show.categories) {
    out.element();
    out.string(category);
  }
  out.close(']');
  out.key("description");
  out.text(show.description);
  out.key("detected_language");
  out.text(show.detected_language.value_or(""));
  out.key("episodes");
  out.open('[');
  for (const Episode& episode : show.episodes) {
    out.element();
    write_episode(out, episode);
  }
  out.close(']');
  out.key("explicit");
  out.value(show.explicit_content);
  out.key("feed_url");
  out.text(show.feed_url);
  out.key("image");
  out.text(show.image);
  out.key("itunes");
  out.json(show.itunes);
  out.key("language");
  out.text(show.language);
  out.key("link");
  out.text(show.link);
  out.key("new_feed_url");
  out.text(show.new_feed_url);
  out.key("podcast");
  out.json(show.podcast);
  out.key("podcast_guid");
  out.text(show.podcast_guid);
  out.key("title");
  out.text(show.title);
  out.close('}');
}

} // namespace

std::string to_json_text(const Show& show) {
  std::size_t capacity = 1024;
  for (const Episode& episode : show.episodes) {
    capacity += 1024 + episode.description.size();
  }
  TextWriter out(capacity);
  write_show(out, show);
  // dump() throws on invalid UTF-8; let it, so that both report the same failure.
  return out.valid() ? out.take() : to_json(show).dump(2);
}

void write_json_text(const Show& show, std::ostream& sink) {
  TextWriter out(sink);
  write_show(out, show);
  if (!out.valid()) {
    to_json(show).dump(2); // throws, as to_json_text does
  }
  out.flush();
}

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
      {"detected_language", text_or_null(show.detected_language.value_or(""))},
      {"image", text_or_null(show.image)},
      {"author", text_or_null(show.author)},
      {"explicit", value_or_null(show.explicit_content)},
      {"categories", show.categories},
      {"podcast_guid", text_or_null(show.podcast_guid)},
      {"new_feed_url", text_or_null(show.new_feed_url)},
      {"feed_url", text_or_null(show.feed_url)},
      {"itunes", show.itunes},
      {"podcast", show.podcast},
      {"episodes", episodes},
  };
}

} // namespace podcrawl::feed

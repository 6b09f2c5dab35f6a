#include "podcrawl/feed/json.hpp"

#include <cstdint>
#include <string_view>
#include <type_traits>

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

// Writes JSON the way nlohmann::json::dump(2) does: keys in byte order, two spaces a level,
// `"key": value`, empty arrays as [], UTF-8 kept and only '"', '\\' and controls escaped.
class TextWriter {
public:
  explicit TextWriter(std::size_t capacity) { m_out.reserve(capacity); }

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
    m_out.append(m_first ? "\n" : ",\n");
    m_first = false;
    indent();
  }
  void null() { m_out.append("null"); }
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
    std::size_t copied = 0; // value[copied, i) needs no escaping and is not written yet
    std::size_t i = 0;
    while (i < value.size()) {
      auto byte = static_cast<unsigned char>(value[i]);
      if (byte >= 0x80) {
        std::size_t length = utf8_length(value.substr(i));
        if (length == 0) {
          m_valid = false;
          return;
        }
        i += length;
      } else if (byte < 0x20 || byte == '"' || byte == '\\') {
        m_out.append(value.substr(copied, i - copied));
        escape(static_cast<char>(byte));
        copied = ++i;
      } else {
        ++i;
      }
    }
    m_out.append(value.substr(copied));
    m_out += '"';
  }

private:
  void indent() { m_out.append(2 * m_depth, ' '); }

  void escape(char c) {
    switch (c) {
      case '"':
        m_out.append("\\\"");
        return;
      case '\\':
        m_out.append("\\\\");
        return;
      case '\b':
        m_out.append("\\b");
        return;
      case '\t':
        m_out.append("\\t");
        return;
      case '\n':
        m_out.append("\\n");
        return;
      case '\f':
        m_out.append("\\f");
        return;
      case '\r':
        m_out.append("\\r");
        return;
      default:
        break;
    }
    if (static_cast<unsigned char>(c) < 0x20) {
      constexpr std::string_view k_hex = "0123456789abcdef";
      m_out.append("\\u00");
      m_out += k_hex[static_cast<unsigned char>(c) >> 4];
      m_out += k_hex[static_cast<unsigned char>(c) & 0xf];
    } else {
      m_out += c;
    }
  }

  // Length of the well-formed UTF-8 sequence the text starts with, 0 when it starts with none.
  static std::size_t utf8_length(std::string_view text) {
    auto lead = static_cast<unsigned char>(text[0]);
    std::size_t length = lead >= 0xc2 && lead <= 0xdf   ? 2
                         : lead >= 0xe0 && lead <= 0xef ? 3
                         : lead >= 0xf0 && lead <= 0xf4 ? 4
                                                        : 0;
    if (length == 0 || length > text.size()) {
      return 0;
    }
    std::uint32_t code = lead & (0x7fu >> length);
    for (std::size_t k = 1; k < length; ++k) {
      auto next = static_cast<unsigned char>(text[k]);
      if ((next & 0xc0u) != 0x80u) {
        return 0;
      }
      code = (code << 6) | (next & 0x3fu);
    }
    bool overlong = (length == 3 && code < 0x800) || (length == 4 && code < 0x10000);
    bool invalid = overlong || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff);
    return invalid ? 0 : length;
  }

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
  out.key("link");
  out.text(episode.link);
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

} // namespace

std::string to_json_text(const Show& show) {
  std::size_t capacity = 1024;
  for (const Episode& episode : show.episodes) {
    capacity += 1024 + episode.description.size();
  }
  TextWriter out(capacity);
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
  out.key("language");
  out.text(show.language);
  out.key("link");
  out.text(show.link);
  out.key("new_feed_url");
  out.text(show.new_feed_url);
  out.key("podcast_guid");
  out.text(show.podcast_guid);
  out.key("title");
  out.text(show.title);
  out.close('}');
  // dump() throws on invalid UTF-8; let it, so that both report the same failure.
  return out.valid() ? out.take() : to_json(show).dump(2);
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

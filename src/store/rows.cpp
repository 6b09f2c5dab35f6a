#include <algorithm>
#include <charconv>
#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

#include "podcrawl/feed/json.hpp"
#include "rows_internal.hpp"
#include "store_internal.hpp"

namespace podcrawl::store::internal {

const char* const k_episode_order = "e.published DESC NULLS LAST, e.position, e.id";

const char* const k_listed_show = "s.active AND s.title <> ''";

namespace {

// A namespace column as to_json wrote it; NULL or unreadable JSON leaves the fields empty.
template <typename Fields>
void read_namespace(const pqxx::field& field, Fields& fields) {
  if (field.is_null()) {
    return;
  }
  const auto parsed = nlohmann::json::parse(field.c_str(), nullptr, false);
  if (parsed.is_object()) {
    fields = parsed.get<Fields>();
  }
}

std::string string_member(const nlohmann::json& object, const char* name) {
  const auto found = object.find(name);
  if (found == object.end() || !found->is_string()) {
    return {};
  }
  return found->get<std::string>();
}

std::vector<feed::Transcript> transcripts_from_json(const std::string& text) {
  std::vector<feed::Transcript> transcripts;
  const auto parsed = nlohmann::json::parse(text, nullptr, false);
  if (!parsed.is_array()) {
    return transcripts;
  }
  for (const auto& item : parsed) {
    if (item.is_object()) {
      transcripts.push_back({string_member(item, "url"), string_member(item, "type")});
    }
  }
  return transcripts;
}

} // namespace

model::ShowSummary summary_from_row(const pqxx::row& row) {
  return {row[0].as<std::string>(), row[1].as<std::string>(),  row[2].as<std::string>(),
          row[3].as<std::string>(), row[4].as<std::int64_t>(), artwork_from_text(row[5])};
}

model::StoredShow show_from_row(const pqxx::row& row) {
  model::StoredShow stored;
  stored.slug = row[1].as<std::string>();
  stored.feed_url = row[2].as<std::string>();
  stored.active = row[3].as<bool>();
  stored.added_at = row[4].as<std::int64_t>();
  stored.updated_at = row[5].as<std::int64_t>();
  feed::Show& show = stored.show;
  show.title = row[6].as<std::string>();
  show.link = row[7].as<std::string>();
  show.description = row[8].as<std::string>();
  show.language = row[9].as<std::string>();
  show.image = row[10].as<std::string>();
  show.author = row[11].as<std::string>();
  show.explicit_content = nullable<bool>(row[12]);
  show.podcast_guid = row[13].as<std::string>();
  show.new_feed_url = row[14].as<std::string>();
  show.feed_url = stored.feed_url;
  read_namespace(row[15], show.itunes);
  read_namespace(row[16], show.podcast);
  show.detected_language = nullable<std::string>(row[17]);
  show.effective_language = row[18].as<std::string>();
  stored.artwork = artwork_from_text(row[19]);
  return stored;
}

model::StoredEpisode episode_from_row(const pqxx::row& row) {
  feed::Episode episode;
  episode.guid = row[2].as<std::string>();
  episode.title = row[3].as<std::string>();
  episode.published = nullable<std::int64_t>(row[4]);
  episode.enclosure_url = row[5].as<std::string>();
  episode.enclosure_type = row[6].as<std::string>();
  episode.enclosure_length = nullable<std::int64_t>(row[7]);
  episode.duration_seconds = nullable<std::int64_t>(row[8]);
  episode.link = row[9].as<std::string>();
  episode.description = row[10].as<std::string>();
  episode.season = nullable<int>(row[11]);
  episode.episode = nullable<int>(row[12]);
  episode.explicit_content = nullable<bool>(row[13]);
  episode.image = row[14].as<std::string>();
  episode.transcripts = transcripts_from_json(row[15].as<std::string>());
  episode.chapters_url = row[16].as<std::string>();
  read_namespace(row[17], episode.itunes);
  read_namespace(row[18], episode.podcast);
  return {std::move(episode), row[1].as<std::string>(), artwork_from_text(row[19])};
}

model::EpisodeEntry episode_entry_from_row(const pqxx::row& row) {
  model::StoredEpisode stored = episode_from_row(row);
  return {row[k_after_episode].as<std::string>(), row[k_after_episode + 1].as<std::string>(),
          row[k_after_episode + 2].as<std::string>(), std::move(stored.slug),
          std::move(stored.episode)};
}

std::string id_array(const std::vector<std::int64_t>& ids) {
  std::string text = "{";
  for (const std::int64_t id : ids) {
    if (text.size() > 1) {
      text += ',';
    }
    text += std::to_string(id);
  }
  text += '}';
  return text;
}

std::vector<std::optional<std::int64_t>> integer_array(std::string_view text) {
  std::vector<std::optional<std::int64_t>> values;
  if (text.size() < 2 || text.front() != '{' || text.back() != '}') {
    return values;
  }
  text = text.substr(1, text.size() - 2);
  while (!text.empty()) {
    const std::size_t comma = std::min(text.find(','), text.size());
    const std::string_view element = text.substr(0, comma);
    std::int64_t value = 0;
    const auto [end, error] =
        std::from_chars(element.data(), element.data() + element.size(), value);
    values.push_back(error == std::errc() && end == element.data() + element.size()
                         ? std::optional(value)
                         : std::nullopt);
    text.remove_prefix(std::min(comma + 1, text.size()));
  }
  return values;
}

std::string text_array(const std::vector<std::string>& items) {
  std::string text = "{";
  for (const auto& item : items) {
    if (text.size() > 1) {
      text += ',';
    }
    text += '"';
    for (const char c : storable_text(item)) {
      if (c == '"' || c == '\\') {
        text += '\\';
      }
      text += c;
    }
    text += '"';
  }
  text += '}';
  return text;
}

} // namespace podcrawl::store::internal

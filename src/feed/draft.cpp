#include <algorithm>
#include <charconv>
#include <limits>

#include "dates_internal.hpp"
#include "draft_internal.hpp"
#include "duration_internal.hpp"
#include "fidelity_internal.hpp"
#include "language_internal.hpp"
#include "podcrawl/html/sanitize.hpp"
#include "podcrawl/net/url.hpp"
#include "text_internal.hpp"

namespace podcrawl::feed::internal {
namespace {

std::optional<int> parse_ordinal(const std::string& text) {
  auto count = parse_count(text);
  if (!count || *count > std::numeric_limits<int>::max()) {
    return std::nullopt;
  }
  return static_cast<int>(*count);
}

std::optional<std::string> parse_language(const std::string& text) {
  std::string tag = canonical_language(text);
  return tag.empty() ? std::nullopt : std::optional<std::string>(tag);
}

std::vector<std::string> unique_plain(const std::vector<std::string>& values) {
  std::vector<std::string> out;
  for (const std::string& value : values) {
    std::string cleaned = plain_line(value);
    if (!cleaned.empty() && std::find(out.begin(), out.end(), cleaned) == out.end()) {
      out.push_back(std::move(cleaned));
    }
  }
  return out;
}

void choose_enclosure(const Draft& draft, Episode& episode) {
  std::vector<EnclosureCandidate> ranked = draft.enclosures;
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& left, const auto& right) { return left.rank < right.rank; });
  for (const EnclosureCandidate& candidate : ranked) {
    std::string url = resolve_http(candidate.base, candidate.url);
    if (!url.empty()) {
      episode.enclosure_url = std::move(url);
      episode.enclosure_type = ascii_lower(clean_line(candidate.type));
      episode.enclosure_length = parse_count(candidate.length);
      return;
    }
  }
}

void collect_transcripts(const Draft& draft, Episode& episode) {
  for (std::size_t i = 0; i < draft.transcripts.size(); ++i) {
    std::string url = resolve_http(draft.transcripts[i].base, draft.transcripts[i].value);
    bool seen = std::any_of(episode.transcripts.begin(), episode.transcripts.end(),
                            [&url](const Transcript& known) { return known.url == url; });
    if (!url.empty() && !seen) {
      episode.transcripts.push_back({url, ascii_lower(clean_line(draft.transcript_types[i]))});
    }
  }
}

// The image of a <podcast:images> srcset to take when the feed names no other: the widest
// (the directory makes its own smaller ones), else the first.
std::string largest_image(const std::vector<Image>& images) {
  const Image* largest = nullptr;
  for (const Image& image : images) {
    if (largest == nullptr || image.width.value_or(0) > largest->width.value_or(0)) {
      largest = &image;
    }
  }
  return largest == nullptr ? std::string() : largest->url;
}

} // namespace

void Draft::offer(Field field, int rank, std::string value, std::string base) {
  auto& candidates = fields[static_cast<std::size_t>(field)];
  if (candidates.size() >= k_max_candidates || trim(value).empty()) {
    return;
  }
  candidates.push_back({rank, std::move(value), std::move(base)});
}

std::vector<Candidate> Draft::ranked(Field field) const {
  std::vector<Candidate> candidates = fields[static_cast<std::size_t>(field)];
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const auto& left, const auto& right) { return left.rank < right.rank; });
  return candidates;
}

std::string first_text(const Draft& draft, Field field, LineCleaner clean) {
  for (const Candidate& candidate : draft.ranked(field)) {
    if (std::string text = clean(candidate.value); !text.empty()) {
      return text;
    }
  }
  return {};
}

std::string first_url(const Draft& draft, Field field) {
  for (const Candidate& candidate : draft.ranked(field)) {
    if (std::string url = resolve_http(candidate.base, candidate.value); !url.empty()) {
      return url;
    }
  }
  return {};
}

std::string first_markup(const Draft& draft, Field field) {
  for (const Candidate& candidate : draft.ranked(field)) {
    std::string markup = html::sanitize(markup_block(candidate.value), candidate.base);
    if (!trim(markup).empty()) {
      return std::string(trim(markup));
    }
  }
  return {};
}

std::string resolve_http(const std::string& base, const std::string& reference) {
  std::string_view trimmed = trim(reference);
  if (trimmed.empty() || trimmed.size() > net::k_max_url_length) {
    return {};
  }
  std::string resolved = net::resolve(base, trimmed);
  return net::is_http_url(resolved) ? resolved : std::string();
}

std::optional<std::int64_t> parse_count(const std::string& text) {
  std::string_view digits = trim(text);
  if (digits.starts_with('+')) {
    digits.remove_prefix(1);
  }
  std::int64_t value = 0;
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || error != std::errc() || end != digits.data() + digits.size() || value < 0) {
    return std::nullopt;
  }
  return value;
}

Episode finish_episode(const Draft& draft) {
  Episode episode;
  episode.guid = first_text(draft, Field::guid);
  episode.title = first_text(draft, Field::title, plain_line);
  episode.published = first_parsed(draft, Field::published, parse_date);
  choose_enclosure(draft, episode);
  episode.duration_seconds = first_parsed(draft, Field::duration, parse_duration);
  episode.link = first_url(draft, Field::link);
  episode.description = first_markup(draft, Field::description);
  episode.season = first_parsed(draft, Field::season, parse_ordinal);
  episode.episode = first_parsed(draft, Field::episode, parse_ordinal);
  episode.explicit_content = first_parsed(draft, Field::explicit_content, parse_explicit);
  episode.image = first_url(draft, Field::image);
  collect_transcripts(draft, episode);
  episode.chapters_url = first_url(draft, Field::chapters_url);
  episode.itunes = draft.itunes_episode;
  episode.podcast = draft.podcast_episode;
  if (episode.image.empty()) {
    episode.image = largest_image(episode.podcast.images);
  }
  if (episode.chapters_url.empty()) {
    episode.podcast.chapters_type.clear();
  }
  return episode;
}

Show finish_show(const Draft& draft) {
  Show show;
  show.title = first_text(draft, Field::title, plain_line);
  show.link = first_url(draft, Field::link);
  show.description = first_markup(draft, Field::description);
  show.language = first_parsed(draft, Field::language, parse_language).value_or("");
  show.image = first_url(draft, Field::image);
  show.author = first_text(draft, Field::author, plain_line);
  show.explicit_content = first_parsed(draft, Field::explicit_content, parse_explicit);
  show.categories =
      unique_plain(draft.itunes_categories.empty() ? draft.categories : draft.itunes_categories);
  show.podcast_guid = first_text(draft, Field::podcast_guid);
  show.new_feed_url = first_url(draft, Field::new_feed_url);
  show.self_url = first_url(draft, Field::self_url);
  show.feed_url = show.self_url;
  show.hub_url = first_url(draft, Field::hub_url);
  show.itunes = draft.itunes_show;
  show.podcast = draft.podcast_show;
  if (show.image.empty()) {
    show.image = largest_image(show.podcast.images);
  }
  return show;
}

} // namespace podcrawl::feed::internal

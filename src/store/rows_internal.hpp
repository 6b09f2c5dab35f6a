#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <pqxx/pqxx>

#include "podcrawl/model/pages.hpp"
#include "podcrawl/store/records.hpp"

// Reading shows and episodes from result rows: the column lists and their readers, shared by
// every statement that loads them.
namespace podcrawl::store::internal {

// The artwork of `shows s` as one text column (artwork_from_text reads it): its content hash,
// width, height and renditions, or NULL while it has none. A macro, so that the column lists
// below stay string literals that column_count can read at compile time.
#define PODCRAWL_ART_OF_SHOW                                                                 \
  "(SELECT a.content_hash || ' ' || a.width || ' ' || a.height || ' ' || a.renditions::text" \
  " FROM artwork a WHERE a.url = s.image AND a.renditions <> '[]')"

// The columns show_from_row reads, from `shows s JOIN feeds f`: s.id first.
inline constexpr const char* k_show_columns =
    "s.id, s.slug, f.url, s.active, extract(epoch FROM s.added_at)::bigint,"
    " extract(epoch FROM s.updated_at)::bigint, s.title, s.link, s.description, s.language,"
    " s.image, s.author, s.explicit, s.podcast_guid, s.new_feed_url, s.itunes::text,"
    " s.podcast::text, s.detected_language, s.effective_language, " PODCRAWL_ART_OF_SHOW;

// The episode's own picture as cover art, like PODCRAWL_ART_OF_SHOW; NULL when it has none.
#define PODCRAWL_ART_OF_EPISODE                                                              \
  "(SELECT a.content_hash || ' ' || a.width || ' ' || a.height || ' ' || a.renditions::text" \
  " FROM artwork a WHERE e.image <> '' AND a.url = e.image AND a.renditions <> '[]')"

// The columns episode_from_row reads, from `episodes e`: e.show_id first.
inline constexpr const char* k_episode_columns =
    "e.show_id, e.slug, e.guid, e.title, extract(epoch FROM e.published)::bigint,"
    " e.enclosure_url, e.enclosure_type, e.enclosure_length, e.duration_seconds, e.link,"
    " e.description, e.season, e.episode, e.explicit, e.image, e.transcripts::text,"
    " e.chapters_url, e.itunes::text, e.podcast::text, " PODCRAWL_ART_OF_EPISODE;

// The number of columns in a list of them: its commas outside parentheses, and one.
constexpr std::size_t column_count(std::string_view columns) {
  std::size_t count = 1;
  int depth = 0;
  for (const char c : columns) {
    depth += c == '(' ? 1 : c == ')' ? -1 : 0;
    count += c == ',' && depth == 0 ? 1 : 0;
  }
  return count;
}
static_assert(column_count(k_show_columns) == 20 && column_count(k_episode_columns) == 20,
              "show_from_row and episode_from_row read the columns by their place");

// The first column after k_episode_columns in a row that has more.
inline constexpr auto k_after_episode =
    static_cast<pqxx::row::size_type>(column_count(k_episode_columns));

// A list entry's columns (model::ShowSummary), over `shows s`.
inline constexpr const char* k_summary_columns =
    "s.slug, s.title, s.author, s.effective_language,"
    " (SELECT count(*) FROM episodes e WHERE e.show_id = s.id AND e.removed_at IS "
    "NULL), " PODCRAWL_ART_OF_SHOW;
static_assert(column_count(k_summary_columns) == 6, "summary_from_row reads them by place");

// Reads that span several statements see one snapshot.
using SnapshotTransaction = pqxx::transaction<pqxx::repeatable_read, pqxx::read_only>;

// The order of a show's current episodes on its pages: newest first, undated last, then as the
// feed lists them.
extern const char* const k_episode_order;
// Listed shows (those with pages), over `shows s`.
extern const char* const k_listed_show;

model::StoredShow show_from_row(const pqxx::row& row);
model::ShowSummary summary_from_row(const pqxx::row& row);
// The artwork PODCRAWL_ART_OF_SHOW gives; nullopt for NULL or text it did not write.
std::optional<model::StoredArtwork> artwork_from_text(const pqxx::field& field);
// The episode of a row that starts with k_episode_columns.
model::StoredEpisode episode_from_row(const pqxx::row& row);
// The episode of a row of k_episode_columns followed by its show's slug, title and effective
// language (from k_after_episode on).
model::EpisodeEntry episode_entry_from_row(const pqxx::row& row);

} // namespace podcrawl::store::internal

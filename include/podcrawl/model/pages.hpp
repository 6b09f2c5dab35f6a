#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "podcrawl/model/artwork.hpp"
#include "podcrawl/model/show.hpp"

// Page models: what one page of the directory shows, as the store reads it. Each is bounded
// whatever the directory's size (one show and one page of its episodes; one page of a list), so
// the live directory loads one per request and a render holds a batch at a time. `store` reads
// them and `render` turns them into bytes; neither sees the other.
namespace podcrawl::model {

// Entries per page of a list of shows (home sections, category and language pages).
inline constexpr std::int64_t k_shows_per_page = 100;
// Episodes per page of a show's episode list: the first on the show page, the others at
// podcasts/<slug>/page/<n>/.
inline constexpr std::int64_t k_episodes_per_page = 50;
// The home page's newest episodes across all shows.
inline constexpr std::int64_t k_latest_episodes = 20;
// The home page lists at most this many categories and languages, those with the most shows.
inline constexpr std::int64_t k_home_categories = 100;
inline constexpr std::int64_t k_home_languages = 100;

// A show as a list entry.
struct ShowSummary {
  std::string slug;
  std::string title;
  std::string author;
  std::string language; // as the feed declares it
  std::int64_t episode_count = 0;
  std::optional<StoredArtwork> artwork;
};

// A category of the directory: every stored spelling whose slug is `slug`. `name` is the
// spelling stored first and `language` the declared language of the show that stored it.
struct CategoryEntry {
  std::string slug;
  std::string name;
  std::string language;
  std::int64_t show_count = 0;
};

// A content language of the directory: the shows listed under `tag` (l10n::language_group of
// their effective language).
struct LanguageEntry {
  std::string tag;
  std::int64_t show_count = 0;
};

// An episode in a list that spans shows.
struct EpisodeEntry {
  std::string show_slug;
  std::string show_title;
  std::string show_language;
  std::string slug;
  feed::Episode episode;
};

struct HomePage {
  std::int64_t show_count = 0;
  std::vector<EpisodeEntry> latest;      // newest first, at most k_latest_episodes
  std::vector<CategoryEntry> categories; // most shows first, at most k_home_categories
  std::vector<LanguageEntry> languages;  // most shows first, at most k_home_languages
};

enum class ListKind { category, language };

// One page of the shows of a category or a language, ordered by title (ICU root collation),
// then slug. `total` counts the whole list; page numbers start at 1.
struct ShowListPage {
  ListKind kind = ListKind::category;
  CategoryEntry category; // kind == category
  LanguageEntry language; // kind == language
  std::int64_t page = 1;
  std::int64_t total = 0;
  std::vector<ShowSummary> shows;
};

// Results per page of a search of the directory.
inline constexpr std::int64_t k_search_results_per_page = 20;
// A search ranks at most this many matching shows and as many matching episodes: the time and
// memory of a search stay bounded however common its words are.
inline constexpr std::int64_t k_search_candidates = 500;
// Longest search of the directory, in characters; a longer one is not run.
inline constexpr std::size_t k_max_search_query_chars = 200;

// Matching episodes listed under their show in a search result, best first.
inline constexpr std::int64_t k_search_episodes_per_show = 3;
// A search that finds fewer shows than this also tries its long words with one typo.
inline constexpr std::int64_t k_search_typo_below = 3;

// Why a URL given to be added to the directory is not (crawl::resolve_feed).
enum class FeedRefusal {
  none,
  not_a_url,          // not an http(s) URL of at most net::k_max_feed_url_length bytes
  refused_address,    // the address policy refused it (a private or reserved address)
  unreachable,        // no answer, or an error status (404, 500, a timeout, too large)
  no_feed_advertised, // an HTML page that advertises no feed
  not_a_feed,         // what arrived is not RSS or Atom
};

// The form that adds a podcast to the directory (/<locale>/add/), and what became of a URL
// sent with it.
struct SubmitPage {
  enum class Outcome {
    form,       // nothing sent yet
    added,      // listed and stored: `show` is its page
    exists,     // listed already: `show` is its page
    queued,     // waiting for the operator's review
    refused,    // `refusal` says why
    too_many,   // over the submissions' rate limits
    cross_site, // sent from another site, or with a form token that is not valid (any more)
  };
  Outcome outcome = Outcome::form;
  FeedRefusal refusal = FeedRefusal::none;
  std::string url;                 // as sent, given back in the form
  std::string token;               // the form token a submission must carry back
  std::optional<ShowSummary> show; // added, exists
};

// A search of the directory (store::DirectorySearch::search).
struct SearchRequest {
  std::string query;
  // Only shows listed under this language when not empty (l10n::language_group: "en" and
  // "en-GB" take en-US too; "zh-TW" takes the shows in Traditional characters).
  std::string language;
  std::int64_t offset = 0; // results skipped, best first
  std::int64_t limit = k_search_results_per_page;
  // Episodes' titles and notes searched too; false: only shows' own title, author and notes
  // (what the APIs' searches of feeds match, as Podcast Index's search/byterm does).
  bool episodes = true;
  // Matching shows ranked (and as many episodes), at most k_search_candidates: fewer make a
  // search of common words cheaper and rank the best of fewer.
  std::int64_t candidates = k_search_candidates;
};

// One search result: a show, and those of its episodes that match.
struct SearchResult {
  ShowSummary show;
  bool show_matched = false;          // the show's own title, author or notes match
  bool corrected = false;             // found with a word read as one edit away
  std::vector<EpisodeEntry> episodes; // at most k_search_episodes_per_show, best first
};

// Results of a search, best first.
struct SearchPage {
  std::string query;     // the words searched: white space collapsed, storable text
  bool too_long = false; // the query had more than k_max_search_query_chars: nothing searched
  std::int64_t page = 1;
  std::int64_t total = 0; // shows found on every page
  bool more = false;      // more matched than were ranked (k_search_candidates)
  std::vector<SearchResult> results;
};

// The number of pages a list of `total` entries takes at `per_page` a page (at least 1).
inline std::int64_t page_count(std::int64_t total, std::int64_t per_page) {
  return std::max<std::int64_t>(1, (total + per_page - 1) / per_page);
}

// A show page: the show with one page of its episodes (show.episodes, newest first), the number
// of all its current episodes, and its categories.
struct ShowPage {
  StoredShow show;
  std::int64_t episode_count = 0;
  std::int64_t page = 1;
  std::vector<CategoryEntry> categories; // show_count unset
};

// An episode page: the show with exactly this one episode.
struct EpisodePage {
  StoredShow show;
};

// A show with all its current episodes (show.episodes, newest first, as on the show's pages):
// what a render turns into the show's every page.
struct WholeShow {
  StoredShow show;
  std::vector<CategoryEntry> categories;
};

// The show page `page` of a whole show: the same model load_show_page reads for it.
inline ShowPage show_page_of(const WholeShow& whole, std::int64_t page) {
  const auto count = static_cast<std::int64_t>(whole.show.episodes.size());
  const auto first = std::clamp<std::int64_t>((page - 1) * k_episodes_per_page, 0, count);
  const auto last = std::min(count, first + k_episodes_per_page);
  ShowPage result;
  result.page = page;
  result.categories = whole.categories;
  result.episode_count = count;
  result.show =
      with_episodes(whole.show, static_cast<std::size_t>(first), static_cast<std::size_t>(last));
  return result;
}

// The episode page of episode `index` (into show.episodes) of a whole show: the same model
// load_episode_page reads for it.
inline EpisodePage episode_page_of(const WholeShow& whole, std::size_t index) {
  if (index >= whole.show.episodes.size()) {
    throw std::out_of_range("episode_page_of: no such episode");
  }
  EpisodePage result;
  result.show = with_episodes(whole.show, index, index + 1);
  return result;
}

} // namespace podcrawl::model

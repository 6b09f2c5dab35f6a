#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "podcrawl/model/pages.hpp"
#include "podcrawl/store/database.hpp"

namespace podcrawl::store {

// A show a search found: its id, and whether its own title matched.
struct ShowHit {
  std::int64_t show_id = 0;
  bool title_matched = false;
};

// The directory's search and its index.
class DirectorySearch {
public:
  explicit DirectorySearch(Database& database);

  // The search of the directory, one for `podcrawl search`, the site's search page and the
  // APIs: the listed shows matching the request's words (search::tsquery, each show and episode
  // read in its own language), each once, with its matching episodes, best first: shows whose
  // title matches, then shows whose author or notes match, then shows matched only by
  // episodes; by rank within each, the most recently updated first on a tie. When the words
  // find fewer than model::k_search_typo_below shows, a word of 5 characters or more may also stand
  // for a title word one edit away, and what that finds is ranked after. An empty query finds
  // nothing and a too long one is not run (model::SearchPage::too_long). Bounded: at most
  // SearchRequest::candidates shows and as many episodes are ranked, under a statement timeout.
  model::SearchPage search(const model::SearchRequest& request);
  // search() without reading the shows it finds: their ids, best first, for the APIs, which
  // read them as feeds.
  std::vector<ShowHit> find_shows(const model::SearchRequest& request);
  // The search page `page` (from 1) of `query`: search() for that page's results; nullopt for a
  // page past the last.
  std::optional<model::SearchPage> load_search_page(const std::string& query, std::int64_t page);
  // Rewrite the search index of every show and episode from its stored text, in batches of
  // `batch` rows, each its own transaction (search answers meanwhile); `progress` is called
  // after each batch with the rows done and the rows in all. Then vacuums the tables rewritten.
  void reindex(int batch,
               const std::function<void(std::int64_t done, std::int64_t total)>& progress);

private:
  Database::Impl* m_impl;
};

} // namespace podcrawl::store

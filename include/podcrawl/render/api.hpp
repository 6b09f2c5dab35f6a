#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "podcrawl/model/api.hpp"

// The answers of the directory's APIs: models in, JSON (or OPML, or text) out, written as the
// services apps already speak write them. Pure, like the pages: the live directory loads the
// models and hands them over.
namespace podcrawl::render::api {

// How a Podcast Index answer is written: its flags, which count by presence.
struct AnswerStyle {
  bool fulltext = false; // descriptions whole; else their text cut to 100 words
  bool pretty = false;   // indented
};

// The query echo of a Podcast Index answer: names and values, an object in the answer.
using QueryEcho = std::vector<std::pair<std::string, std::string>>;

// ---- Podcast Index (/api/1.0/) ----

// search/byterm and search/bytitle: {status, feeds, count, query, description}.
std::string search_answer(const std::vector<model::DirectoryFeed>& feeds, const std::string& query,
                          const AnswerStyle& style);
// podcasts/byfeedid, byfeedurl, byguid: {status, query, feed, description}; a feed not found is
// `"feed": []`, as Podcast Index answers it.
std::string feed_answer(const std::optional<model::DirectoryFeed>& feed, const QueryEcho& query,
                        const AnswerStyle& style);
// episodes/byfeedid and byfeedurl: {status, liveItems, items, count, query, description}.
// `query` is the echo: the ids as one string, several as an array, or an object (byfeedurl).
struct EpisodesQuery {
  std::vector<std::string> ids; // byfeedid: one is a string, more an array of strings
  QueryEcho object;             // byfeedurl: {url}
};
std::string episodes_answer(const std::vector<model::DirectoryEpisode>& episodes,
                            const EpisodesQuery& query, const AnswerStyle& style);
// episodes/byid: {status, id, episode, description}; not found is `"episode": []`.
std::string episode_answer(const std::optional<model::DirectoryEpisode>& episode,
                           const std::string& id, const AnswerStyle& style);
// recent/episodes: {status, items, count, max, description}.
std::string recent_episodes_answer(const std::vector<model::DirectoryEpisode>& episodes,
                                   std::int64_t max, const AnswerStyle& style);
// recent/feeds: {status, feeds, count, max, since, description}.
std::string recent_feeds_answer(const std::vector<model::DirectoryFeed>& feeds, std::int64_t max,
                                std::optional<std::int64_t> since, const AnswerStyle& style);
// categories/list: {status, feeds: [{id, name}], count, description}.
std::string categories_answer(const std::vector<model::CategoryRef>& categories,
                              const AnswerStyle& style);
// stats/current: {status, stats, description}.
std::string stats_answer(const model::DirectoryCounts& counts, const AnswerStyle& style);
// hub/pubnotify: {status, description}: the feed was marked for an immediate fetch, or no listed
// feed has that id or URL, or (`too_soon`) it was marked less than a minute ago.
std::string pubnotify_answer(bool marked, bool too_soon);
// add/byfeedurl: {status, feedId, existed ("true" or "false", strings as Podcast Index sends
// them), description}.
std::string added_answer(std::int64_t feed_id, bool existed);
// add/byfeedurl when the URL cannot be added: {status "false", description: why}.
std::string not_added_answer(const std::string& why);
// A request with a missing or malformed parameter: Podcast Index's 400 body.
std::string invalid_parameters_answer();

// The CRC-32 of an image URL without its scheme, as Podcast Index's imageUrlHash.
std::uint32_t image_url_hash(const std::string& url);
// An episode's date as Podcast Index writes datePublishedPretty: "January 01, 2019 9:30pm" (UTC).
std::string pretty_date(std::int64_t unix_seconds);
// Text as an answer without `fulltext` carries it: the HTML's visible text, cut to 100 words.
std::string short_text(const std::string& html);

// ---- iTunes Search (/search, /lookup) and gpodder.net (/search.json) ----

// Where an answer links to: the site's absolute URL (no trailing '/'), the locale of the show
// pages it links, and whether the site publishes cover art under art/.
struct SiteLinks {
  std::string site_url;
  std::string locale;
  bool art = false;
};

// {"resultCount", "results"} as Apple's iTunes Search API answers a podcast search or lookup.
std::string itunes_answer(const std::vector<model::DirectoryFeed>& feeds, const SiteLinks& site);

// gpodder.net's directory search: a JSON array of podcasts with every key present; with
// `scale_logo` (1–256) each has scaled_logo_url, the smallest rendition at least that wide.
std::string gpodder_json(const std::vector<model::DirectoryFeed>& feeds, const SiteLinks& site,
                         std::optional<int> scale_logo);
// The same as an OPML 2.0 document, and as text: one feed URL per line.
std::string gpodder_opml(const std::vector<model::DirectoryFeed>& feeds, const std::string& query);
std::string gpodder_txt(const std::vector<model::DirectoryFeed>& feeds);

} // namespace podcrawl::render::api

#include "podcrawl/store/identity.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <functional>
#include <unordered_map>

#include "podcrawl/core/ascii.hpp"
#include "podcrawl/core/hash.hpp"

// Episode identity: which stored row an item of a feed document is.
//
//  rule                            compares                                  applies when
//  ------------------------------  ----------------------------------------  ------------------
//  0 duplicates in the document    guid, else identity_url(enclosure), else  always; the first
//                                  identity_url(link), else title + date     in document order
//                                                                            is kept
//  1 guid                          the guid, exactly                         guid not empty
//  2 enclosure                     identity_url(enclosure): no scheme,       unique on both
//                                  host lower-case, tracking prefixes        sides (*)
//                                  (k_tracking_prefixes) and volatile
//                                  parameters (k_volatile_parameters) gone
//  3 link                          identity_url(link), never the show's own  unique on both
//                                  link                                      sides (*)
//  4 title + day + duration        case-folded title, UTC day, durations     unique on both
//                                  within k_duration_tolerance_seconds       sides (*)
//                                  when both are known
//  5 file name + day (host move)   last path segment of the enclosure,       unique on both
//                                  UTC day                                   sides (*)
//
// (*) Rules 2-5 pair only items no earlier rule matched with stored episodes no earlier rule
// claimed, and only on a key exactly one unmatched item and one unclaimed stored episode have: a
// key shared by several episodes (every item linking to the home page, a placeholder file)
// identifies none of them. So a GUID-rewriting host move that keeps titles and dates (or file
// names and dates) lands on the old rows, while two different episodes with the same title on
// one day, each with its guid, stay two.
//
// A matched row is updated in place (a retitled episode keeps its row and slug); an item
// matching nothing is inserted; a stored episode no item matched is kept with removed_at set,
// and comes back if an item matches it again.
//
// Show identity: the podcast:guid the feed publishes, else the UUIDv5 of its URL (show_identity).
// A feed without a show yet joins the show with its identity (the same podcast at a second URL)
// instead of creating one; the feed that saved last describes the show.

namespace podcrawl::store {
namespace {

// A measurement or tracking service that redirects to the real file: its host, then the path
// segments in front of the real URL. A segment "*" is any segment, "abc*" any segment starting
// with "abc".
struct TrackingPrefix {
  std::string_view host;
  std::array<std::string_view, 2> segments; // unused trailing entries are empty
};

constexpr std::array<TrackingPrefix, 20> k_tracking_prefixes = {{
    {"dts.podtrac.com", {"redirect.*", ""}},    // dts.podtrac.com/redirect.mp3/
    {"www.podtrac.com", {"pts", "redirect.*"}}, // www.podtrac.com/pts/redirect.mp3/
    {"podtrac.com", {"pts", "redirect.*"}},     //
    {"play.podtrac.com", {"*", ""}},            // play.podtrac.com/<network>/
    {"chrt.fm", {"track", "*"}},                // Chartable: chrt.fm/track/XXXX/
    {"chtbl.com", {"track", "*"}},              //
    {"pdst.fm", {"e", ""}},                     // Podsights: pdst.fm/e/
    {"pscrb.fm", {"rss", "p"}},                 // Podscribe
    {"verifi.podscribe.com", {"rss", "p"}},     //
    {"media.blubrry.com", {"*", ""}},           // Blubrry stats: media.blubrry.com/<show>/
    {"clrtpod.com", {"m", "*"}},                // Claritas: clrtpod.com/m/XXXX/
    {"claritaspod.com", {"measure", ""}},       //
    {"pfx.vpixl.com", {"*", ""}},               // Veritonic: pfx.vpixl.com/XXXX/
    {"op3.dev", {"e", ""}},                     // OP3: op3.dev/e/
    {"op3.dev", {"e,*", ""}},                   // op3.dev/e,pg=<guid>/
    {"arttrk.com", {"p", "*"}},                 // Artsai: arttrk.com/p/XXXX/
    {"mgln.ai", {"e", "*"}},                    // Magellan: mgln.ai/e/NN/
    {"prfx.byspotify.com", {"e", ""}},          // Spotify Ad Analytics
    {"pdcn.co", {"e", ""}},                     // Podcorn
    {"tracking.swap.fm", {"track", "*"}},       // Swapfm
}};

// Query parameters that change without the file changing.
constexpr std::array<std::string_view, 9> k_volatile_parameters = {
    "updated", "source", "ref", "from", "_", "cb", "timestamp", "awcollectionid", "awepisodeid"};
constexpr std::string_view k_volatile_parameter_prefix = "utm_";

bool starts_with_ignoring_case(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && core::ascii_lower(text.substr(0, prefix.size())) == prefix;
}

// Feed text around an identifier: spaces, tabs and line breaks.
std::string_view trimmed(std::string_view text) {
  return core::trim(text, " \t\r\n");
}

std::string_view without_scheme(std::string_view url) {
  for (const std::string_view scheme : {"https://", "http://", "//"}) {
    if (starts_with_ignoring_case(url, scheme)) {
      return url.substr(scheme.size());
    }
  }
  return url;
}

bool segment_matches(std::string_view pattern, std::string_view segment) {
  if (segment.empty()) {
    return false;
  }
  if (!pattern.empty() && pattern.back() == '*') {
    return segment.substr(0, pattern.size() - 1) == pattern.substr(0, pattern.size() - 1);
  }
  return segment == pattern;
}

// What follows a tracking prefix at the start of host/path, or nullopt when none is there.
// The rest must look like a URL of its own (a host with a dot, then a path).
std::optional<std::string_view> after_tracking_prefix(std::string_view host,
                                                      std::string_view path) {
  for (const auto& prefix : k_tracking_prefixes) {
    if (host != prefix.host) {
      continue;
    }
    std::string_view rest = path; // "/seg/seg/..."
    bool matched = true;
    for (const auto pattern : prefix.segments) {
      if (pattern.empty()) {
        break;
      }
      if (rest.empty() || rest.front() != '/') {
        matched = false;
        break;
      }
      rest.remove_prefix(1);
      const auto end = rest.find('/');
      if (end == std::string_view::npos || !segment_matches(pattern, rest.substr(0, end))) {
        matched = false;
        break;
      }
      rest.remove_prefix(end);
    }
    if (!matched || rest.size() < 2) {
      continue;
    }
    const std::string_view target = without_scheme(rest.substr(1));
    const auto slash = target.find('/');
    if (slash != std::string_view::npos && target.substr(0, slash).find('.') != std::string::npos) {
      return target;
    }
  }
  return std::nullopt;
}

bool is_volatile_parameter(std::string_view parameter) {
  const std::string name = core::ascii_lower(parameter.substr(0, parameter.find('=')));
  return name.starts_with(k_volatile_parameter_prefix) ||
         std::find(k_volatile_parameters.begin(), k_volatile_parameters.end(), name) !=
             k_volatile_parameters.end();
}

std::string stable_query(std::string_view query) {
  std::string out;
  while (!query.empty()) {
    const auto end = query.find('&');
    const std::string_view parameter = query.substr(0, end);
    if (!parameter.empty() && !is_volatile_parameter(parameter)) {
      out += out.empty() ? "" : "&";
      out += parameter;
    }
    query = end == std::string_view::npos ? std::string_view() : query.substr(end + 1);
  }
  return out;
}

// Words of a title compared case-insensitively (ASCII) with runs of white space as one.
std::string title_key(std::string_view title) {
  std::string out;
  for (const char c : trimmed(title)) {
    const bool space = c == ' ' || c == '\t' || c == '\r' || c == '\n';
    if (space && !out.empty() && out.back() == ' ') {
      continue;
    }
    out += space ? ' ' : core::ascii_lower(c);
  }
  return out;
}

std::optional<std::int64_t> utc_day(std::optional<std::int64_t> published) {
  if (!published) {
    return std::nullopt;
  }
  return *published >= 0 ? *published / 86400 : (*published - 86399) / 86400;
}

// The key an episode is known by within one document: guid, else its enclosure, else its link,
// else title and date.
std::string document_key(const EpisodeIdentity& episode) {
  if (!episode.guid.empty()) {
    return "guid:" + episode.guid;
  }
  if (auto url = identity_url(episode.enclosure_url); !url.empty()) {
    return "enclosure:" + url;
  }
  if (auto url = identity_url(episode.link); !url.empty()) {
    return "link:" + url;
  }
  return "title:" + title_key(episode.title) + "|" +
         (episode.published ? std::to_string(*episode.published) : "");
}

// Durations disagree only when both are known (a host move may drop them).
bool durations_agree(const EpisodeIdentity& a, const EpisodeIdentity& b) {
  if (!a.duration_seconds || !b.duration_seconds) {
    return true;
  }
  return std::llabs(*a.duration_seconds - *b.duration_seconds) <= k_duration_tolerance_seconds;
}

// One fallback rule: the key it compares (empty: the rule says nothing about this episode).
using KeyOf = std::function<std::string(const EpisodeIdentity&)>;

struct Matcher {
  const std::vector<EpisodeIdentity>& stored;
  const std::vector<EpisodeIdentity>& incoming;
  EpisodeMatches& matches;
  std::vector<bool> claimed; // per stored episode

  // Pair the unmatched incoming and unclaimed stored episodes whose key occurs exactly once on
  // each side: a key shared by several episodes identifies none of them.
  void apply(const KeyOf& key_of, bool check_duration) {
    std::unordered_map<std::string, std::pair<int, std::size_t>> incoming_keys;
    std::unordered_map<std::string, std::pair<int, std::size_t>> stored_keys;
    for (std::size_t k = 0; k < matches.kept.size(); ++k) {
      if (!matches.stored[k]) {
        count(incoming_keys, key_of(incoming[matches.kept[k]]), k);
      }
    }
    for (std::size_t s = 0; s < stored.size(); ++s) {
      if (!claimed[s]) {
        count(stored_keys, key_of(stored[s]), s);
      }
    }
    for (const auto& [key, entry] : incoming_keys) {
      const auto found = stored_keys.find(key);
      if (entry.first != 1 || found == stored_keys.end() || found->second.first != 1) {
        continue;
      }
      const std::size_t k = entry.second;
      const std::size_t s = found->second.second;
      if (check_duration && !durations_agree(incoming[matches.kept[k]], stored[s])) {
        continue;
      }
      matches.stored[k] = s;
      claimed[s] = true;
    }
  }

  static void count(std::unordered_map<std::string, std::pair<int, std::size_t>>& keys,
                    const std::string& key, std::size_t index) {
    if (key.empty()) {
      return;
    }
    auto& entry = keys[key];
    ++entry.first;
    entry.second = index;
  }
};

} // namespace

std::string identity_url(std::string_view url) {
  url = trimmed(url);
  url = url.substr(0, url.find('#'));
  url = without_scheme(url);
  std::string host;
  std::string_view rest;
  while (true) {
    const auto host_end = url.find_first_of("/?");
    host = core::ascii_lower(url.substr(0, host_end));
    for (const std::string_view port : {":80", ":443"}) {
      if (host.ends_with(port)) {
        host.resize(host.size() - port.size());
      }
    }
    rest = host_end == std::string_view::npos ? std::string_view() : url.substr(host_end);
    const auto target = after_tracking_prefix(host, rest.substr(0, rest.find('?')));
    if (!target) {
      break;
    }
    // The real URL keeps its own query; the prefix's query, if any, is part of it already.
    url = *target;
  }
  const auto query_start = rest.find('?');
  std::string out = host;
  out += rest.substr(0, query_start);
  if (query_start != std::string_view::npos) {
    if (const std::string query = stable_query(rest.substr(query_start + 1)); !query.empty()) {
      out += "?" + query;
    }
  }
  return out;
}

std::string identity_file_name(std::string_view identity) {
  const auto path = identity.substr(0, identity.find('?'));
  const auto slash = path.rfind('/');
  if (slash == std::string_view::npos) {
    return {};
  }
  return std::string(path.substr(slash + 1));
}

std::string show_identity(std::string_view podcast_guid, std::string_view feed_url) {
  if (const auto guid = trimmed(podcast_guid); !guid.empty()) {
    return core::ascii_lower(guid);
  }
  std::string_view name = without_scheme(trimmed(feed_url));
  while (!name.empty() && name.back() == '/') {
    name.remove_suffix(1);
  }
  return core::uuid_v5(k_podcast_guid_namespace, name);
}

EpisodeIdentity identity_of(const feed::Episode& episode) {
  return {episode.guid,  episode.enclosure_url, episode.link,
          episode.title, episode.published,     episode.duration_seconds};
}

EpisodeMatches match_episodes(const std::vector<EpisodeIdentity>& stored,
                              const std::vector<EpisodeIdentity>& incoming,
                              std::string_view show_link) {
  EpisodeMatches matches;
  std::unordered_map<std::string, bool> seen;
  for (std::size_t i = 0; i < incoming.size(); ++i) {
    if (seen.emplace(document_key(incoming[i]), true).second) {
      matches.kept.push_back(i);
    }
  }
  matches.stored.assign(matches.kept.size(), std::nullopt);
  Matcher matcher{stored, incoming, matches, std::vector<bool>(stored.size(), false)};

  // 1. The guid, whatever else changed (a retitled or re-hosted episode keeps its guid).
  std::unordered_map<std::string, std::size_t> by_guid;
  for (std::size_t s = stored.size(); s-- > 0;) {
    if (!stored[s].guid.empty()) {
      by_guid[stored[s].guid] = s;
    }
  }
  for (std::size_t k = 0; k < matches.kept.size(); ++k) {
    const auto& guid = incoming[matches.kept[k]].guid;
    if (const auto found = by_guid.find(guid);
        !guid.empty() && found != by_guid.end() && !matcher.claimed[found->second]) {
      matches.stored[k] = found->second;
      matcher.claimed[found->second] = true;
    }
  }
  // 2. The enclosure without tracking prefixes and volatile parameters.
  matcher.apply([](const EpisodeIdentity& e) { return identity_url(e.enclosure_url); }, false);
  // 3. The episode's own page (never the show's).
  const std::string show_page = identity_url(show_link);
  matcher.apply(
      [&](const EpisodeIdentity& e) {
        std::string link = identity_url(e.link);
        while (!link.empty() && link.back() == '/') {
          link.pop_back();
        }
        std::string show = show_page;
        while (!show.empty() && show.back() == '/') {
          show.pop_back();
        }
        return link == show ? std::string() : link;
      },
      false);
  // 4. Title and UTC day, with durations that agree when both are known.
  matcher.apply(
      [](const EpisodeIdentity& e) {
        const auto day = utc_day(e.published);
        const std::string title = title_key(e.title);
        return day && !title.empty() ? title + "|" + std::to_string(*day) : std::string();
      },
      true);
  // 5. A host move: the enclosure's file name and the UTC day.
  matcher.apply(
      [](const EpisodeIdentity& e) {
        const auto day = utc_day(e.published);
        const std::string file = identity_file_name(identity_url(e.enclosure_url));
        return day && !file.empty() ? file + "|" + std::to_string(*day) : std::string();
      },
      false);
  return matches;
}

} // namespace podcrawl::store

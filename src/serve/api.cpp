#include <algorithm>
#include <charconv>
#include <map>

#include "api_internal.hpp"
#include "podcrawl/core/ascii.hpp"
#include "podcrawl/core/text.hpp"
#include "podcrawl/model/pages.hpp"
#include "podcrawl/serve/answer.hpp"
#include "podcrawl/serve/route.hpp"

namespace podcrawl::serve::internal {

namespace {

// Fields of a query read; the endpoints take a handful.
constexpr std::size_t k_max_fields = 32;
// Longest URL or podcast:guid a request may look a feed up by.
constexpr std::size_t k_max_lookup_bytes = 8192;
// Longest excludeString of recent/episodes, and of a list of languages or categories.
constexpr std::size_t k_max_filter_bytes = 1000;
// Results of a search when the request does not say (Podcast Index leaves it open).
constexpr std::int64_t k_default_search_max = 40;
// Episodes of episodes/byfeedid and byfeedurl when the request does not say.
constexpr std::int64_t k_default_episodes_max = 100;
constexpr std::int64_t k_default_recent_episodes_max = 10;
constexpr std::int64_t k_default_recent_feeds_max = 40;
// iTunes Search: `limit` 1–200, 50 when absent.
constexpr std::int64_t k_itunes_default_limit = 50;
constexpr std::int64_t k_itunes_max_limit = 200;
// gpodder.net's search answers this many podcasts at most.
constexpr std::int64_t k_gpodder_results = 100;
constexpr int k_max_scale_logo = 256;

const char* const k_json = "application/json; charset=utf-8";
const char* const k_text = "text/plain; charset=utf-8";

struct Named {
  std::string_view path;
  Endpoint endpoint;
  const char* name;
};

constexpr Named k_endpoints[] = {
    {"api/1.0/search/byterm", Endpoint::search_byterm, "search/byterm"},
    {"api/1.0/search/bytitle", Endpoint::search_bytitle, "search/bytitle"},
    {"api/1.0/podcasts/byfeedid", Endpoint::podcasts_byfeedid, "podcasts/byfeedid"},
    {"api/1.0/podcasts/byfeedurl", Endpoint::podcasts_byfeedurl, "podcasts/byfeedurl"},
    {"api/1.0/podcasts/byguid", Endpoint::podcasts_byguid, "podcasts/byguid"},
    {"api/1.0/episodes/byfeedid", Endpoint::episodes_byfeedid, "episodes/byfeedid"},
    {"api/1.0/episodes/byfeedurl", Endpoint::episodes_byfeedurl, "episodes/byfeedurl"},
    {"api/1.0/episodes/byid", Endpoint::episodes_byid, "episodes/byid"},
    {"api/1.0/recent/episodes", Endpoint::recent_episodes, "recent/episodes"},
    {"api/1.0/recent/feeds", Endpoint::recent_feeds, "recent/feeds"},
    {"api/1.0/categories/list", Endpoint::categories_list, "categories/list"},
    {"api/1.0/stats/current", Endpoint::stats_current, "stats/current"},
    {"api/1.0/add/byfeedurl", Endpoint::add_byfeedurl, "add/byfeedurl"},
    {"api/1.0/openapi.json", Endpoint::openapi, "openapi.json"},
    {"api/1.0/hub/pubnotify", Endpoint::hub_pubnotify, "hub/pubnotify"},
    {"search", Endpoint::itunes_search, "itunes/search"},
    {"lookup", Endpoint::itunes_lookup, "itunes/lookup"},
    {"search.json", Endpoint::gpodder_json, "gpodder/search.json"},
    {"search.opml", Endpoint::gpodder_opml, "gpodder/search.opml"},
    {"search.txt", Endpoint::gpodder_txt, "gpodder/search.txt"},
};

// A query's fields by their names in lower case, the first of each name, decoded.
class Fields {
public:
  explicit Fields(std::string_view query) {
    std::size_t start = 0;
    std::size_t read = 0;
    while (start <= query.size() && read < k_max_fields) {
      const std::size_t end = std::min(query.find('&', start), query.size());
      const std::string_view field = query.substr(start, end - start);
      start = end + 1;
      if (field.empty()) {
        continue;
      }
      ++read;
      const std::size_t equals = field.find('=');
      std::string name = core::ascii_lower(form_decoded(field.substr(0, equals)));
      std::string value =
          equals == std::string_view::npos ? std::string() : form_decoded(field.substr(equals + 1));
      m_fields.emplace(std::move(name), std::move(value));
    }
  }

  bool has(std::string_view name) const {
    return m_fields.find(std::string(name)) != m_fields.end();
  }

  // The value, white space trimmed; nullopt when the field is absent.
  std::optional<std::string> get(std::string_view name) const {
    const auto found = m_fields.find(std::string(name));
    if (found == m_fields.end()) {
      return std::nullopt;
    }
    return std::string(core::trim(found->second));
  }

private:
  std::map<std::string, std::string> m_fields;
};

// The items of a comma list, white space trimmed, empty ones kept, in order; none for "".
std::vector<std::string_view> comma_items(std::string_view list) {
  std::vector<std::string_view> items;
  std::size_t start = 0;
  while (!list.empty() && start <= list.size()) {
    const std::size_t end = std::min(list.find(',', start), list.size());
    items.push_back(core::trim(list.substr(start, end - start)));
    start = end + 1;
  }
  return items;
}

std::optional<std::int64_t> integer(std::string_view text) {
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) {
    return std::nullopt;
  }
  return value;
}

// A parameter that must be an integer when present: the request is refused when it is not.
class Reading {
public:
  explicit Reading(const Fields& fields) : m_fields(fields) {}

  bool ok() const { return m_ok; }
  void refuse() { m_ok = false; }

  // An empty value counts as absent: clients send `since=` for a parameter they leave unset.
  std::optional<std::int64_t> number(std::string_view name, std::int64_t low, std::int64_t high) {
    const auto text = m_fields.get(name);
    if (!text || text->empty()) {
      return std::nullopt;
    }
    const auto value = integer(*text);
    if (!value || *value < low || *value > high) {
      m_ok = false;
      return std::nullopt;
    }
    return value;
  }

  // `max`: 1 or more; more than the bound is read as the bound.
  std::int64_t max(std::string_view name, std::int64_t fallback, std::int64_t bound) {
    const auto value = number(name, 1, INT64_MAX);
    return value ? std::min(*value, bound) : fallback;
  }

  // A required text of at most max_bytes of valid UTF-8, not empty.
  std::string text(std::string_view name, std::size_t max_bytes) {
    auto value = m_fields.get(name);
    if (!value || value->empty() || value->size() > max_bytes || !core::is_valid_utf8(*value)) {
      m_ok = false;
      return {};
    }
    return std::move(*value);
  }

  // An optional text, "" when absent.
  std::string optional_text(std::string_view name, std::size_t max_bytes) {
    auto value = m_fields.get(name);
    if (!value) {
      return {};
    }
    if (value->size() > max_bytes || !core::is_valid_utf8(*value)) {
      m_ok = false;
      return {};
    }
    return std::move(*value);
  }

  // A search's words: at most model::k_max_search_query_chars characters.
  std::string words(std::string_view name) {
    std::string value = text(name, 4 * model::k_max_search_query_chars);
    const auto characters = std::count_if(value.begin(), value.end(), [](char c) {
      return (static_cast<unsigned char>(c) & 0xC0U) != 0x80U;
    });
    if (m_ok && static_cast<std::size_t>(characters) > model::k_max_search_query_chars) {
      m_ok = false;
    }
    return value;
  }

  // A comma list of ids, 1 to k_api_max_ids of them, each a positive integer.
  void ids(std::string_view name, ApiRequest& request) {
    const auto value = m_fields.get(name);
    if (!value || value->empty()) {
      m_ok = false;
      return;
    }
    for (const std::string_view part : comma_items(*value)) {
      const auto id = integer(part);
      if (!id || *id < 1 || request.ids.size() == model::k_api_max_ids) {
        m_ok = false;
        return;
      }
      request.ids.push_back(*id);
      request.id_texts.emplace_back(part);
    }
  }

  // A comma list of words, lower case: languages or categories.
  std::vector<std::string> list(std::string_view name) {
    std::vector<std::string> items;
    const std::string value = optional_text(name, k_max_filter_bytes);
    for (const std::string_view part : comma_items(value)) {
      if (!part.empty()) {
        items.push_back(core::ascii_lower(part));
      }
    }
    return items;
  }

private:
  const Fields& m_fields;
  bool m_ok = true;
};

// Podcast Index's `since`: Unix seconds, or a negative number of seconds before now.
std::optional<std::int64_t> since_of(Reading& reading, std::int64_t now) {
  const auto since = reading.number("since", -now, INT64_MAX);
  if (since && *since < 0) {
    return now + *since;
  }
  return since;
}

void read_parameters(ApiRequest& request, const Fields& fields, Reading& reading,
                     std::int64_t now) {
  using model::k_api_max_results;
  switch (request.endpoint) {
    case Endpoint::search_byterm:
    case Endpoint::search_bytitle:
      request.text = reading.words("q");
      request.max = reading.max("max", k_default_search_max, k_api_max_results);
      request.clean = fields.has("clean");
      request.needs_unknown = fields.has("val") || fields.has("aponly");
      return;
    case Endpoint::podcasts_byfeedid:
    case Endpoint::episodes_byid:
      request.ids.clear();
      if (const auto id = reading.number("id", 1, INT64_MAX)) {
        request.ids.push_back(*id);
        request.id_texts.push_back(std::to_string(*id));
      } else {
        reading.refuse();
      }
      return;
    case Endpoint::podcasts_byfeedurl:
      request.text = reading.text("url", k_max_lookup_bytes);
      return;
    case Endpoint::podcasts_byguid:
      request.text = reading.text("guid", k_max_lookup_bytes);
      return;
    case Endpoint::episodes_byfeedid:
      reading.ids("id", request);
      request.since = since_of(reading, now);
      request.max = reading.max("max", k_default_episodes_max, k_api_max_results);
      request.newest = fields.has("newest");
      request.enclosure = reading.optional_text("enclosure", k_max_lookup_bytes);
      return;
    case Endpoint::episodes_byfeedurl:
      request.text = reading.text("url", k_max_lookup_bytes);
      request.since = since_of(reading, now);
      request.max = reading.max("max", k_default_episodes_max, k_api_max_results);
      return;
    case Endpoint::recent_episodes:
      request.max = reading.max("max", k_default_recent_episodes_max, k_api_max_results);
      request.before = reading.number("before", 1, INT64_MAX);
      request.text = reading.optional_text("excludestring", k_max_filter_bytes);
      return;
    case Endpoint::recent_feeds:
      request.max = reading.max("max", k_default_recent_feeds_max, k_api_max_results);
      request.since = since_of(reading, now);
      request.recent.max = request.max;
      request.recent.since = request.since;
      request.recent.languages = reading.list("lang");
      for (auto& language : request.recent.languages) {
        if (language == "unknown") {
          language.clear();
        }
      }
      request.recent.categories = reading.list("cat");
      request.recent.not_categories = reading.list("notcat");
      return;
    case Endpoint::categories_list:
    case Endpoint::stats_current:
    case Endpoint::openapi:
      return;
    case Endpoint::add_byfeedurl:
      // chash and itunesid are Podcast Index's own checks of what it already holds.
      request.text = reading.text("url", k_max_lookup_bytes);
      return;
    case Endpoint::hub_pubnotify:
      // The feed by its id or by its URL, one of them.
      if (fields.has("id")) {
        if (const auto id = reading.number("id", 1, INT64_MAX)) {
          request.ids.push_back(*id);
          request.id_texts.push_back(std::to_string(*id));
        }
      } else {
        request.text = reading.text("url", k_max_lookup_bytes);
      }
      return;
    case Endpoint::itunes_search: {
      request.text = reading.words("term");
      request.max = reading.max("limit", k_itunes_default_limit, k_itunes_max_limit);
      const std::string media = core::ascii_lower(reading.optional_text("media", 100));
      // A comma list: Mopidy's library searches "podcast,podcastEpisode".
      const auto entities = reading.list("entity");
      request.podcasts =
          (media.empty() || media == "podcast" || media == "all") &&
          (entities.empty() ||
           std::any_of(entities.begin(), entities.end(), [](const auto& entity) {
             return entity == "podcast" || entity == "allentity" || entity == "allartist";
           }));
      return;
    }
    case Endpoint::itunes_lookup:
      reading.ids("id", request);
      return;
    case Endpoint::gpodder_json:
    case Endpoint::gpodder_opml:
    case Endpoint::gpodder_txt:
      request.text = reading.words("q");
      request.max = k_gpodder_results;
      if (const auto scale = reading.number("scale_logo", 1, k_max_scale_logo)) {
        request.scale_logo = static_cast<int>(*scale);
      }
      return;
  }
}

} // namespace

std::optional<Endpoint> endpoint_of(std::string_view path) {
  for (const auto& named : k_endpoints) {
    if (named.path == path) {
      return named.endpoint;
    }
  }
  return std::nullopt;
}

const char* to_string(Endpoint endpoint) {
  for (const auto& named : k_endpoints) {
    if (named.endpoint == endpoint) {
      return named.name;
    }
  }
  return "api";
}

bool needs_key(Endpoint endpoint) {
  return endpoint < Endpoint::openapi;
}

bool writes(Endpoint endpoint) {
  return endpoint == Endpoint::add_byfeedurl;
}

bool takes_post(Endpoint endpoint) {
  return endpoint == Endpoint::hub_pubnotify || writes(endpoint);
}

std::string parameters_of(const http::Request& request) {
  const std::string type = core::ascii_lower(request.header("Content-Type"));
  if (request.method != "POST" || !type.starts_with("application/x-www-form-urlencoded")) {
    return request.query;
  }
  return request.query.empty() ? request.body : request.query + "&" + request.body;
}

std::optional<ApiRequest> read_api_request(Endpoint endpoint, std::string_view query,
                                           std::int64_t now) {
  const Fields fields(query);
  Reading reading(fields);
  ApiRequest request;
  request.endpoint = endpoint;
  request.style.fulltext = fields.has("fulltext");
  request.style.pretty = fields.has("pretty");
  read_parameters(request, fields, reading, now);
  if (!reading.ok()) {
    return std::nullopt;
  }
  return request;
}

std::string cache_key(const ApiRequest& request) {
  const auto join = [](const std::vector<std::string>& items) {
    std::string text;
    for (const auto& item : items) {
      text += (text.empty() ? "" : ",") + item;
    }
    return text;
  };
  std::string key = std::string("api:") + to_string(request.endpoint);
  key += request.style.fulltext ? " fulltext" : "";
  key += request.style.pretty ? " pretty" : "";
  key += request.newest ? " newest" : "";
  key += request.clean ? " clean" : "";
  key += request.needs_unknown ? " val" : "";
  key += request.podcasts ? "" : " other-media";
  key += " max=" + std::to_string(request.max);
  key += " since=" + (request.since ? std::to_string(*request.since) : "");
  key += " before=" + (request.before ? std::to_string(*request.before) : "");
  key += " scale=" + (request.scale_logo ? std::to_string(*request.scale_logo) : "");
  key += " ids=" + join(request.id_texts);
  key += " lang=" + join(request.recent.languages);
  key += " cat=" + join(request.recent.categories);
  key += " notcat=" + join(request.recent.not_categories);
  key += " enclosure=" + std::to_string(request.enclosure.size()) + ":" + request.enclosure;
  // Last: the text may hold any character.
  key += " text=" + request.text;
  return key;
}

const char* content_type_of(Endpoint endpoint) {
  switch (endpoint) {
    case Endpoint::gpodder_opml:
      return k_opml;
    case Endpoint::gpodder_txt:
      return k_text;
    default:
      return k_json;
  }
}

} // namespace podcrawl::serve::internal

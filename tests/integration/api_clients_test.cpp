// Third-party clients of the directory's APIs, each pointed at a live `podcrawl serve` on loopback:
// gpodder.net's (mygpoclient), the iTunes Search API's (mopidy-podcast-itunes), and two npm clients
// of Podcast Index's (podcastdx-client, whose JSON Schemas every answer is held to, and
// podcast-index-api). The scripts that drive them are in tests/api_clients/; the Debian clients
// come from scripts/bootstrap --check-site, the npm ones from scripts/check-site --install-only
// (var/tools/check-site). A test whose client is not installed is skipped, saying so.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "api_fixture.hpp"
#include "support/http_client.hpp"

namespace podcrawl {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// Debian's Python, where Debian's clients are installed (another python3 may come first on PATH).
constexpr const char* k_python = "/usr/bin/python3";
const fs::path k_source_dir = PODCRAWL_SOURCE_DIR;
const fs::path k_scripts = k_source_dir / "tests" / "api_clients";
// Where scripts/check-site --install-only installs the npm packages.
const fs::path k_tools = k_source_dir / "var" / "tools" / "check-site";

constexpr const char* k_tech_title = "Loopback Tech Talk";
constexpr const char* k_arabic_title = "بودكاست الحلقة";
constexpr int k_episodes_asked = 5; // the `max` podcast_index.cjs asks for

// The program's path on PATH; nullopt when it is not there.
std::optional<fs::path> find_program(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string_view rest = path == nullptr ? "" : path;
  while (!rest.empty()) {
    const auto colon = std::min(rest.find(':'), rest.size());
    const fs::path candidate = fs::path(rest.substr(0, colon)) / name;
    if (access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
    rest.remove_prefix(std::min(colon + 1, rest.size()));
  }
  return std::nullopt;
}

// Why Debian's Python module cannot be used; "" when it can.
std::string missing_python_module(const std::string& module, const std::string& package) {
  if (access(k_python, X_OK) != 0) {
    return std::string(k_python) + " is not installed";
  }
  const auto found = testing::run_process(
      {k_python, "-c",
       "import importlib.util, sys; sys.exit(importlib.util.find_spec('" + module + "') is None)"});
  return found.status == 0 ? "" : package + " is not installed (scripts/bootstrap --check-site)";
}

// Why node or these npm packages of var/tools/check-site cannot be used; "" when they can.
std::string missing_npm_packages(const std::vector<std::string>& packages) {
  if (!find_program("node")) {
    return "node is not on PATH";
  }
  for (const auto& package : packages) {
    if (!fs::exists(k_tools / "node_modules" / package / "package.json")) {
      return package + " is not installed in " + k_tools.string() +
             " (scripts/check-site --install-only)";
    }
  }
  return "";
}

// A test of one client against the directory ApiServe makes: skipped, before anything is made,
// when the client is not installed.
class ApiClientTest : public testing::ApiServe {
protected:
  void SetUp() override {
    if (const std::string missing = missing_client(); !missing.empty()) {
      GTEST_SKIP() << missing;
    }
    ApiServe::SetUp();
  }

  // Why the client cannot run here; "" when it can.
  virtual std::string missing_client() const = 0;

  // Run a client; its stdout as JSON. Fails the test when it does not exit 0.
  static json run_client(const std::vector<std::string>& arguments) {
    const auto ran = testing::run_process(arguments);
    std::string command;
    for (const auto& argument : arguments) {
      command += (command.empty() ? "" : " ") + argument;
    }
    EXPECT_EQ(ran.status, 0) << command << "\nprinted:\n" << ran.out;
    if (ran.status != 0) {
      return json();
    }
    return json::parse(ran.out);
  }

  static std::string base_url(int port) { return "http://127.0.0.1:" + std::to_string(port); }

private:
  // The clients' own HTTP libraries (urllib, requests) honour proxy variables: loopback is
  // reached directly.
  testing::ScopedEnv m_no_proxy{"no_proxy", "127.0.0.1,localhost"};
  testing::ScopedEnv m_no_proxy_upper{"NO_PROXY", "127.0.0.1,localhost"};
};

// Each object of `list` whose `field` is `value`.
std::vector<json> with(const json& list, const std::string& field, const json& value) {
  std::vector<json> found;
  for (const auto& item : list) {
    if (item.contains(field) && item[field] == value) {
      found.push_back(item);
    }
  }
  return found;
}

class ApiClientMygpo : public ApiClientTest {
protected:
  std::string missing_client() const override {
    return missing_python_module("mygpoclient", "python3-mygpoclient");
  }

  json search(const std::string& root_url, const std::string& term) {
    return run_client({k_python, (k_scripts / "mygpo.py").string(), root_url, term});
  }
};

TEST_F(ApiClientMygpo, PublicClientSearchesFindTheShowsWithEveryFieldItRequires) {
  const int port = start_serve();
  ASSERT_NE(port, 0);
  // mygpo.py builds mygpoclient's simple.Podcast of each result, which refuses one that lacks a
  // field gPodder reads.
  const json found = search(base_url(port), "tech talk");
  ASSERT_TRUE(found.is_array()) << found.dump();
  const auto tech = with(found, "url", m_feeds.url("/tech.xml"));
  ASSERT_EQ(tech.size(), 1U) << found.dump(1);
  EXPECT_EQ(tech[0]["title"], k_tech_title);
  EXPECT_EQ(tech[0]["website"], "https://tech.example/");
  EXPECT_EQ(tech[0]["subscribers"], 0);
  EXPECT_NE(tech[0]["mygpo_link"].get<std::string>().find("/podcasts/"), std::string::npos)
      << tech[0].dump();

  // A root URL may also be a bare host (mygpoclient adds http://); words in any script.
  const json arabic = search("127.0.0.1:" + std::to_string(port), "الحلقة");
  ASSERT_TRUE(arabic.is_array()) << arabic.dump();
  const auto shows = with(arabic, "url", m_feeds.url("/ar.xml"));
  ASSERT_EQ(shows.size(), 1U) << arabic.dump(1);
  EXPECT_EQ(shows[0]["title"], k_arabic_title);

  EXPECT_EQ(search(base_url(port), "nothing-matches-this"), json::array());
}

class ApiClientItunes : public ApiClientTest {
protected:
  std::string missing_client() const override {
    return missing_python_module("mopidy_podcast_itunes", "mopidy-podcast-itunes");
  }

  // The client's base URL: the iTunes Search API's paths sit at the server's root.
  static std::string itunes_base(int port) { return base_url(port) + "/"; }
};

TEST_F(ApiClientItunes, TheClientAndTheExtensionsLibrarySearchFindTheShows) {
  const int port = start_serve();
  ASSERT_NE(port, 0);
  // The client module's command line, as its documentation runs it.
  const json results =
      run_client({k_python, "-m", "mopidy_podcast_itunes.client", "-B", itunes_base(port), "-m",
                  "podcast", "-e", "podcast", "tech talk"});
  ASSERT_TRUE(results.is_array()) << results.dump();
  const auto tech = with(results, "feedUrl", m_feeds.url("/tech.xml"));
  ASSERT_EQ(tech.size(), 1U) << results.dump(1);
  EXPECT_EQ(tech[0]["kind"], "podcast");
  EXPECT_EQ(tech[0]["collectionName"], k_tech_title);

  // The Mopidy extension's library search: an "any" query asks for the entities
  // "podcast,podcastEpisode", an "album" query for "podcast" by titleTerm; each result must
  // translate to an album.
  const json searched = run_client(
      {k_python, (k_scripts / "itunes.py").string(), "search", itunes_base(port), "tech talk"});
  for (const char* query : {"any", "album"}) {
    ASSERT_TRUE(searched.contains(query)) << searched.dump();
    const auto albums = with(searched[query], "uri", "podcast+" + m_feeds.url("/tech.xml"));
    ASSERT_EQ(albums.size(), 1U) << query << ": " << searched.dump(1);
    EXPECT_EQ(albums[0]["name"], k_tech_title);
    EXPECT_EQ(albums[0]["artists"], json::array({"Ada Example"}));
    EXPECT_EQ(albums[0]["num_tracks"], testing::k_tech_episodes);
    EXPECT_EQ(albums[0]["date"], "2026-11-30") << "the newest episode's day";
  }
}

TEST_F(ApiClientItunes, TheExtensionsChartsLookUpTheShowsTheyList) {
  const int port = start_serve();
  ASSERT_NE(port, 0);
  // The ids the directory gives the two shows, as its own search answers them.
  std::vector<std::int64_t> ids;
  for (const char* target :
       {"/search?term=tech+talk", "/search?term=%D8%A7%D9%84%D8%AD%D9%84%D9%82%D8%A9"}) {
    const auto answer = json::parse(testing::get(port, target).body);
    ASSERT_GE(answer["resultCount"].get<int>(), 1) << target;
    ids.push_back(answer["results"][0]["collectionId"].get<std::int64_t>());
  }
  // A chart as Apple's store lists one (the ids only), which the client then looks up.
  m_feeds.serve_feed("/chart.json", json({{"resultIds", ids}}).dump(), "application/json",
                     "\"chart-1\"");
  const json charts = run_client({k_python, (k_scripts / "itunes.py").string(), "charts",
                                  itunes_base(port), m_feeds.url("/chart.json")});
  ASSERT_TRUE(charts.contains("charts")) << charts.dump();
  const json expected = json::array(
      {{{"uri", "podcast+" + m_feeds.url("/tech.xml")}, {"name", k_tech_title}, {"type", "album"}},
       {{"uri", "podcast+" + m_feeds.url("/ar.xml")},
        {"name", k_arabic_title},
        {"type", "album"}}});
  EXPECT_EQ(charts["charts"], expected);
}

// The answers of one npm Podcast Index client (podcast_index.cjs), by the schema each is held
// to: every call made and answered, every answer with the schema's required fields and types,
// and the directory's shows and episodes in them.
class PodcastIndexClientTest : public ApiClientTest {
protected:
  json run_calls(const std::string& client, int port) {
    const json ran = run_client({find_program("node").value_or("node").string(),
                                 (k_scripts / "podcast_index.cjs").string(), client,
                                 k_tools.string(), base_url(port) + "/api/1.0", m_key.key,
                                 m_key.secret, m_feeds.url("/tech.xml"), "tech talk"});
    json by_schema = json::object();
    for (const auto& result : ran.value("results", json::array())) {
      const std::string call =
          result["schema"].get<std::string>() + " (" + result["name"].get<std::string>() + ")";
      EXPECT_FALSE(result.contains("thrown")) << call << " threw: " << result["thrown"];
      EXPECT_EQ(result.value("errors", json::array()), json::array())
          << call << " does not conform to its schema:\n"
          << result.value("errors", json::array()).dump(1)
          << "\nanswer: " << result.value("answer", json()).dump().substr(0, 2000);
      if (result.contains("answer")) {
        by_schema[result["schema"].get<std::string>()] = result["answer"];
      }
    }
    m_signed_dates = ran.value("signedDates", json::array());
    return by_schema;
  }

  void check_answers(const json& answers, const std::set<std::string>& schemas) {
    std::set<std::string> answered;
    for (const auto& [schema, answer] : answers.items()) {
      answered.insert(schema);
    }
    ASSERT_EQ(answered, schemas);
    const std::string tech_url = m_feeds.url("/tech.xml");

    EXPECT_EQ(with(answers["search-byterm"]["feeds"], "url", tech_url).size(), 1U)
        << answers["search-byterm"].dump();
    const json& by_url = answers["podcasts-byfeedurl"]["feed"];
    EXPECT_EQ(by_url["url"], tech_url);
    EXPECT_EQ(by_url["title"], k_tech_title);
    EXPECT_EQ(by_url["episodeCount"], testing::k_tech_episodes);
    EXPECT_EQ(answers["podcasts-byfeedid"]["feed"]["id"], by_url["id"]);
    EXPECT_EQ(answers["podcasts-byfeedid"]["feed"]["url"], tech_url);

    const json& by_feed_id = answers["episodes-byfeedid"]["items"];
    ASSERT_EQ(by_feed_id.size(), static_cast<std::size_t>(k_episodes_asked));
    EXPECT_EQ(answers["episodes-byfeedid"]["count"], k_episodes_asked);
    for (const auto& item : by_feed_id) {
      EXPECT_EQ(item["feedId"], by_url["id"]);
    }
    EXPECT_EQ(answers["episodes-byfeedurl"]["items"], by_feed_id);
    EXPECT_EQ(answers["episodes-byid"]["episode"]["id"], by_feed_id[0]["id"]);
    EXPECT_EQ(answers["episodes-byid"]["episode"]["feedTitle"], k_tech_title);

    // The newest episodes the directory took in, the newest first.
    const json& recent = answers["recent-episodes"]["items"];
    ASSERT_EQ(recent.size(), static_cast<std::size_t>(k_episodes_asked));
    for (std::size_t i = 1; i < recent.size(); ++i) {
      EXPECT_GT(recent[i - 1]["id"], recent[i]["id"]) << recent.dump();
    }
    const json& feeds = answers["recent-feeds"]["feeds"];
    EXPECT_EQ(with(feeds, "url", tech_url).size(), 1U) << feeds.dump();
    EXPECT_EQ(with(feeds, "url", m_feeds.url("/ar.xml")).size(), 1U) << feeds.dump();
    EXPECT_EQ(with(answers["categories-list"]["feeds"], "name", "Technology").size(), 1U)
        << answers["categories-list"].dump();
  }

  json m_signed_dates;
};

const std::set<std::string> k_common_schemas = {
    "search-byterm",     "podcasts-byfeedurl", "podcasts-byfeedid",
    "episodes-byfeedid", "episodes-byfeedurl", "episodes-byid",
    "recent-episodes",   "recent-feeds",       "categories-list"};

class ApiClientPodcastdx : public PodcastIndexClientTest {
protected:
  std::string missing_client() const override {
    return missing_npm_packages({"podcastdx-client", "ajv"});
  }
};

TEST_F(ApiClientPodcastdx, EveryCallAnswersAsTheSchemasTheClientShipsSay) {
  const int port = start_serve();
  ASSERT_NE(port, 0);
  const json answers = run_calls("podcastdx-client", port);
  ASSERT_FALSE(HasFailure()) << "every call answered, as its schema says";
  auto schemas = k_common_schemas;
  schemas.insert("stats-current");
  check_answers(answers, schemas);
  EXPECT_EQ(answers["stats-current"]["stats"]["feedCountTotal"], 2);
}

class ApiClientPodcastIndexApi : public PodcastIndexClientTest {
protected:
  std::string missing_client() const override {
    return missing_npm_packages({"podcast-index-api", "podcastdx-client", "ajv"});
  }
};

TEST_F(ApiClientPodcastIndexApi, SignedWithFractionalDatesEveryCallAnswersAsTheSchemasSay) {
  const int port = start_serve();
  ASSERT_NE(port, 0);
  const json answers = run_calls("podcast-index-api", port);
  ASSERT_FALSE(HasFailure()) << "every call answered, as its schema says";
  check_answers(answers, k_common_schemas);
  // The client signs Date.getTime() / 1000: a number with a fraction, but once a thousand times.
  ASSERT_EQ(m_signed_dates.size(), k_common_schemas.size()) << m_signed_dates.dump();
  EXPECT_TRUE(std::all_of(m_signed_dates.begin(), m_signed_dates.end(), [](const json& date) {
    return date.is_number();
  })) << m_signed_dates.dump();
  EXPECT_TRUE(std::any_of(m_signed_dates.begin(), m_signed_dates.end(), [](const json& date) {
    return date.is_number_float();
  })) << m_signed_dates.dump();
}

} // namespace
} // namespace podcrawl

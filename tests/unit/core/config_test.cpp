#include "podcrawl/core/config.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "podcrawl/core/error.hpp"
#include "support/temp_dir.hpp"

namespace podcrawl::core {
namespace {

TEST(LoadConfig, ReadsEverySectionOverTheDefaults) {
  testing::TempDir dir;
  const auto file = dir.path() / "podcrawl.toml";
  testing::write_file(file, R"(
[database]
url = "postgresql://example/db"
[fetch]
allow_private_networks = true
max_body_bytes = 1000
[crawl]
concurrency = 3
[render]
locales = ["ar", "fr"]
site_url = "https://podcasts.example"
[api]
open = true
requests_per_second = 0.5
burst = 20
[submit]
enabled = false
review = true
per_address_per_hour = 3
per_hour = 50
[websub]
callback_base = "https://podcasts.example/"
lease_seconds = 86400
)");
  const Config config = load_config(file);
  EXPECT_EQ(config.database_url, std::optional<std::string>("postgresql://example/db"));
  EXPECT_TRUE(config.fetch.allow_private_networks);
  EXPECT_EQ(config.fetch.max_body_bytes, 1000);
  EXPECT_EQ(config.fetch.max_redirects, FetchConfig{}.max_redirects);
  EXPECT_EQ(config.crawl.concurrency, 3);
  EXPECT_EQ(config.render.locales, (std::vector<std::string>{"ar", "fr"}));
  EXPECT_EQ(config.render.site_url, "https://podcasts.example");
  EXPECT_TRUE(config.api.open);
  EXPECT_EQ(config.api.requests_per_second, 0.5);
  EXPECT_EQ(config.api.burst, 20.0); // an integer is read as the number it is
  EXPECT_FALSE(config.submit.enabled);
  EXPECT_TRUE(config.submit.review);
  EXPECT_EQ(config.submit.per_address_per_hour, 3);
  EXPECT_EQ(config.submit.per_hour, 50);
  EXPECT_EQ(config.websub.callback_base, "https://podcasts.example"); // callbacks append "/websub/"
  EXPECT_EQ(config.websub.lease_seconds, 86400);
}

TEST(LoadConfig, TheShippedFileParsesToTheBuiltInDefaults) {
  const Config shipped = load_config(data_dir() / "config" / "podcrawl.toml");
  const Config defaults;
  EXPECT_FALSE(shipped.database_url.has_value());
  EXPECT_EQ(shipped.fetch.max_body_bytes, defaults.fetch.max_body_bytes);
  EXPECT_EQ(shipped.fetch.allow_private_networks, defaults.fetch.allow_private_networks);
  EXPECT_EQ(shipped.crawl.refresh_interval_seconds, defaults.crawl.refresh_interval_seconds);
  EXPECT_EQ(shipped.crawl.backoff_ceiling_seconds, defaults.crawl.backoff_ceiling_seconds);
  EXPECT_EQ(shipped.crawl.failing_score, defaults.crawl.failing_score);
  EXPECT_EQ(shipped.render.locales, defaults.render.locales);
  EXPECT_TRUE(defaults.render.locales.empty()); // render then uses every catalog
  EXPECT_EQ(shipped.art.enabled, defaults.art.enabled);
  EXPECT_EQ(shipped.art.dir, defaults.art.dir);
  EXPECT_EQ(shipped.art.refresh_seconds, defaults.art.refresh_seconds);
  EXPECT_EQ(shipped.art.retry_seconds, defaults.art.retry_seconds);
  EXPECT_EQ(shipped.art.max_bytes, defaults.art.max_bytes);
  EXPECT_EQ(shipped.art.max_pixels, defaults.art.max_pixels);
  EXPECT_EQ(shipped.art.helper, defaults.art.helper);
  EXPECT_EQ(shipped.api.open, defaults.api.open);
  EXPECT_FALSE(defaults.api.open); // read endpoints need a key unless the operator says otherwise
  EXPECT_EQ(shipped.api.requests_per_second, defaults.api.requests_per_second);
  EXPECT_EQ(shipped.api.burst, defaults.api.burst);
  EXPECT_EQ(shipped.submit.enabled, defaults.submit.enabled);
  EXPECT_EQ(shipped.submit.review, defaults.submit.review);
  EXPECT_EQ(shipped.submit.per_address_per_hour, defaults.submit.per_address_per_hour);
  EXPECT_EQ(shipped.submit.per_hour, defaults.submit.per_hour);
  EXPECT_EQ(shipped.websub.callback_base, defaults.websub.callback_base);
  EXPECT_TRUE(defaults.websub.callback_base.empty()); // push is off until the operator sets it
  EXPECT_EQ(shipped.websub.lease_seconds, defaults.websub.lease_seconds);
}

TEST(LoadConfig, AcceptsEveryWayOfWritingKnownKeys) {
  testing::TempDir dir;
  const char* const accepted[] = {
      "",
      "# only a comment\n",
      "[fetch]\n",
      "fetch.max_redirects = 3\n",
      "[render]\nlocales = []\n",
      "[crawl]\nmin_refresh_seconds = 60\nmax_refresh_seconds = 60\n",
      "[crawl]\nconcurrency = 2147483647\n",
      "[crawl]\nfailing_score = 1\n",
      "[database]\nurl = \"\"\n",
      "[art]\nenabled = false\ndir = \"/srv/podcrawl/art\"\nmax_pixels = 1000000\n",
      "[api]\nrequests_per_second = 1e-3\nburst = 1\n",
      "[api]\nrequests_per_second = 1000\nburst = 1.5\n",
  };
  for (const char* content : accepted) {
    testing::write_file(dir.path() / "accepted.toml", content);
    EXPECT_NO_THROW(load_config(dir.path() / "accepted.toml")) << content;
  }
}

// Regression: a misspelt key ("[fecth]", "total_timeout") was silently ignored and the default
// used, and a bad value was reported without saying where it was.
TEST(LoadConfig, ReadsPerHostRules) {
  testing::TempDir dir;
  const auto file = dir.path() / "podcrawl.toml";
  testing::write_file(file, R"(
[crawl]
per_host = 2
per_host_max = 48
[crawl.hosts."Feeds.Libsyn.com."]
ceiling = 64
requests_per_second = 20
[crawl.hosts."small.example"]
floor = 1
ceiling = 2
)");
  const Config config = load_config(file);
  EXPECT_EQ(config.crawl.per_host, 2);
  EXPECT_EQ(config.crawl.per_host_max, 48);
  ASSERT_EQ(config.crawl.hosts.size(), 2u);
  const auto libsyn =
      std::find_if(config.crawl.hosts.begin(), config.crawl.hosts.end(),
                   [](const HostRule& rule) { return rule.host == "feeds.libsyn.com"; });
  ASSERT_NE(libsyn, config.crawl.hosts.end());
  EXPECT_EQ(libsyn->ceiling, std::optional<int>(64));
  EXPECT_EQ(libsyn->requests_per_second, std::optional<int>(20));
  EXPECT_FALSE(libsyn->floor);
}

TEST(LoadConfig, NamesTheFileAndLineOfEveryProblem) {
  testing::TempDir dir;
  const struct {
    const char* content;
    const char* message; // after "FILE:"
  } rejected[] = {
      // a table podcrawl does not know
      {"[fetch]\nmax_redirects = 3\n\n[fecth]\nmax_redirects = 3\n", "4: unknown table \"fecth\""},
      {"verbose = true\n", "1: unknown key \"verbose\""},
      {"fetch = 1\n", "1: \"fetch\" must be a table"},
      // a key a known table does not have
      {"[fetch]\nmax_redirects = 3\nfoo = 1\n", "3: unknown key \"fetch.foo\""},
      {"fetch.total_timeout = 5\n", "1: unknown key \"fetch.total_timeout\""},
      {"[crawl.extra]\nx = 1\n", "1: unknown key \"crawl.extra\""},
      // a value of the wrong type
      {"[fetch]\n\nmax_body_bytes = \"big\"\n",
       "3: fetch.max_body_bytes must be a positive integer"},
      {"[fetch]\nallow_private_networks = \"yes\"\n",
       "2: fetch.allow_private_networks must be true or false"},
      {"[crawl]\nconcurrency = 1.5\n", "2: crawl.concurrency must be a positive integer"},
      {"[render]\nlocales = [1, 2]\n", "2: render.locales must be a list of strings"},
      {"[render]\nsite_url = 8080\n", "2: render.site_url must be a string"},
      {"[database]\nurl = true\n", "2: database.url must be a string"},
      // a value out of its range
      {"[fetch]\ntotal_timeout_seconds = -5\n",
       "2: fetch.total_timeout_seconds must be positive, not -5"},
      {"[fetch]\nconnect_timeout_seconds = 0\n",
       "2: fetch.connect_timeout_seconds must be positive, not 0"},
      {"[crawl]\nfailing_score = 0\n", "2: crawl.failing_score must be positive, not 0"},
      {"[serve]\nchanges = \"sometimes\"\n",
       "2: serve.changes must be \"auto\", \"notify\" or \"poll\", not \"sometimes\""},
      {"[api]\nopen = \"yes\"\n", "2: api.open must be true or false"},
      {"[api]\nrequests_per_second = \"10\"\n",
       "2: api.requests_per_second must be a positive number"},
      {"[api]\nrequests_per_second = 0\n",
       "2: api.requests_per_second must be a positive number, not 0"},
      {"[api]\nrequests_per_second = -2.5\n",
       "2: api.requests_per_second must be a positive number, not -2.5"},
      {"[api]\nrequests_per_second = inf\n",
       "2: api.requests_per_second must be a positive number, not inf"},
      {"[api]\nrequests_per_second = nan\n",
       "2: api.requests_per_second must be a positive number, not nan"},
      {"[api]\n\nburst = 0.5\n", "3: api.burst must be at least 1 (one request), not 0.5"},
      {"[api]\nrate = 5\n", "2: unknown key \"api.rate\""},
      {"[websub]\nlease_seconds = 1209601\n",
       "2: websub.lease_seconds must be at most 1209600 (14 days), not 1209601"},
      {"[websub]\ncallback_base = 1\n", "2: websub.callback_base must be a string"},
      {"[crawl]\nconcurrency = 3000000000\n",
       "2: crawl.concurrency must be at most 2147483647, not 3000000000"},
      {"[crawl]\nmin_refresh_seconds = 7200\nmax_refresh_seconds = 3600\n",
       "2: crawl.min_refresh_seconds (7200) exceeds crawl.max_refresh_seconds (3600)"},
      {"[crawl]\nhistory_days = 40000\n",
       "2: crawl.history_days (40000) exceeds a century (36500 days)"},
      {"[crawl]\nmax_refresh_seconds = 600\n",
       "2: crawl.min_refresh_seconds (900) exceeds crawl.max_refresh_seconds (600)"},
      {"[fetch]\nallowed_private_addresses = [\"10.0.0.5\",\n  \"intranet\"]\n",
       "2: fetch.allowed_private_addresses: \"intranet\" is not an IP address"},
      {"[crawl.hosts.\"libsyn.com\"]\nceiling = 0\n",
       "2: crawl.hosts.\"libsyn.com\".ceiling must be a positive integer up to 1000000"},
      {"[crawl.hosts.\"libsyn.com\"]\nburst = 3\n",
       "2: unknown key \"crawl.hosts.\"libsyn.com\".burst\""},
      {"[crawl.hosts.\"libsyn.com\"]\nfloor = 9\nceiling = 4\n",
       "1: crawl.hosts.\"libsyn.com\": floor exceeds ceiling"},
      // not TOML
      {"[fetch]\nmax_body_bytes = 1\n[crawl\n", "3: "},
      {"[fetch]\nuser_agent = \"unterminated\n", "2: "},
  };
  for (const auto& c : rejected) {
    const auto file = dir.path() / "rejected.toml";
    testing::write_file(file, c.content);
    const std::string expected = file.string() + ":" + c.message;
    try {
      load_config(file);
      ADD_FAILURE() << "accepted: " << c.content;
    } catch (const UsageError& error) {
      const std::string message = error.what();
      // A syntax error's description is toml++'s own: only its place is checked.
      EXPECT_EQ(message.substr(0, expected.size()), expected) << c.content;
      if (!expected.ends_with(": ")) {
        EXPECT_EQ(message, expected);
      } else {
        EXPECT_GT(message.size(), expected.size()) << message;
      }
    }
  }
}

} // namespace
} // namespace podcrawl::core

namespace podcrawl::core {
namespace {

TEST(LoadConfig, WritesAllowedPrivateAddressesAsInetNtopDoes) {
  const testing::TempDir dir;
  const auto file = dir.path() / "podcrawl.toml";
  std::ofstream(file) << "[fetch]\nallowed_private_addresses = [\"10.0.0.5\", \"FD00:0:0::1\", "
                         "\"::ffff:127.0.0.2\"]\n";
  EXPECT_EQ(load_config(file).fetch.allowed_private_addresses,
            (std::vector<std::string>{"10.0.0.5", "fd00::1", "::ffff:127.0.0.2"}));
}

} // namespace
} // namespace podcrawl::core

#include "podcrawl/core/config.hpp"

#include <gtest/gtest.h>

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
)");
  const Config config = load_config(file);
  EXPECT_EQ(config.database_url, std::optional<std::string>("postgresql://example/db"));
  EXPECT_TRUE(config.fetch.allow_private_networks);
  EXPECT_EQ(config.fetch.max_body_bytes, 1000);
  EXPECT_EQ(config.fetch.max_redirects, FetchConfig{}.max_redirects);
  EXPECT_EQ(config.crawl.concurrency, 3);
  EXPECT_EQ(config.render.locales, (std::vector<std::string>{"ar", "fr"}));
  EXPECT_EQ(config.render.site_url, "https://podcasts.example");
}

TEST(LoadConfig, TheShippedFileParsesToTheBuiltInDefaults) {
  const Config shipped = load_config(data_dir() / "config" / "podcrawl.toml");
  const Config defaults;
  EXPECT_FALSE(shipped.database_url.has_value());
  EXPECT_EQ(shipped.fetch.max_body_bytes, defaults.fetch.max_body_bytes);
  EXPECT_EQ(shipped.fetch.allow_private_networks, defaults.fetch.allow_private_networks);
  EXPECT_EQ(shipped.crawl.refresh_interval_seconds, defaults.crawl.refresh_interval_seconds);
  EXPECT_EQ(shipped.crawl.backoff_ceiling_seconds, defaults.crawl.backoff_ceiling_seconds);
  EXPECT_EQ(shipped.render.locales, defaults.render.locales);
  EXPECT_TRUE(defaults.render.locales.empty()); // render then uses every catalog
}

TEST(LoadConfig, RejectsMalformedFilesWithAUsageError) {
  testing::TempDir dir;
  const struct {
    const char* name;
    const char* content;
  } cases[] = {
      {"syntax.toml", "[fetch\nmax_body_bytes = 1"},
      {"type.toml", "[fetch]\nmax_body_bytes = \"big\""},
      {"negative.toml", "[crawl]\nconcurrency = -1"},
      {"locales.toml", "[render]\nlocales = [1, 2]"},
  };
  for (const auto& c : cases) {
    testing::write_file(dir.path() / c.name, c.content);
    EXPECT_THROW(load_config(dir.path() / c.name), UsageError) << c.name;
  }
}

} // namespace
} // namespace podcrawl::core

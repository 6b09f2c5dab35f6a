#include "podcrawl/core/config.hpp"

#include <cstdlib>
#include <sstream>

#include <toml++/toml.h>

#include "podcrawl/core/error.hpp"

namespace podcrawl::core {

namespace {

template <typename T>
void read_value(const toml::table& table, std::string_view section, std::string_view key, T& out) {
  const auto node = table[section][key];
  if (!node) {
    return;
  }
  if (const auto value = node.value<T>()) {
    out = *value;
    return;
  }
  throw UsageError("config: [" + std::string(section) + "] " + std::string(key) +
                   " has the wrong type");
}

void read_positive(const toml::table& table, std::string_view section, std::string_view key,
                   auto& out) {
  std::int64_t value = out;
  read_value(table, section, key, value);
  if (value <= 0) {
    throw UsageError("config: [" + std::string(section) + "] " + std::string(key) +
                     " must be positive");
  }
  out = static_cast<std::remove_reference_t<decltype(out)>>(value);
}

void read_fetch(const toml::table& table, FetchConfig& fetch) {
  read_value(table, "fetch", "user_agent", fetch.user_agent);
  read_value(table, "fetch", "allow_private_networks", fetch.allow_private_networks);
  read_positive(table, "fetch", "max_body_bytes", fetch.max_body_bytes);
  read_positive(table, "fetch", "connect_timeout_seconds", fetch.connect_timeout_seconds);
  read_positive(table, "fetch", "total_timeout_seconds", fetch.total_timeout_seconds);
  read_positive(table, "fetch", "low_speed_bytes_per_second", fetch.low_speed_bytes_per_second);
  read_positive(table, "fetch", "low_speed_seconds", fetch.low_speed_seconds);
  read_positive(table, "fetch", "max_redirects", fetch.max_redirects);
}

void read_crawl(const toml::table& table, CrawlConfig& crawl) {
  read_positive(table, "crawl", "concurrency", crawl.concurrency);
  read_positive(table, "crawl", "per_host", crawl.per_host);
  read_positive(table, "crawl", "refresh_interval_seconds", crawl.refresh_interval_seconds);
  read_positive(table, "crawl", "min_refresh_seconds", crawl.min_refresh_seconds);
  read_positive(table, "crawl", "max_refresh_seconds", crawl.max_refresh_seconds);
  if (crawl.min_refresh_seconds > crawl.max_refresh_seconds) {
    throw UsageError("config: [crawl] min_refresh_seconds exceeds max_refresh_seconds");
  }
  read_positive(table, "crawl", "backoff_base_seconds", crawl.backoff_base_seconds);
  read_positive(table, "crawl", "backoff_ceiling_seconds", crawl.backoff_ceiling_seconds);
  read_positive(table, "crawl", "max_episodes_per_feed", crawl.max_episodes_per_feed);
}

void read_render(const toml::table& table, RenderConfig& render) {
  if (const auto* locales = table["render"]["locales"].as_array()) {
    render.locales.clear();
    for (const auto& item : *locales) {
      const auto tag = item.value<std::string>();
      if (!tag) {
        throw UsageError("config: [render] locales must be a list of strings");
      }
      render.locales.push_back(*tag);
    }
  }
  read_value(table, "render", "site_url", render.site_url);
}

} // namespace

Config load_config(const std::filesystem::path& file) {
  Config config;
  config.source_dir = data_dir();
  toml::table table;
  try {
    table = toml::parse_file(file.string());
  } catch (const toml::parse_error& error) {
    std::ostringstream message;
    message << "config " << file.string() << ": " << error.description() << " (line "
            << error.source().begin.line << ")";
    throw UsageError(message.str());
  }
  if (const auto url = table["database"]["url"].value<std::string>(); url && !url->empty()) {
    config.database_url = *url;
  }
  read_fetch(table, config.fetch);
  read_crawl(table, config.crawl);
  read_render(table, config.render);
  return config;
}

std::optional<std::filesystem::path> default_config_file() {
  if (const char* path = std::getenv("PODCRAWL_CONFIG"); path != nullptr && *path != '\0') {
    return std::filesystem::path(path);
  }
  auto candidate = data_dir() / "config" / "podcrawl.toml";
  if (std::filesystem::exists(candidate)) {
    return candidate;
  }
  return std::nullopt;
}

std::filesystem::path data_dir() {
  if (const char* home = std::getenv("PODCRAWL_HOME"); home != nullptr && *home != '\0') {
    return home;
  }
  return PODCRAWL_SOURCE_DIR;
}

} // namespace podcrawl::core

#include "podcrawl/core/config.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <limits>
#include <sstream>
#include <type_traits>
#include <utility>

#include <toml++/toml.h>

#include "podcrawl/core/ascii.hpp"
#include "podcrawl/core/error.hpp"

namespace podcrawl::core {

namespace {

// The longest crawl history kept.
constexpr int k_max_history_days = 36500;

// The kinds of value a key takes.
enum class Kind { string, boolean, positive_integer, positive_number, string_list, host_rules };

struct KnownKey {
  std::string_view section;
  std::string_view name;
  Kind kind;
};

// Every key a configuration file may set; config/podcrawl.toml documents each.
constexpr KnownKey k_known_keys[] = {
    {"database", "url", Kind::string},
    {"fetch", "user_agent", Kind::string},
    {"fetch", "allow_private_networks", Kind::boolean},
    {"fetch", "allowed_private_addresses", Kind::string_list},
    {"fetch", "max_body_bytes", Kind::positive_integer},
    {"fetch", "connect_timeout_seconds", Kind::positive_integer},
    {"fetch", "total_timeout_seconds", Kind::positive_integer},
    {"fetch", "low_speed_bytes_per_second", Kind::positive_integer},
    {"fetch", "low_speed_seconds", Kind::positive_integer},
    {"fetch", "max_redirects", Kind::positive_integer},
    {"crawl", "concurrency", Kind::positive_integer},
    {"crawl", "per_host", Kind::positive_integer},
    {"crawl", "per_host_max", Kind::positive_integer},
    {"crawl", "hosts", Kind::host_rules},
    {"crawl", "refresh_interval_seconds", Kind::positive_integer},
    {"crawl", "min_refresh_seconds", Kind::positive_integer},
    {"crawl", "max_refresh_seconds", Kind::positive_integer},
    {"crawl", "backoff_base_seconds", Kind::positive_integer},
    {"crawl", "backoff_ceiling_seconds", Kind::positive_integer},
    {"crawl", "failing_score", Kind::positive_integer},
    {"crawl", "max_episodes_per_feed", Kind::positive_integer},
    {"crawl", "history_days", Kind::positive_integer},
    {"art", "enabled", Kind::boolean},
    {"art", "dir", Kind::string},
    {"art", "refresh_seconds", Kind::positive_integer},
    {"art", "retry_seconds", Kind::positive_integer},
    {"art", "max_bytes", Kind::positive_integer},
    {"art", "max_pixels", Kind::positive_integer},
    {"art", "helper", Kind::string},
    {"render", "locales", Kind::string_list},
    {"render", "site_url", Kind::string},
    {"serve", "threads", Kind::positive_integer},
    {"serve", "database_connections", Kind::positive_integer},
    {"serve", "cache_bytes", Kind::positive_integer},
    {"serve", "max_connections", Kind::positive_integer},
    {"serve", "connection_timeout_seconds", Kind::positive_integer},
    {"serve", "max_header_bytes", Kind::positive_integer},
    {"serve", "drain_timeout_seconds", Kind::positive_integer},
    {"serve", "max_age_seconds", Kind::positive_integer},
    {"serve", "metrics_from_anywhere", Kind::boolean},
    {"serve", "report_from_anywhere", Kind::boolean},
    {"serve", "access_log", Kind::boolean},
    {"serve", "changes", Kind::string},
    {"api", "open", Kind::boolean},
    {"api", "requests_per_second", Kind::positive_number},
    {"api", "burst", Kind::positive_number},
    {"submit", "enabled", Kind::boolean},
    {"submit", "review", Kind::boolean},
    {"submit", "per_address_per_hour", Kind::positive_integer},
    {"submit", "per_hour", Kind::positive_integer},
    {"websub", "callback_base", Kind::string},
    {"websub", "lease_seconds", Kind::positive_integer},
};

const char* describe(Kind kind) {
  switch (kind) {
    case Kind::string:
      return "a string";
    case Kind::boolean:
      return "true or false";
    case Kind::positive_integer:
      return "a positive integer";
    case Kind::positive_number:
      return "a positive number";
    case Kind::string_list:
      return "a list of strings";
    case Kind::host_rules:
      return "a table of host names, each a table";
  }
  return "a value";
}

bool has_kind(const toml::node& node, Kind kind) {
  switch (kind) {
    case Kind::string:
      return node.is_string();
    case Kind::boolean:
      return node.is_boolean();
    case Kind::positive_integer:
      return node.is_integer();
    case Kind::positive_number:
      return node.is_integer() || node.is_floating_point();
    case Kind::string_list:
      return node.is_array() &&
             (node.as_array()->empty() || node.as_array()->is_homogeneous(toml::node_type::string));
    case Kind::host_rules:
      return node.is_table();
  }
  return false;
}

// "FILE:LINE: message", or "FILE: message" when the line is unknown.
std::string located(const std::string& file, const toml::source_region& where,
                    std::string_view message) {
  std::string text = file;
  if (where.begin.line != 0) {
    text += ":" + std::to_string(where.begin.line);
  }
  return text + ": " + std::string(message);
}

// Reads one file's table, naming the file and line of every problem: `FILE:LINE: message`.
class Reader {
public:
  Reader(const std::filesystem::path& file, const toml::table& table)
      : m_file(file.string()), m_table(table) {}

  // Throw UsageError at the first section, key or value the configuration does not know.
  void check_known() const {
    for (const auto& [section, node] : m_table) {
      if (!is_known_section(section.str())) {
        fail(section.source(),
             std::string(node.is_table() ? "unknown table \"" : "unknown key \"") +
                 std::string(section.str()) + "\"");
      }
      const toml::table* keys = node.as_table();
      if (keys == nullptr) {
        fail(section.source(),
             std::string("\"").append(section.str()).append("\" must be a table"));
      }
      for (const auto& [name, value] : *keys) {
        const KnownKey* known = find_key(section.str(), name.str());
        const std::string full_name = std::string(section.str()) + "." + std::string(name.str());
        if (known == nullptr) {
          fail(name.source(), "unknown key \"" + full_name + "\"");
        }
        if (!has_kind(value, known->kind)) {
          fail(where(name, value), full_name + " must be " + describe(known->kind));
        }
      }
    }
  }

  void read(std::string_view section, std::string_view name, std::string& out) const {
    if (const auto* node = m_table[section][name].as_string()) {
      out = node->get();
    }
  }
  void read(std::string_view section, std::string_view name, bool& out) const {
    if (const auto* node = m_table[section][name].as_boolean()) {
      out = node->get();
    }
  }
  // A positive integer that fits `out`.
  template <typename Integer>
  requires std::is_integral_v<Integer>
  void read(std::string_view section, std::string_view name, Integer& out) const {
    const auto* node = m_table[section][name].as_integer();
    if (node == nullptr) {
      return;
    }
    const std::int64_t value = node->get();
    constexpr auto k_max = static_cast<std::int64_t>(std::numeric_limits<Integer>::max());
    const std::string full_name = std::string(section) + "." + std::string(name);
    if (value <= 0) {
      fail(node->source(), full_name + " must be positive, not " + std::to_string(value));
    }
    if (value > k_max) {
      fail(node->source(), full_name + " must be at most " + std::to_string(k_max) + ", not " +
                               std::to_string(value));
    }
    out = static_cast<Integer>(value);
  }
  // A positive, finite number, written with or without a fraction.
  void read(std::string_view section, std::string_view name, double& out) const {
    const auto node = m_table[section][name];
    const auto value = node.value<double>();
    if (!value) {
      return;
    }
    if (!(*value > 0) || !std::isfinite(*value)) {
      std::ostringstream text;
      text << *value;
      fail(node.node()->source(), std::string(section) + "." + std::string(name) +
                                      " must be a positive number, not " + text.str());
    }
    out = *value;
  }
  void read(std::string_view section, std::string_view name, std::vector<std::string>& out) const {
    if (const auto* node = m_table[section][name].as_array()) {
      out.clear();
      for (const auto& item : *node) {
        out.push_back(*item.value<std::string>());
      }
    }
  }

  // The table section.name; nullptr when there is none.
  const toml::table* table(std::string_view section, std::string_view name) const {
    return m_table[section][name].as_table();
  }

  // Where section.name was written, for a problem found after reading it.
  const toml::source_region& source_of(std::string_view section, std::string_view name) const {
    static const toml::source_region k_nowhere{};
    const auto* node = m_table[section][name].node();
    return node != nullptr ? node->source() : k_nowhere;
  }

  [[noreturn]] void fail(const toml::source_region& where, const std::string& message) const {
    throw UsageError(located(m_file, where, message));
  }

private:
  static bool is_known_section(std::string_view section) {
    return std::any_of(std::begin(k_known_keys), std::end(k_known_keys),
                       [&](const KnownKey& key) { return key.section == section; });
  }
  static const KnownKey* find_key(std::string_view section, std::string_view name) {
    const auto* found = std::find_if(
        std::begin(k_known_keys), std::end(k_known_keys),
        [&](const KnownKey& key) { return key.section == section && key.name == name; });
    return found != std::end(k_known_keys) ? found : nullptr;
  }
  // The value's line when toml++ knows it, else the key's.
  static const toml::source_region& where(const toml::key& key, const toml::node& value) {
    return value.source().begin.line != 0 ? value.source() : key.source();
  }

  std::string m_file;
  const toml::table& m_table;
};

// An IPv4 or IPv6 address as inet_ntop writes it ("::ffff:0:1" for "::FFFF:0.0.0.1");
// nullopt when the text is neither.
std::optional<std::string> canonical_address(const std::string& text) {
  unsigned char bytes[sizeof(in6_addr)] = {};
  char out[INET6_ADDRSTRLEN] = {};
  for (const int family : {AF_INET, AF_INET6}) {
    if (::inet_pton(family, text.c_str(), bytes) == 1 &&
        ::inet_ntop(family, bytes, out, sizeof out) != nullptr) {
      return std::string(out);
    }
  }
  return std::nullopt;
}

void read_fetch(const Reader& reader, FetchConfig& fetch) {
  reader.read("fetch", "user_agent", fetch.user_agent);
  reader.read("fetch", "allow_private_networks", fetch.allow_private_networks);
  reader.read("fetch", "max_body_bytes", fetch.max_body_bytes);
  reader.read("fetch", "connect_timeout_seconds", fetch.connect_timeout_seconds);
  reader.read("fetch", "total_timeout_seconds", fetch.total_timeout_seconds);
  reader.read("fetch", "low_speed_bytes_per_second", fetch.low_speed_bytes_per_second);
  reader.read("fetch", "low_speed_seconds", fetch.low_speed_seconds);
  reader.read("fetch", "max_redirects", fetch.max_redirects);
  reader.read("fetch", "allowed_private_addresses", fetch.allowed_private_addresses);
  for (std::string& address : fetch.allowed_private_addresses) {
    const auto canonical = canonical_address(address);
    if (!canonical) {
      reader.fail(reader.source_of("fetch", "allowed_private_addresses"),
                  "fetch.allowed_private_addresses: \"" + address + "\" is not an IP address");
    }
    address = *canonical;
  }
}

// The keys of one host's rule and the field each sets.
constexpr std::pair<std::string_view, std::optional<int> HostRule::*> k_host_rule_keys[] = {
    {"floor", &HostRule::floor},
    {"ceiling", &HostRule::ceiling},
    {"requests_per_second", &HostRule::requests_per_second},
};

// [crawl.hosts."name"] tables: each key one of k_host_rule_keys, a positive integer.
void read_host_rules(const Reader& reader, const toml::table& hosts, CrawlConfig& crawl) {
  for (const auto& [name, node] : hosts) {
    HostRule rule;
    rule.host = ascii_lower(name.str());
    while (!rule.host.empty() && rule.host.back() == '.') {
      rule.host.pop_back();
    }
    const toml::table* keys = node.as_table();
    if (keys == nullptr || rule.host.empty()) {
      reader.fail(name.source(), "crawl.hosts.\"" + std::string(name.str()) +
                                     "\" must be a table of floor, ceiling, requests_per_second");
    }
    for (const auto& [key, value] : *keys) {
      const auto* known = std::find_if(std::begin(k_host_rule_keys), std::end(k_host_rule_keys),
                                       [&](const auto& entry) { return entry.first == key.str(); });
      const std::string full_name =
          "crawl.hosts.\"" + std::string(name.str()) + "\"." + std::string(key.str());
      if (known == std::end(k_host_rule_keys)) {
        reader.fail(key.source(), "unknown key \"" + full_name + "\"");
      }
      const auto* number = value.as_integer();
      if (number == nullptr || number->get() <= 0 || number->get() > 1'000'000) {
        reader.fail(value.source().begin.line != 0 ? value.source() : key.source(),
                    full_name + " must be a positive integer up to 1000000");
      }
      rule.*(known->second) = static_cast<int>(number->get());
    }
    if (rule.floor && rule.ceiling && *rule.floor > *rule.ceiling) {
      reader.fail(name.source(),
                  "crawl.hosts.\"" + std::string(name.str()) + "\": floor exceeds ceiling");
    }
    crawl.hosts.push_back(std::move(rule));
  }
}

void read_crawl(const Reader& reader, CrawlConfig& crawl) {
  reader.read("crawl", "concurrency", crawl.concurrency);
  reader.read("crawl", "per_host", crawl.per_host);
  reader.read("crawl", "per_host_max", crawl.per_host_max);
  if (const toml::table* hosts = reader.table("crawl", "hosts")) {
    read_host_rules(reader, *hosts, crawl);
  }
  reader.read("crawl", "refresh_interval_seconds", crawl.refresh_interval_seconds);
  reader.read("crawl", "min_refresh_seconds", crawl.min_refresh_seconds);
  reader.read("crawl", "max_refresh_seconds", crawl.max_refresh_seconds);
  reader.read("crawl", "backoff_base_seconds", crawl.backoff_base_seconds);
  reader.read("crawl", "backoff_ceiling_seconds", crawl.backoff_ceiling_seconds);
  reader.read("crawl", "failing_score", crawl.failing_score);
  reader.read("crawl", "max_episodes_per_feed", crawl.max_episodes_per_feed);
  reader.read("crawl", "history_days", crawl.history_days);
  if (crawl.history_days > k_max_history_days) {
    reader.fail(reader.source_of("crawl", "history_days"),
                "crawl.history_days (" + std::to_string(crawl.history_days) +
                    ") exceeds a century (" + std::to_string(k_max_history_days) + " days)");
  }
  if (crawl.min_refresh_seconds > crawl.max_refresh_seconds) {
    const auto& min_source = reader.source_of("crawl", "min_refresh_seconds");
    reader.fail(
        min_source.begin.line != 0 ? min_source : reader.source_of("crawl", "max_refresh_seconds"),
        "crawl.min_refresh_seconds (" + std::to_string(crawl.min_refresh_seconds) +
            ") exceeds crawl.max_refresh_seconds (" + std::to_string(crawl.max_refresh_seconds) +
            ")");
  }
}

void read_render(const Reader& reader, RenderConfig& render) {
  reader.read("render", "locales", render.locales);
  reader.read("render", "site_url", render.site_url);
}

void read_art(const Reader& reader, ArtConfig& art) {
  reader.read("art", "enabled", art.enabled);
  std::string dir = art.dir.string();
  reader.read("art", "dir", dir);
  art.dir = dir;
  reader.read("art", "refresh_seconds", art.refresh_seconds);
  reader.read("art", "retry_seconds", art.retry_seconds);
  reader.read("art", "max_bytes", art.max_bytes);
  reader.read("art", "max_pixels", art.max_pixels);
  std::string helper = art.helper.string();
  reader.read("art", "helper", helper);
  art.helper = helper;
}

void read_serve(const Reader& reader, ServeConfig& serve) {
  reader.read("serve", "threads", serve.threads);
  reader.read("serve", "database_connections", serve.database_connections);
  reader.read("serve", "cache_bytes", serve.cache_bytes);
  reader.read("serve", "max_connections", serve.max_connections);
  reader.read("serve", "connection_timeout_seconds", serve.connection_timeout_seconds);
  reader.read("serve", "max_header_bytes", serve.max_header_bytes);
  reader.read("serve", "drain_timeout_seconds", serve.drain_timeout_seconds);
  reader.read("serve", "max_age_seconds", serve.max_age_seconds);
  reader.read("serve", "metrics_from_anywhere", serve.metrics_from_anywhere);
  reader.read("serve", "report_from_anywhere", serve.report_from_anywhere);
  reader.read("serve", "access_log", serve.access_log);
  reader.read("serve", "changes", serve.changes);
  if (serve.changes != "auto" && serve.changes != "notify" && serve.changes != "poll") {
    reader.fail(
        reader.source_of("serve", "changes"),
        "serve.changes must be \"auto\", \"notify\" or \"poll\", not \"" + serve.changes + "\"");
  }
}

void read_api(const Reader& reader, ApiConfig& api) {
  reader.read("api", "open", api.open);
  reader.read("api", "requests_per_second", api.requests_per_second);
  reader.read("api", "burst", api.burst);
  if (api.burst < 1) {
    std::ostringstream text;
    text << api.burst;
    reader.fail(reader.source_of("api", "burst"),
                "api.burst must be at least 1 (one request), not " + text.str());
  }
}

void read_submit(const Reader& reader, SubmitConfig& submit) {
  reader.read("submit", "enabled", submit.enabled);
  reader.read("submit", "review", submit.review);
  reader.read("submit", "per_address_per_hour", submit.per_address_per_hour);
  reader.read("submit", "per_hour", submit.per_hour);
}

void read_websub(const Reader& reader, WebSubConfig& websub) {
  reader.read("websub", "callback_base", websub.callback_base);
  while (websub.callback_base.ends_with('/')) {
    websub.callback_base.pop_back();
  }
  reader.read("websub", "lease_seconds", websub.lease_seconds);
  if (websub.lease_seconds > k_max_websub_lease_seconds) {
    reader.fail(reader.source_of("websub", "lease_seconds"),
                "websub.lease_seconds must be at most " +
                    std::to_string(k_max_websub_lease_seconds) + " (14 days), not " +
                    std::to_string(websub.lease_seconds));
  }
}

} // namespace

Config load_config(const std::filesystem::path& file) {
  Config config;
  config.source_dir = data_dir();
  toml::table table;
  try {
    table = toml::parse_file(file.string());
  } catch (const toml::parse_error& error) {
    throw UsageError(located(file.string(), error.source(), error.description()));
  }
  const Reader reader(file, table);
  reader.check_known();
  std::string database_url;
  reader.read("database", "url", database_url);
  if (!database_url.empty()) {
    config.database_url = std::move(database_url);
  }
  read_fetch(reader, config.fetch);
  read_crawl(reader, config.crawl);
  read_render(reader, config.render);
  read_serve(reader, config.serve);
  read_art(reader, config.art);
  read_api(reader, config.api);
  read_submit(reader, config.submit);
  read_websub(reader, config.websub);
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
  return source_dir();
}

std::filesystem::path art_dir(const Config& config) {
  return config.art.dir.is_absolute() ? config.art.dir : config.source_dir / config.art.dir;
}

} // namespace podcrawl::core

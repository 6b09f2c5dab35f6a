#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace podcrawl::core {

// Fetch limits and identity. Every bound has a documented default in config/podcrawl.toml.
struct FetchConfig {
  std::string user_agent = "podcrawl/" PODCRAWL_VERSION " (+https://github.com/podcrawl/podcrawl)";
  bool allow_private_networks = false;
  // Non-public addresses fetched even so (an internal feed server, say), each in the text
  // inet_ntop writes ("10.0.0.5", "fd00::1"); every other non-public address stays refused.
  std::vector<std::string> allowed_private_addresses;
  std::int64_t max_body_bytes = 32 * 1024 * 1024; // after decompression
  long connect_timeout_seconds = 10;
  long total_timeout_seconds = 60;
  long low_speed_bytes_per_second = 1024;
  long low_speed_seconds = 20;
  long max_redirects = 5;
};

// An operator's bounds for one host name and its subdomains (`[crawl.hosts."libsyn.com"]`).
struct HostRule {
  std::string host;                       // lower case, no trailing dot
  std::optional<int> floor;               // the pace never falls below this
  std::optional<int> ceiling;             // nor grows past this (instead of per_host_max)
  std::optional<int> requests_per_second; // starts per second, at most
};

struct CrawlConfig {
  int concurrency = 64;  // transfers in flight at once
  int per_host = 4;      // transfers in flight against a host at first
  int per_host_max = 32; // how far a host that answers fast and clean may grow
  std::vector<HostRule> hosts;
  std::int64_t refresh_interval_seconds = 3600;     // next fetch when the cadence is unknown
  std::int64_t min_refresh_seconds = 900;           // never sooner, however often it publishes
  std::int64_t max_refresh_seconds = 86400;         // never later, however rarely
  std::int64_t backoff_base_seconds = 900;          // first retry after a failure
  std::int64_t backoff_ceiling_seconds = 7 * 86400; // longest wait between retries
  int failing_score = 4; // failure score at which a feed shows as failing
  int max_episodes_per_feed = 5000;
  int history_days = 90; // the crawl history (`report`) is kept this long; each crawl prunes it
};

struct RenderConfig {
  std::vector<std::string> locales; // empty: every catalog in config/locales
  std::string site_url = "http://127.0.0.1:8080";
};

// The live directory (`serve` without --dir): its HTTP limits, its cache and its database pool.
struct ServeConfig {
  int threads = 4;                              // event loops; they answer from the cache
  int database_connections = 4;                 // each with a worker loading pages
  std::int64_t cache_bytes = 128 * 1024 * 1024; // rendered pages kept in memory, every coding
  int max_connections = 1024;                   // open client connections at once
  int connection_timeout_seconds = 30;          // an idle or stalled client is closed after this
  int max_header_bytes = 16384;                 // request line and header fields; more is a 431
  int drain_timeout_seconds = 10;               // how long SIGTERM lets requests in flight finish
  int max_age_seconds = 300;                    // longest Cache-Control max-age a page is sent with
  bool metrics_from_anywhere = false;           // /metrics answers loopback clients only unless set
  bool report_from_anywhere = false;            // and /admin/report likewise
  bool access_log = true;                       // one log line per request
  // How the page cache hears of the store's changes: "notify" (LISTEN on the primary), "poll"
  // (ask the database every few seconds; what a read replica needs), or "auto" (poll on a
  // replica, else notify).
  std::string changes = "auto";
};

// Cover art: fetched after each crawl, re-encoded by the podcrawl-art helper, kept as files.
struct ArtConfig {
  bool enabled = true;
  // Where the re-encoded files go; a relative path is taken from the data folder (data_dir()).
  std::filesystem::path dir = "var/art";
  std::int64_t refresh_seconds = 30 * 86400; // an image is asked again (conditionally) after this
  std::int64_t retry_seconds = 86400;        // and after this when it failed or was refused
  std::int64_t max_bytes = 20 * 1024 * 1024; // largest image file downloaded
  std::int64_t max_pixels = 40'000'000;      // most pixels an image's header may declare
  // The podcrawl-art program; empty: the one beside the podcrawl executable.
  std::filesystem::path helper;
};

// The API `serve` answers (/api/1.0/...): who may read it, and each key's budget of requests.
struct ApiConfig {
  bool open = false;               // read endpoints answer without a key; writing needs one
  double requests_per_second = 10; // each key's requests refill at this rate
  double burst = 100;              // and this many may come at once (at least 1)
};

// The live directory's form that adds a podcast (/<locale>/add/): whether it is open, whether
// what it takes waits for the operator, and how much it takes.
struct SubmitConfig {
  bool enabled = true; // the form is answered, and linked from every page's footer
  bool review = false; // submissions wait for `podcrawl review accept` before they are listed
  std::int64_t per_address_per_hour = 10; // submissions one client address may send an hour
  std::int64_t per_hour = 200;            // and everyone together
};

// The longest lease asked of a WebSub hub: the W3C Recommendation's suggested most, 14 days.
inline constexpr std::int64_t k_max_websub_lease_seconds = 14 * 86400;

// WebSub (W3C Recommendation, 2018): feeds that declare a hub are subscribed there, and what the
// hub pushes marks them urgent. Push is off while callback_base is empty.
struct WebSubConfig {
  // The public address at which `serve` answers (normally [render] site_url): subscriptions'
  // callbacks are <callback_base>/websub/<token>. Empty: nothing is subscribed.
  std::string callback_base;
  // The lease asked of hubs, at most k_max_websub_lease_seconds; a hub may grant less.
  std::int64_t lease_seconds = k_max_websub_lease_seconds;
};

struct Config {
  std::optional<std::string> database_url; // [database] url
  FetchConfig fetch;
  CrawlConfig crawl;
  RenderConfig render;
  ServeConfig serve;
  ArtConfig art;
  ApiConfig api;
  SubmitConfig submit;
  WebSubConfig websub;
  std::filesystem::path source_dir; // where sql/, config/locales and templates/ live
};

// Load a TOML configuration file over the defaults. Throws UsageError as "FILE:LINE: problem"
// when the file is unreadable or not TOML, or names a table or key podcrawl does not know, or
// gives a value of the wrong type or out of its range.
Config load_config(const std::filesystem::path& file);

// The default configuration file: $PODCRAWL_CONFIG, else <source dir>/config/podcrawl.toml
// when it exists; nullopt when there is none (built-in defaults apply).
std::optional<std::filesystem::path> default_config_file();

// The folder holding sql/, config/locales/ and templates/: $PODCRAWL_HOME if set, else the
// source tree the binary was built from.
std::filesystem::path data_dir();

// The source tree the binary was built from. Only src/core/source_dir.cpp is compiled with its
// path, so a compiler cache shared by clones in different folders still hits everywhere else.
std::filesystem::path source_dir();

// Where cover art files are kept: [art] dir, a relative one taken from config.source_dir.
std::filesystem::path art_dir(const Config& config);

} // namespace podcrawl::core

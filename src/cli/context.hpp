#pragma once

#include <memory>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "local_parse.hpp"
#include "podcrawl/core/config.hpp"
#include "podcrawl/render/site.hpp"
#include "podcrawl/store/database.hpp"

namespace podcrawl::cli {

// Global options and what is derived from them, shared by every subcommand.
struct Context {
  std::string config_file;
  std::string database_url_option;
  bool allow_private_networks = false;
  int verbosity = 0; // -v counts up, -q down
  std::string log_format = "text";
  core::Config config;

  // Apply config file, flags and environment, in the SPEC's order. Called once after parsing.
  void finalize();
  // The database URL: --database-url, DATABASE_URL, [database] url, then libpq's defaults ("").
  std::string database_url() const;
  // Connect, refusing (core::EnvironmentError) a database in recovery, a read-only replica:
  // the command writes.
  std::unique_ptr<store::Database> connect_to_write() const;
  // connect_to_write(), then apply pending migrations.
  std::unique_ptr<store::Database> open_database() const;
  // For commands that only read: on a primary, as open_database(); on a read-only replica,
  // which cannot be migrated, check that its schema is the one this podcrawl knows instead.
  std::unique_ptr<store::Database> open_database_to_read() const;
  // Apply pending migrations, logging each.
  void migrate(store::Database& database) const;
};

// Each subcommand adds itself to the app; its callback runs after the global options are final.
void add_migrate_command(CLI::App& app, Context& context);
void add_add_command(CLI::App& app, Context& context);
void add_remove_command(CLI::App& app, Context& context);
void add_list_command(CLI::App& app, Context& context);
void add_export_opml_command(CLI::App& app, Context& context);
void add_crawl_command(CLI::App& app, Context& context);
void add_parse_command(CLI::App& app, Context& context);
void add_show_command(CLI::App& app, Context& context);
void add_render_command(CLI::App& app, Context& context);
void add_serve_command(CLI::App& app, Context& context);
void add_search_command(CLI::App& app, Context& context);
void add_reindex_command(CLI::App& app, Context& context);
void add_stats_command(CLI::App& app, Context& context);
void add_report_command(CLI::App& app, Context& context);
void add_api_key_command(CLI::App& app, Context& context);
void add_review_command(CLI::App& app, Context& context);

// The site both `render` and the live `serve` produce: --locales (else [render] locales, else
// every catalog, English first) and --site-url (else [render] site_url), with the source tree's
// templates and catalogs. Throws core::UsageError when no locale is left.
render::SiteOptions site_options(const Context& context, const std::string& locales,
                                 const std::string& site_url);

// Helpers shared by commands.
std::string format_optional_time(const std::optional<std::int64_t>& t); // ISO 8601 or "-"
nlohmann::json nullable(const std::string& text);                       // null when empty
nlohmann::json nullable_time(const std::optional<std::int64_t>& t);     // ISO 8601 or null

} // namespace podcrawl::cli

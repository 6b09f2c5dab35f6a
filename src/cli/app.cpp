#include "podcrawl/cli/app.hpp"

#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include "context.hpp"
#include "podcrawl/core/error.hpp"
#include "podcrawl/core/json_string.hpp"
#include "podcrawl/core/time.hpp"
#include "podcrawl/net/url.hpp"

namespace podcrawl::cli {

namespace {

// %* in a log pattern: the message escaped as the inside of a JSON string. Tab and line feed
// take their short escapes, every other control character \u00xx.
class JsonMessageFlag : public spdlog::custom_flag_formatter {
public:
  void format(const spdlog::details::log_msg& message, const std::tm&,
              spdlog::memory_buf_t& destination) override {
    static constexpr std::string_view k_short_escapes = "\t\n";
    std::string escaped;
    core::append_json_escaped(
        escaped, std::string_view(message.payload.data(), message.payload.size()), k_short_escapes);
    destination.append(escaped);
  }
  std::unique_ptr<custom_flag_formatter> clone() const override {
    return std::make_unique<JsonMessageFlag>();
  }
};

void setup_logging(const Context& context) {
  auto logger = std::make_shared<spdlog::logger>("podcrawl",
                                                 std::make_shared<spdlog::sinks::stderr_sink_mt>());
  if (context.log_format == "json") {
    auto formatter = std::make_unique<spdlog::pattern_formatter>(spdlog::pattern_time_type::utc);
    formatter->add_flag<JsonMessageFlag>('*').set_pattern(
        R"({"time":"%Y-%m-%dT%H:%M:%S.%eZ","level":"%l","message":"%*"})");
    logger->set_formatter(std::move(formatter));
  } else {
    logger->set_pattern("podcrawl: %^%l%$: %v");
  }
  const auto level = context.verbosity > 0   ? spdlog::level::debug
                     : context.verbosity < 0 ? spdlog::level::err
                                             : spdlog::level::info;
  logger->set_level(level);
  spdlog::set_default_logger(std::move(logger));
}

} // namespace

void Context::finalize() {
  std::optional<std::filesystem::path> file;
  if (!config_file.empty()) {
    std::error_code error;
    if (!std::filesystem::exists(config_file, error)) {
      throw core::UsageError("--config: no such file: " + config_file);
    }
    if (std::filesystem::is_directory(config_file, error)) {
      throw core::UsageError("--config: " + config_file + " is a folder, not a file");
    }
    file = config_file;
  } else {
    file = core::default_config_file();
  }
  config = file ? core::load_config(*file) : core::Config{};
  if (config.source_dir.empty()) {
    config.source_dir = core::data_dir();
  }
  if (allow_private_networks) {
    config.fetch.allow_private_networks = true;
  }
  setup_logging(*this);
}

std::string Context::database_url() const {
  if (!database_url_option.empty()) {
    return database_url_option;
  }
  if (const char* url = std::getenv("DATABASE_URL"); url != nullptr && *url != '\0') {
    return url;
  }
  return config.database_url.value_or("");
}

std::unique_ptr<store::Database> Context::connect_to_write() const {
  auto database = std::make_unique<store::Database>(database_url());
  if (database->in_recovery()) {
    throw core::EnvironmentError(
        "the database is a read-only replica (in recovery) and this command writes; point it at "
        "the primary (--database-url)");
  }
  return database;
}

std::unique_ptr<store::Database> Context::open_database() const {
  auto database = connect_to_write();
  migrate(*database);
  return database;
}

std::unique_ptr<store::Database> Context::open_database_to_read() const {
  auto database = std::make_unique<store::Database>(database_url());
  if (database->in_recovery()) {
    database->check_schema(config.source_dir / "sql");
  } else {
    migrate(*database);
  }
  return database;
}

void Context::migrate(store::Database& database) const {
  for (const auto& name : database.migrate(config.source_dir / "sql")) {
    spdlog::info("applied migration {}", name);
  }
}

std::string format_optional_time(const std::optional<std::int64_t>& t) {
  return t ? core::format_iso8601(*t) : "-";
}

nlohmann::json nullable(const std::string& text) {
  return text.empty() ? nlohmann::json(nullptr) : nlohmann::json(text);
}

nlohmann::json nullable_time(const std::optional<std::int64_t>& t) {
  return t ? nlohmann::json(core::format_iso8601(*t)) : nlohmann::json(nullptr);
}

int run(int argc, char** argv) {
  Context context;
  CLI::App app{
      "podcrawl: a multilingual podcast directory. Crawls podcast feeds into PostgreSQL "
      "and renders a localized static site.",
      "podcrawl"};
  app.set_version_flag("--version", PODCRAWL_VERSION);
  app.require_subcommand(1);
  app.fallthrough(); // global options may follow the command too
  app.add_option("--config", context.config_file, "TOML configuration file");
  app.add_option("--database-url", context.database_url_option, "PostgreSQL URL");
  app.add_flag("--allow-private-networks", context.allow_private_networks,
               "allow fetching from private, loopback and link-local addresses");
  app.add_flag_function(
      "-v,--verbose", [&](std::int64_t n) { context.verbosity += static_cast<int>(n); },
      "more log output");
  app.add_flag_function(
      "-q,--quiet", [&](std::int64_t n) { context.verbosity -= static_cast<int>(n); },
      "only errors in the log");
  app.add_option("--log-format", context.log_format, "log format on stderr")
      ->check(CLI::IsMember({"text", "json"}));
  app.parse_complete_callback([&context] { context.finalize(); });

  add_migrate_command(app, context);
  add_add_command(app, context);
  add_remove_command(app, context);
  add_list_command(app, context);
  add_export_opml_command(app, context);
  add_crawl_command(app, context);
  add_parse_command(app, context);
  add_show_command(app, context);
  add_render_command(app, context);
  add_serve_command(app, context);
  add_search_command(app, context);
  add_reindex_command(app, context);
  add_stats_command(app, context);
  add_report_command(app, context);
  add_api_key_command(app, context);
  add_review_command(app, context);

  try {
    app.parse(argc, argv);
    std::cout.flush();
    return 0;
  } catch (const CLI::ParseError& error) {
    const int status = app.exit(error);
    return status == 0 ? 0 : 2;
  } catch (const core::UsageError& error) {
    std::cerr << "podcrawl: " << error.what() << '\n';
    return 2;
  } catch (const core::EnvironmentError& error) {
    std::cerr << "podcrawl: " << error.what() << '\n';
    return 1;
  } catch (const std::exception& error) {
    std::cerr << "podcrawl: internal error: " << error.what() << '\n';
    return 1;
  }
}

} // namespace podcrawl::cli

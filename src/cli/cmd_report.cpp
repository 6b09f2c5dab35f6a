#include <iostream>

#include <spdlog/spdlog.h>

#include "context.hpp"
#include "podcrawl/core/error.hpp"
#include "podcrawl/core/files.hpp"
#include "podcrawl/core/time.hpp"
#include "podcrawl/l10n/localizer.hpp"
#include "podcrawl/render/report.hpp"
#include "podcrawl/store/crawl_history.hpp"

namespace podcrawl::cli {

namespace {

// The longest period a report covers: the history kept by default.
constexpr int k_max_report_days = 366;

} // namespace

void add_report_command(CLI::App& app, Context& context) {
  struct Options {
    std::string out;
    int days = 14;
    std::string locale = "en";
    std::optional<std::string> now;
  };
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand(
      "report",
      "write the crawl health report: one self-contained HTML page with charts of the "
      "crawl history, the failing feeds and hosts");
  command->add_option("--out", options->out, "the HTML file to write (- for standard output)")
      ->required();
  command->add_option("--days", options->days, "days the report covers, today included")
      ->capture_default_str()
      ->check(CLI::Range(1, k_max_report_days));
  command->add_option("--locale", options->locale, "the page's language, e.g. ar")
      ->capture_default_str();
  command->add_option("--now", options->now,
                      "the report's time (ISO 8601; else SOURCE_DATE_EPOCH, else the clock)");
  command->callback([options, &context] {
    const l10n::Localizer localizer(context.config.source_dir / "config" / "locales",
                                    options->locale);
    const std::int64_t now = core::resolve_render_time(options->now);
    auto database = context.open_database_to_read();
    const std::string page = render::report_page(
        store::CrawlHistory(*database).crawl_report(now, options->days), localizer);
    if (options->out == "-") {
      std::cout << page;
      return;
    }
    core::write_file_atomically(options->out, page);
    spdlog::info("wrote the crawl health report of the last {} days to {}", options->days,
                 options->out);
  });
}

} // namespace podcrawl::cli

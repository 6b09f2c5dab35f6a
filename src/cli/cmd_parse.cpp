#include <iostream>

#include "context.hpp"
#include "podcrawl/core/error.hpp"
#include "podcrawl/feed/json.hpp"
#include "podcrawl/feed/parser.hpp"
#include "podcrawl/fetch/fetcher.hpp"
#include "podcrawl/net/url.hpp"

namespace podcrawl::cli {

void add_parse_command(CLI::App& app, Context& context) {
  struct Options {
    std::string source;
    std::string base_url;
  };
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand(
      "parse", "fetch (URL) or read (file, - for stdin) one feed and print the show as JSON");
  command->add_option("source", options->source, "URL, file, or - for stdin")->required();
  command->add_option("--base-url", options->base_url, "resolve relative links against this URL");
  command->callback([options, &context] {
    feed::ParseOptions parse_options;
    parse_options.feed_url = options->base_url;
    std::string bytes;
    if (net::is_http_url(options->source)) {
      fetch::FetchRequest request;
      request.url = options->source;
      auto result = fetch::fetch(request, context.config.fetch);
      if (result.outcome != fetch::FetchOutcome::ok) {
        throw core::UsageError(net::redact(options->source) + ": " + result.error);
      }
      bytes = std::move(result.body);
      parse_options.content_type = result.content_type;
      if (parse_options.feed_url.empty()) {
        parse_options.feed_url = result.final_url;
      }
    } else {
      bytes = read_input(options->source);
    }
    auto parsed = feed::parse_feed(std::move(bytes), parse_options);
    if (parsed.outcome != feed::ParseOutcome::ok) {
      throw core::UsageError(options->source + ": " + parsed.error);
    }
    feed::Show show = std::move(parsed.show);
    if (net::is_http_url(options->source)) {
      show.feed_url = options->source;
    }
    feed::write_json_text(show, std::cout);
    std::cout << '\n';
  });
}

} // namespace podcrawl::cli

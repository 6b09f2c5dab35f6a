#include <iostream>
#include <string>
#include <vector>

#include <spdlog/spdlog.h>

#include "context.hpp"
#include "podcrawl/core/error.hpp"
#include "podcrawl/core/time.hpp"
#include "podcrawl/crawl/submit.hpp"
#include "podcrawl/feed/opml.hpp"
#include "podcrawl/net/url.hpp"
#include "podcrawl/store/crawl_list.hpp"

namespace podcrawl::cli {

namespace {

struct AddOptions {
  std::vector<std::string> urls;
  std::string opml_file;
  bool no_discover = false;
  bool check = false;
};

struct Candidate {
  std::string given; // as the user wrote it
  std::string url;   // normalized
  bool from_opml = false;
};

// URLs written to the list per transaction when none needs fetching (an OPML file, or
// --no-discover): a long list is added in batches instead of a transaction per URL.
constexpr std::size_t k_add_batch = 1000;

// Whether an HTML page at the candidate's URL is followed to the feed it advertises.
bool discovers(const Candidate& candidate, const AddOptions& options) {
  return !options.no_discover && !candidate.from_opml;
}

bool needs_fetch(const Candidate& candidate, const AddOptions& options) {
  return options.check || discovers(candidate, options);
}

// Follows an HTML page to the feed it advertises, and with --check makes sure the URL parses.
// Returns the URL to add, or throws UsageError with the reason it cannot be added.
std::string resolve_candidate(const Candidate& candidate, const AddOptions& options,
                              const Context& context) {
  const auto resolution = crawl::resolve_feed(candidate.url, context.config.fetch,
                                              {discovers(candidate, options), options.check});
  switch (resolution.refusal) {
    case crawl::Refusal::none:
      return resolution.url;
    case crawl::Refusal::unreachable:
      if (!options.check) {
        spdlog::warn("{}: {}; added without checking", net::redact(resolution.url),
                     resolution.error);
        return resolution.url;
      }
      break;
    default:
      break;
  }
  throw core::UsageError(resolution.error);
}

std::vector<Candidate> collect(const AddOptions& options) {
  std::vector<Candidate> candidates;
  std::vector<std::string> bad;
  const auto take = [&](const std::string& given, bool from_opml) {
    if (const auto url = net::normalize_feed_url(given)) {
      candidates.push_back({given, *url, from_opml});
    } else {
      bad.push_back(given);
    }
  };
  for (const auto& url : options.urls) {
    take(url, false);
  }
  if (!options.opml_file.empty()) {
    const std::string bytes = read_input(options.opml_file);
    const std::string name = options.opml_file == "-" ? "stdin" : options.opml_file;
    std::vector<feed::OpmlEntry> entries;
    try {
      entries = feed::parse_opml(bytes);
    } catch (const core::UsageError& error) {
      throw core::UsageError(name + ": " + error.what());
    }
    if (entries.empty()) {
      throw core::UsageError(name + ": no feeds in this OPML document");
    }
    for (const auto& entry : entries) {
      take(entry.url, true);
    }
  }
  if (!bad.empty()) {
    // Bad input changes nothing: refuse the whole command before touching the list.
    for (const auto& given : bad) {
      std::cout << "error " << given << ": not an http(s) URL of at most "
                << net::k_max_feed_url_length << " bytes\n";
    }
    throw core::UsageError(std::to_string(bad.size()) +
                           " URL(s) are not http(s) URLs; nothing added");
  }
  if (candidates.empty()) {
    throw core::UsageError("add: give at least one URL or --opml FILE");
  }
  return candidates;
}

// The lines of candidates resolved but not yet written to the list, in input order.
class PendingAdds {
public:
  explicit PendingAdds(store::Database& database) : m_database(database) {}

  void add(std::string url) {
    m_urls.push_back(std::move(url));
    m_lines.emplace_back();
  }
  void error(const std::string& line) { m_lines.push_back(line); }
  std::size_t size() const { return m_lines.size(); }

  // Write the URLs in one transaction and print every line.
  void flush() {
    const auto outcomes = m_urls.empty()
                              ? std::vector<store::AddOutcome>()
                              : store::CrawlList(m_database).add_feeds(m_urls, core::now());
    std::size_t next = 0;
    for (const auto& line : m_lines) {
      if (!line.empty()) {
        std::cout << line << '\n';
        continue;
      }
      std::cout << (outcomes.at(next) == store::AddOutcome::added ? "added " : "exists ")
                << m_urls[next] << '\n';
      ++next;
    }
    std::cout.flush();
    m_urls.clear();
    m_lines.clear();
  }

private:
  store::Database& m_database;
  std::vector<std::string> m_urls;
  std::vector<std::string> m_lines; // empty where the next URL's outcome goes
};

void add(const AddOptions& options, const Context& context) {
  const auto candidates = collect(options);
  auto database = context.open_database();
  PendingAdds pending(*database);
  int errors = 0;
  for (const auto& candidate : candidates) {
    try {
      pending.add(resolve_candidate(candidate, options, context));
    } catch (const core::UsageError& error) {
      pending.error("error " + candidate.given + ": " + error.what());
      ++errors;
    }
    // A URL that needed the network is reported at once; the others in batches.
    if (needs_fetch(candidate, options) || pending.size() >= k_add_batch) {
      pending.flush();
    }
  }
  pending.flush();
  if (errors > 0) {
    throw core::UsageError(std::to_string(errors) + " of " + std::to_string(candidates.size()) +
                           " URL(s) could not be added");
  }
}

} // namespace

void add_add_command(CLI::App& app, Context& context) {
  auto options = std::make_shared<AddOptions>();
  auto* command = app.add_subcommand("add", "add feeds to the crawl list");
  command->add_option("urls", options->urls, "feed or web page URLs");
  command->add_option("--opml", options->opml_file,
                      "add every feed of an OPML file ('-' for stdin)");
  command->add_flag("--no-discover", options->no_discover,
                    "do not follow an HTML page to the feed it advertises");
  command->add_flag("--check", options->check, "fetch and parse each feed before adding it");
  command->callback([options, &context] { add(*options, context); });
}

} // namespace podcrawl::cli

#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "context.hpp"
#include "podcrawl/core/error.hpp"
#include "podcrawl/core/time.hpp"
#include "podcrawl/crawl/submit.hpp"
#include "podcrawl/net/url.hpp"
#include "podcrawl/store/crawl_list.hpp"
#include "podcrawl/store/submissions.hpp"

namespace podcrawl::cli {

namespace {

// Text a stranger sent, safe to print on a terminal: control characters become '?'.
std::string printable(std::string text) {
  for (char& c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7F) {
      c = '?';
    }
  }
  return text;
}

void add_list(CLI::App& review, Context& context) {
  auto json = std::make_shared<bool>(false);
  auto* command = review.add_subcommand(
      "list", "the podcasts waiting, oldest first: id, sent at, feed URL, as sent, from");
  command->add_flag("--json", *json, "print a JSON array");
  command->callback([json, &context] {
    auto database = context.open_database_to_read();
    const auto waiting = store::Submissions(*database).waiting();
    if (*json) {
      auto array = nlohmann::json::array();
      for (const auto& submission : waiting) {
        array.push_back({{"id", submission.id},
                         {"url", submission.url},
                         {"given", submission.given},
                         {"client", submission.client},
                         {"submitted_at", core::format_iso8601(submission.submitted_at)}});
      }
      std::cout << array.dump(2) << '\n';
      return;
    }
    for (const auto& submission : waiting) {
      std::cout << submission.id << '\t' << core::format_iso8601(submission.submitted_at) << '\t'
                << printable(submission.url) << '\t' << printable(submission.given) << '\t'
                << printable(submission.client) << '\n';
    }
  });
}

store::Submission waiting_submission(store::Database& database, std::int64_t id) {
  const auto found = store::Submissions(database).find(id);
  if (!found) {
    throw core::UsageError("no submission " + std::to_string(id) + " is waiting");
  }
  return *found;
}

void add_accept(CLI::App& review, Context& context) {
  auto id = std::make_shared<std::int64_t>(0);
  auto* command = review.add_subcommand(
      "accept",
      "list a waiting podcast: its feed is fetched and parsed again, and its show "
      "stored at once, as the form would have");
  command->add_option("id", *id, "the submission's id (review list)")->required();
  command->callback([id, &context] {
    auto database = context.open_database();
    const auto submission = waiting_submission(*database, *id);
    const auto resolution =
        crawl::resolve_feed(submission.url, context.config.fetch, {false, true});
    if (resolution.refusal != crawl::Refusal::none) {
      throw core::UsageError(net::redact(submission.url) + ": " + resolution.error +
                             "; still waiting (review reject " + std::to_string(*id) +
                             " drops it)");
    }
    const auto stored =
        crawl::store_resolved(*database, resolution, context.config.crawl, crawl::Removed::revive);
    store::Submissions(*database).remove(*id);
    std::cout << (stored.existed ? "exists " : "added ") << submission.url << '\n';
  });
}

void add_reject(CLI::App& review, Context& context) {
  auto id = std::make_shared<std::int64_t>(0);
  auto* command =
      review.add_subcommand("reject", "drop a waiting podcast; nothing is listed or stored");
  command->add_option("id", *id, "the submission's id (review list)")->required();
  command->callback([id, &context] {
    auto database = context.open_database();
    const auto submission = waiting_submission(*database, *id);
    store::Submissions(*database).remove(*id);
    std::cout << "rejected " << submission.url << '\n';
  });
}

} // namespace

void add_review_command(CLI::App& app, Context& context) {
  auto* command = app.add_subcommand(
      "review", "the podcasts sent with the site's form, waiting ([submit] review = true)");
  command->require_subcommand(1);
  add_list(*command, context);
  add_accept(*command, context);
  add_reject(*command, context);
}

} // namespace podcrawl::cli

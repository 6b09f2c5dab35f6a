#include <iostream>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "context.hpp"
#include "podcrawl/core/error.hpp"
#include "podcrawl/core/time.hpp"
#include "podcrawl/store/api_keys.hpp"

namespace podcrawl::cli {

namespace {

// A key as `list --json` shows it: never its secret.
nlohmann::json to_json(const store::ApiKey& key) {
  return {{"id", key.id},
          {"key", key.key},
          {"name", key.name},
          {"write", key.write},
          {"created_at", core::format_iso8601(key.created_at)},
          {"revoked_at", nullable_time(key.revoked_at)}};
}

void add_create(CLI::App& api_key, Context& context) {
  struct Options {
    std::string name;
    bool write = false;
  };
  auto options = std::make_shared<Options>();
  auto* command = api_key.add_subcommand(
      "create", "make a key and print it with its secret, which is never shown again");
  command->add_option("--name", options->name, "who or what the key is for")->required();
  command->add_flag("--write", options->write,
                    "may also add feeds (add/byfeedurl); without it, the key only reads");
  command->callback([options, &context] {
    auto database = context.open_database();
    const auto made = store::ApiKeys(*database).create(options->name, options->write);
    std::cout << "api key: " << made.key << "\napi secret: " << made.secret
              << "\nThe secret is not shown again: keep it now. Clients send the key as "
                 "X-Auth-Key and sign each request with the secret.\n";
  });
}

void add_list(CLI::App& api_key, Context& context) {
  auto json = std::make_shared<bool>(false);
  auto* command = api_key.add_subcommand(
      "list",
      "every key, revoked ones too: id, key, read or write, created, revoked, name (no secret)");
  command->add_flag("--json", *json, "print a JSON array");
  command->callback([json, &context] {
    auto database = context.open_database_to_read();
    const auto keys = store::ApiKeys(*database).list();
    if (*json) {
      auto array = nlohmann::json::array();
      for (const auto& key : keys) {
        array.push_back(to_json(key));
      }
      std::cout << array.dump(2) << '\n';
      return;
    }
    for (const auto& key : keys) {
      std::cout << key.id << '\t' << key.key << '\t' << (key.write ? "write" : "read") << '\t'
                << core::format_iso8601(key.created_at) << '\t'
                << format_optional_time(key.revoked_at) << '\t' << key.name << '\n';
    }
  });
}

void add_revoke(CLI::App& api_key, Context& context) {
  auto key = std::make_shared<std::string>();
  auto* command = api_key.add_subcommand(
      "revoke", "revoke a key: a running server refuses it from the moment this commits");
  command->add_option("key", *key, "the key (not its secret)")->required();
  command->callback([key, &context] {
    auto database = context.open_database();
    if (!store::ApiKeys(*database).revoke(*key)) {
      throw core::UsageError("no active API key " + *key);
    }
    std::cout << "revoked " << *key << '\n';
  });
}

} // namespace

void add_api_key_command(CLI::App& app, Context& context) {
  auto* command = app.add_subcommand("api-key", "keys for the API: create, list, revoke");
  command->require_subcommand(1);
  add_create(*command, context);
  add_list(*command, context);
  add_revoke(*command, context);
}

} // namespace podcrawl::cli

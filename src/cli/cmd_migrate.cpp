#include <iostream>

#include "context.hpp"

namespace podcrawl::cli {

void add_migrate_command(CLI::App& app, Context& context) {
  auto* command = app.add_subcommand(
      "migrate", "apply the migrations in sql/ in order, idempotently, each in a transaction");
  command->callback([&context] {
    const auto database = context.connect_to_write();
    const auto applied = database->migrate(context.config.source_dir / "sql");
    for (const auto& name : applied) {
      std::cout << "applied " << name << '\n';
    }
    if (applied.empty()) {
      std::cout << "database is up to date\n";
    }
  });
}

} // namespace podcrawl::cli

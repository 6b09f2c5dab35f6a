#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "podcrawl/core/error.hpp"
#include "podcrawl/l10n/localizer.hpp"
#include "store_internal.hpp"

namespace podcrawl::store {
namespace {

using internal::guarded;

// Key of the advisory lock that serializes concurrent migrators ("podcrawl" in ASCII).
constexpr std::int64_t k_migration_lock = 0x706f646372617771;

// Migration files in the order they apply: NNNN_name.sql, sorted by name.
std::vector<std::filesystem::path> migration_files(const std::filesystem::path& sql_dir) {
  static const std::regex k_name(R"(^[0-9]{4}_[A-Za-z0-9_]+\.sql$)");
  std::error_code error;
  std::filesystem::directory_iterator entries(sql_dir, error);
  if (error) {
    throw core::EnvironmentError("cannot read the migrations folder " + sql_dir.string() + ": " +
                                 error.message());
  }
  std::vector<std::filesystem::path> files;
  for (const auto& entry : entries) {
    if (entry.is_regular_file() && std::regex_match(entry.path().filename().string(), k_name)) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end(),
            [](const auto& a, const auto& b) { return a.filename() < b.filename(); });
  return files;
}

std::string read_migration(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream content;
  content << in.rdbuf();
  if (!in) {
    throw core::EnvironmentError("cannot read migration " + file.string());
  }
  return content.str();
}

void lock_migrations(pqxx::work& txn) {
  txn.exec_params("SELECT pg_advisory_xact_lock($1)", k_migration_lock);
}

bool is_applied(pqxx::work& txn, const std::string& name) {
  return !txn.exec_params("SELECT 1 FROM schema_migrations WHERE name = $1", name).empty();
}

// Refuse a database migrated by a newer podcrawl: the first applied migration (by name) that is
// not among `files`.
void refuse_unknown_migrations(pqxx::transaction_base& txn,
                               const std::vector<std::filesystem::path>& files) {
  std::vector<std::string> known;
  known.reserve(files.size());
  for (const auto& file : files) {
    known.push_back(file.filename().string());
  }
  for (const auto& row : txn.exec("SELECT name FROM schema_migrations ORDER BY name")) {
    const auto name = row[0].as<std::string>();
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      throw core::EnvironmentError(
          "database schema is newer than this podcrawl (unknown migration " + name +
          "); upgrade podcrawl");
    }
  }
}

// Categories stored without a slug (before migration 0011) get theirs: slugify is ICU's, so this
// step runs here rather than in SQL. A no-op once every category has one.
void name_new_categories(pqxx::connection& connection) {
  pqxx::work txn(connection);
  if (txn.exec("SELECT 1 FROM information_schema.columns"
               " WHERE table_name = 'categories' AND column_name = 'slug'")
          .empty()) {
    return;
  }
  lock_migrations(txn);
  for (const auto& row : txn.exec("SELECT id, name FROM categories WHERE slug IS NULL")) {
    txn.exec_params("UPDATE categories SET slug = $2 WHERE id = $1", row[0].as<std::int64_t>(),
                    l10n::slugify(row[1].as<std::string>()));
  }
  txn.commit();
}

// Shows stored without a language group (before migration 0020) get theirs: the grouping is
// l10n's. In batches, each its own transaction; a no-op once every show has one.
void group_new_languages(pqxx::connection& connection) {
  // Read through shows_language_ungrouped_idx, which is empty once every show has its group.
  constexpr int k_batch = 1000;
  {
    pqxx::read_transaction txn(connection);
    if (txn.exec1("SELECT to_regclass('shows_language_ungrouped_idx') IS NULL")[0].as<bool>()) {
      return; // a schema without it (a folder of other migrations)
    }
  }
  for (;;) {
    pqxx::work txn(connection);
    const auto rows = txn.exec_params(
        "SELECT id, effective_language FROM shows WHERE language_group IS NULL"
        " ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED",
        k_batch);
    if (rows.empty()) {
      return;
    }
    for (const auto& row : rows) {
      txn.exec_params("UPDATE shows SET language_group = $2 WHERE id = $1",
                      row[0].as<std::int64_t>(), l10n::language_group(row[1].as<std::string>()));
    }
    txn.commit();
  }
}

} // namespace

std::vector<std::string> Database::migrate(const std::filesystem::path& sql_dir) {
  const auto files = migration_files(sql_dir);
  return guarded(m_impl->redacted_url, "migrate", [&] {
    {
      pqxx::work txn(m_impl->connection);
      lock_migrations(txn);
      txn.exec(
          "CREATE TABLE IF NOT EXISTS schema_migrations ("
          " name text PRIMARY KEY,"
          " applied_at timestamptz NOT NULL DEFAULT now())");
      refuse_unknown_migrations(txn, files);
      txn.commit();
    }
    std::vector<std::string> applied;
    for (const auto& file : files) {
      const std::string name = file.filename().string();
      const std::string sql = read_migration(file);
      pqxx::work txn(m_impl->connection);
      // Checked again under the lock: another migrator may have applied it meanwhile.
      lock_migrations(txn);
      if (is_applied(txn, name)) {
        continue;
      }
      txn.exec(sql, name);
      txn.exec_params("INSERT INTO schema_migrations (name) VALUES ($1)", name);
      txn.commit();
      applied.push_back(name);
    }
    name_new_categories(m_impl->connection);
    group_new_languages(m_impl->connection);
    return applied;
  });
}

void Database::check_schema(const std::filesystem::path& sql_dir) {
  const auto files = migration_files(sql_dir);
  guarded(m_impl->redacted_url, "check the schema", [&] {
    pqxx::read_transaction txn(m_impl->connection);
    std::vector<std::string> applied;
    if (!txn.exec1("SELECT to_regclass('schema_migrations')")[0].is_null()) {
      refuse_unknown_migrations(txn, files);
      for (const auto& row : txn.exec("SELECT name FROM schema_migrations")) {
        applied.push_back(row[0].as<std::string>());
      }
    }
    for (const auto& file : files) {
      const std::string name = file.filename().string();
      if (std::find(applied.begin(), applied.end(), name) == applied.end()) {
        throw core::EnvironmentError("database schema is older than this podcrawl (migration " +
                                     name +
                                     " is not applied); run `podcrawl migrate` on the "
                                     "primary");
      }
    }
    txn.commit();
  });
}

} // namespace podcrawl::store

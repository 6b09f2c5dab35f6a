#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "podcrawl/core/error.hpp"

namespace podcrawl::store {

// The database could not be reached: a connection that could not be made, or that broke. Other
// failures of the server (a statement timeout, a constraint) are plain EnvironmentErrors.
class ConnectionLost : public core::EnvironmentError {
public:
  using core::EnvironmentError::EnvironmentError;
};

// One connection to podcrawl's database, and its schema. What is stored is read and written by
// the store's classes of each concern, each made over a Database and using its connection:
// CrawlList (crawl_list.hpp), FetchOutcomes (fetch_outcomes.hpp), CrawlHistory
// (crawl_history.hpp), CoverArt (cover_art.hpp), DirectoryPages (directory_pages.hpp),
// DirectorySearch (directory_search.hpp) and ApiKeys (api_keys.hpp). All SQL of podcrawl lives
// behind them; every statement is parameterized, and libpqxx's errors become
// core::EnvironmentError (ConnectionLost when the server cannot be reached). A Database is not
// safe to use from two threads at once: use one per thread, and keep it open while the objects
// made over it are used.
class Database {
public:
  // Connect (an empty URL uses libpq's defaults). Throws ConnectionLost when the server cannot
  // be reached, naming the URL without its password.
  explicit Database(const std::string& url);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // Apply the numbered *.sql files of sql_dir not yet applied, in order, each in a transaction,
  // recording them in schema_migrations; concurrent callers serialize on an advisory lock.
  // Returns the names applied now. Throws core::EnvironmentError, applying nothing, when
  // schema_migrations names a migration sql_dir does not hold: a newer podcrawl migrated the
  // database, and this one must not write to a schema it does not know.
  std::vector<std::string> migrate(const std::filesystem::path& sql_dir);
  // Check, writing nothing, that the database's schema is exactly the one sql_dir describes:
  // for a read-only replica, which cannot be migrated. Throws core::EnvironmentError naming
  // the first migration that is not applied (the schema is older) or that sql_dir does not
  // hold (newer).
  void check_schema(const std::filesystem::path& sql_dir);
  // True when the database is a standby (a read replica): it delivers no notifications.
  bool in_recovery();

private:
  friend class CrawlList;
  friend class FetchOutcomes;
  friend class CrawlHistory;
  friend class CoverArt;
  friend class DirectoryPages;
  friend class DirectorySearch;
  friend class ApiKeys;
  friend class DirectoryApi;
  friend class Submissions;
  friend class WebSubSubscriptions;

  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

} // namespace podcrawl::store

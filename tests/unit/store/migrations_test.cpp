#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <pqxx/pqxx>

#include "podcrawl/core/error.hpp"
#include "store_fixture.hpp"
#include "support/temp_dir.hpp"

namespace podcrawl::store {
namespace {

std::vector<std::string> sql_file_names(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".sql") {
      names.push_back(entry.path().filename().string());
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

bool table_exists(const std::string& url, const std::string& table) {
  pqxx::connection connection(url);
  pqxx::work txn(connection);
  return txn.exec_params1("SELECT to_regclass($1) IS NOT NULL", table)[0].as<bool>();
}

using MigrateTest = testing::DatabaseTest;

TEST_F(MigrateTest, AppliesEveryFileInOrderThenNothing) {
  Database db(database_url());
  const auto expected = sql_file_names(k_sql_dir);
  ASSERT_FALSE(expected.empty());
  EXPECT_EQ(db.migrate(k_sql_dir), expected);
  EXPECT_TRUE(db.migrate(k_sql_dir).empty());
  Database other(database_url());
  EXPECT_TRUE(other.migrate(k_sql_dir).empty());
  EXPECT_TRUE(table_exists(database_url(), "feeds"));
  EXPECT_TRUE(table_exists(database_url(), "episodes"));
}

TEST_F(MigrateTest, ConcurrentMigratorsApplyEachFileExactlyOnce) {
  std::vector<std::string> first;
  std::vector<std::string> second;
  std::thread a([&] { first = Database(database_url()).migrate(k_sql_dir); });
  std::thread b([&] { second = Database(database_url()).migrate(k_sql_dir); });
  a.join();
  b.join();
  std::vector<std::string> all = first;
  all.insert(all.end(), second.begin(), second.end());
  std::sort(all.begin(), all.end());
  EXPECT_EQ(all, sql_file_names(k_sql_dir));
}

TEST_F(MigrateTest, AFailingFileRollsBackAloneAndStopsTheRun) {
  testing::TempDir dir;
  testing::write_file(dir.path() / "0001_first.sql", "CREATE TABLE first_table (id int);");
  testing::write_file(
      dir.path() / "0002_broken.sql",
      "CREATE TABLE second_table (id int); SELECT no_such_column FROM first_table;");
  testing::write_file(dir.path() / "0003_third.sql", "CREATE TABLE third_table (id int);");
  Database db(database_url());
  EXPECT_THROW(db.migrate(dir.path()), core::EnvironmentError);
  EXPECT_TRUE(table_exists(database_url(), "first_table"));
  EXPECT_FALSE(table_exists(database_url(), "second_table"));
  EXPECT_FALSE(table_exists(database_url(), "third_table"));

  // Once fixed, the run continues where it stopped.
  testing::write_file(dir.path() / "0002_broken.sql", "CREATE TABLE second_table (id int);");
  EXPECT_EQ(db.migrate(dir.path()),
            (std::vector<std::string>{"0002_broken.sql", "0003_third.sql"}));
}

TEST_F(MigrateTest, IgnoresFilesThatAreNotNumberedMigrations) {
  testing::TempDir dir;
  testing::write_file(dir.path() / "0001_only.sql", "CREATE TABLE only_table (id int);");
  testing::write_file(dir.path() / "README.md", "not SQL");
  testing::write_file(dir.path() / "12_short_number.sql", "SELECT broken syntax here");
  testing::write_file(dir.path() / "0002_draft.sql.orig", "SELECT broken syntax here");
  Database db(database_url());
  EXPECT_EQ(db.migrate(dir.path()), std::vector<std::string>{"0001_only.sql"});
}

// Regression: a database migrated by a newer podcrawl was used as if its schema were known.
TEST_F(MigrateTest, RefusesADatabaseThatNamesAMigrationItDoesNotKnow) {
  testing::TempDir dir;
  testing::write_file(dir.path() / "0001_first.sql", "CREATE TABLE first_table (id int);");
  Database db(database_url());
  ASSERT_EQ(db.migrate(dir.path()), std::vector<std::string>{"0001_first.sql"});
  {
    pqxx::connection connection(database_url());
    pqxx::work txn(connection);
    txn.exec("INSERT INTO schema_migrations (name) VALUES ('0009_x.sql')");
    txn.commit();
  }
  testing::write_file(dir.path() / "0002_second.sql", "CREATE TABLE second_table (id int);");
  try {
    db.migrate(dir.path());
    FAIL() << "migrated a database from a newer podcrawl";
  } catch (const core::EnvironmentError& error) {
    EXPECT_STREQ(error.what(),
                 "database schema is newer than this podcrawl (unknown migration "
                 "0009_x.sql); upgrade podcrawl");
  }
  EXPECT_FALSE(table_exists(database_url(), "second_table"));

  // Once this podcrawl knows the migration, it goes on.
  testing::write_file(dir.path() / "0009_x.sql", "CREATE TABLE ninth_table (id int);");
  EXPECT_EQ(db.migrate(dir.path()), std::vector<std::string>{"0002_second.sql"});
  EXPECT_FALSE(table_exists(database_url(), "ninth_table"));
}

// The check a read-only replica gets instead of a migration: it writes nothing and names the
// first migration that is missing, or that this podcrawl does not know.
TEST_F(MigrateTest, ChecksASchemaWithoutWritingAndNamesWhatDiffers) {
  testing::TempDir dir;
  testing::write_file(dir.path() / "0001_first.sql", "CREATE TABLE first_table (id int);");
  Database db(database_url());
  try {
    db.check_schema(dir.path());
    FAIL() << "an empty database passed the check";
  } catch (const core::EnvironmentError& error) {
    EXPECT_STREQ(error.what(),
                 "database schema is older than this podcrawl (migration 0001_first.sql is not "
                 "applied); run `podcrawl migrate` on the primary");
  }
  EXPECT_FALSE(table_exists(database_url(), "schema_migrations"));
  ASSERT_EQ(db.migrate(dir.path()), std::vector<std::string>{"0001_first.sql"});
  EXPECT_NO_THROW(db.check_schema(dir.path()));

  testing::write_file(dir.path() / "0002_second.sql", "CREATE TABLE second_table (id int);");
  EXPECT_THROW(db.check_schema(dir.path()), core::EnvironmentError);
  EXPECT_FALSE(table_exists(database_url(), "second_table"));
  ASSERT_EQ(db.migrate(dir.path()), std::vector<std::string>{"0002_second.sql"});
  std::filesystem::remove(dir.path() / "0002_second.sql");
  try {
    db.check_schema(dir.path());
    FAIL() << "a schema from a newer podcrawl passed the check";
  } catch (const core::EnvironmentError& error) {
    EXPECT_STREQ(error.what(),
                 "database schema is newer than this podcrawl (unknown migration "
                 "0002_second.sql); upgrade podcrawl");
  }
}

TEST_F(MigrateTest, AMissingFolderIsAnEnvironmentError) {
  testing::TempDir dir;
  Database db(database_url());
  EXPECT_THROW(db.migrate(dir.path() / "absent"), core::EnvironmentError);
}

TEST(DatabaseConnect, AnUnreachableServerIsAnEnvironmentErrorWithoutThePassword) {
  try {
    Database db("postgresql://someone:hunter2secret@127.0.0.1:1/podcrawl?connect_timeout=5");
    FAIL() << "connected to a closed port";
  } catch (const core::EnvironmentError& error) {
    const std::string message = error.what();
    EXPECT_EQ(message.find("hunter2secret"), std::string::npos) << message;
    EXPECT_NE(message.find("someone:***@127.0.0.1:1"), std::string::npos) << message;
  }
}

TEST(DatabaseConnect, AnUnreachableServerIsDescribedOnOneLine) {
  // Regression: libpq's multi-line messages ("...Connection refused\n\tIs the server running")
  // reached stderr as several lines.
  try {
    Database db("postgresql://127.0.0.1:1/podcrawl?connect_timeout=5");
    FAIL() << "connected to a closed port";
  } catch (const core::EnvironmentError& error) {
    const std::string message = error.what();
    EXPECT_EQ(message.find_first_of("\r\n\t"), std::string::npos) << message;
    EXPECT_NE(message.find("Connection refused; Is the server running"), std::string::npos)
        << message;
  }
}

TEST(DatabaseConnect, RedactsThePasswordOfAKeywordConnectionString) {
  try {
    Database db("host=127.0.0.1 port=1 user=someone password=hunter2secret connect_timeout=5");
    FAIL() << "connected to a closed port";
  } catch (const core::EnvironmentError& error) {
    const std::string message = error.what();
    EXPECT_EQ(message.find("hunter2secret"), std::string::npos) << message;
    EXPECT_NE(message.find("password=***"), std::string::npos) << message;
  }
}

} // namespace
} // namespace podcrawl::store

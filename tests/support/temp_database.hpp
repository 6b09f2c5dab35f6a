#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace podcrawl::testing {

// A fresh, empty PostgreSQL database for one test, dropped again by the destructor. The server
// is named by PODCRAWL_TEST_DATABASE_URL (a postgresql:// URL whose user may create databases;
// scripts/test starts a throwaway server and sets it). When the variable is unset, available()
// is false and the test should GTEST_SKIP() with skip_reason().
class TempDatabase {
public:
  TempDatabase();
  ~TempDatabase();
  TempDatabase(const TempDatabase&) = delete;
  TempDatabase& operator=(const TempDatabase&) = delete;

  static bool available();
  static const char* skip_reason();
  // The postgresql:// URL of this test's database.
  const std::string& url() const { return m_url; }

private:
  std::string m_admin_url;
  std::string m_name;
  std::string m_url;
};

// A test with a throwaway database of its own, skipped (with the reason) when no test
// database is configured. A fixture that sets up more calls DatabaseTest::SetUp() first and
// returns when IsSkipped().
class DatabaseTest : public ::testing::Test {
protected:
  void SetUp() override;
  // The postgresql:// URL of this test's database.
  const std::string& database_url() const { return m_database->url(); }

private:
  std::unique_ptr<TempDatabase> m_database;
};

} // namespace podcrawl::testing

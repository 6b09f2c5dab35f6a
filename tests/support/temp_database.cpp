#include "support/temp_database.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <string>

#include <pqxx/pqxx>

namespace podcrawl::testing {
namespace {

constexpr const char* k_url_variable = "PODCRAWL_TEST_DATABASE_URL";

std::string admin_url() {
  const char* url = std::getenv(k_url_variable);
  return url == nullptr ? std::string() : std::string(url);
}

// Unique across processes running at once (pid), tests in one process (counter) and reruns
// that reuse a pid (random).
std::string unique_database_name() {
  static std::atomic<unsigned> counter{0};
  std::random_device device;
  const unsigned random = device() & 0xFFFFFFu;
  return "podcrawl_test_" + std::to_string(::getpid()) + "_" + std::to_string(++counter) + "_" +
         std::to_string(random);
}

// The admin URL pointing at another database: the path of a postgresql:// URL replaced, or a
// dbname keyword appended to a key=value connection string (the last keyword wins).
std::string with_database(const std::string& url, const std::string& name) {
  const auto scheme = url.find("://");
  if (scheme == std::string::npos) {
    return url + " dbname=" + name;
  }
  const auto authority_end = url.find_first_of("/?", scheme + 3);
  if (authority_end == std::string::npos) {
    return url + "/" + name;
  }
  if (url[authority_end] == '?') {
    return url.substr(0, authority_end) + "/" + name + url.substr(authority_end);
  }
  const auto path_end = url.find('?', authority_end);
  return url.substr(0, authority_end) + "/" + name +
         (path_end == std::string::npos ? std::string() : url.substr(path_end));
}

} // namespace

TempDatabase::TempDatabase() : m_admin_url(admin_url()) {
  if (m_admin_url.empty()) {
    return;
  }
  m_name = unique_database_name();
  pqxx::connection connection(m_admin_url);
  pqxx::nontransaction txn(connection);
  // CREATE DATABASE takes no parameters; the name is ours and quoted.
  txn.exec("CREATE DATABASE " + txn.quote_name(m_name));
  m_url = with_database(m_admin_url, m_name);
}

TempDatabase::~TempDatabase() {
  if (m_url.empty()) {
    return;
  }
  try {
    pqxx::connection connection(m_admin_url);
    pqxx::nontransaction txn(connection);
    txn.exec("DROP DATABASE IF EXISTS " + txn.quote_name(m_name) + " WITH (FORCE)");
  } catch (const std::exception&) {
    // A database left behind is harmless; a throwing destructor is not.
  }
}

bool TempDatabase::available() {
  return !admin_url().empty();
}

const char* TempDatabase::skip_reason() {
  return "PODCRAWL_TEST_DATABASE_URL is not set (scripts/test starts a throwaway PostgreSQL "
         "server and sets it)";
}

void DatabaseTest::SetUp() {
  if (!TempDatabase::available()) {
    GTEST_SKIP() << TempDatabase::skip_reason();
  }
  m_database = std::make_unique<TempDatabase>();
}

} // namespace podcrawl::testing

#include "podcrawl/store/database.hpp"

#include <string>

#include "podcrawl/core/error.hpp"
#include "store_internal.hpp"

namespace podcrawl::store {
namespace {

using internal::guarded;
using internal::redact_database_url;

// libpq's messages span lines ("server closed the connection unexpectedly\n\tThis probably
// means..."): their lines, trimmed, joined with "; ", so an error stays one line of a log.
std::string one_line(const std::string& text) {
  std::string joined;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find_first_of("\r\n", start);
    if (end == std::string::npos) {
      end = text.size();
    }
    const std::size_t first = text.find_first_not_of(" \t", start);
    const std::size_t last = text.find_last_not_of(" \t", end == 0 ? 0 : end - 1);
    if (first != std::string::npos && first < end && last != std::string::npos && last >= first) {
      joined += (joined.empty() ? "" : "; ") + text.substr(first, last - first + 1);
    }
    start = end + 1;
  }
  return joined;
}

} // namespace

Database::Impl::Impl(const std::string& url)
    : redacted_url(redact_database_url(url)), connection(url) {}

namespace internal {

void rethrow_as_environment_error(const std::string& redacted_url, const char* operation) {
  try {
    throw;
  } catch (const pqxx::broken_connection& error) {
    throw ConnectionLost("database " + redacted_url + " unreachable (" + operation +
                         "): " + one_line(error.what()));
  } catch (const pqxx::sql_error& error) {
    throw core::EnvironmentError("database " + redacted_url + " failed (" + operation +
                                 ", SQLSTATE " + error.sqlstate() + "): " + one_line(error.what()));
  } catch (const pqxx::failure& error) {
    throw core::EnvironmentError("database " + redacted_url + " failed (" + operation +
                                 "): " + one_line(error.what()));
  }
}

} // namespace internal

Database::Database(const std::string& url) {
  try {
    m_impl = std::make_unique<Impl>(url);
  } catch (const pqxx::failure& error) {
    throw ConnectionLost("cannot connect to database " + redact_database_url(url) + ": " +
                         one_line(error.what()));
  }
}

Database::~Database() = default;

bool Database::in_recovery() {
  return guarded(m_impl->redacted_url, "ask whether the database is a replica", [&] {
    pqxx::read_transaction txn(m_impl->connection);
    const bool standby = txn.exec1("SELECT pg_is_in_recovery()")[0].as<bool>();
    txn.commit();
    return standby;
  });
}

} // namespace podcrawl::store

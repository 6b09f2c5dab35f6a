#include "podcrawl/store/database.hpp"

#include <string>

#include "podcrawl/core/error.hpp"
#include "store_internal.hpp"

namespace podcrawl::store {
namespace {

std::string without_trailing_newlines(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) {
    text.pop_back();
  }
  return text;
}

} // namespace

Database::Impl::Impl(const std::string& url)
    : redacted_url(redact_database_url(url)), connection(url) {}

void rethrow_as_environment_error(const std::string& redacted_url, const char* operation) {
  try {
    throw;
  } catch (const pqxx::broken_connection& error) {
    throw core::EnvironmentError("database " + redacted_url + " unreachable (" + operation +
                                 "): " + without_trailing_newlines(error.what()));
  } catch (const pqxx::sql_error& error) {
    throw core::EnvironmentError("database " + redacted_url + " failed (" + operation +
                                 ", SQLSTATE " + error.sqlstate() +
                                 "): " + without_trailing_newlines(error.what()));
  } catch (const pqxx::failure& error) {
    throw core::EnvironmentError("database " + redacted_url + " failed (" + operation +
                                 "): " + without_trailing_newlines(error.what()));
  }
}

Database::Database(const std::string& url) {
  try {
    m_impl = std::make_unique<Impl>(url);
  } catch (const pqxx::failure& error) {
    throw core::EnvironmentError("cannot connect to database " + redact_database_url(url) + ": " +
                                 without_trailing_newlines(error.what()));
  }
}

Database::~Database() = default;

} // namespace podcrawl::store

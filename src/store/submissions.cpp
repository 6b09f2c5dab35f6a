#include "podcrawl/store/submissions.hpp"

#include "store_internal.hpp"

namespace podcrawl::store {

namespace {

using internal::guarded;

constexpr const char* k_columns =
    "id, url, given, client, extract(epoch FROM submitted_at)::bigint";

Submission submission_from_row(const pqxx::row& row) {
  return {row[0].as<std::int64_t>(), row[1].as<std::string>(), row[2].as<std::string>(),
          row[3].as<std::string>(), row[4].as<std::int64_t>()};
}

} // namespace

Submissions::Submissions(Database& database) : m_impl(database.m_impl.get()) {}

bool Submissions::queue(const std::string& url, const std::string& given,
                        const std::string& client) {
  return guarded(m_impl->redacted_url, "queue a submission", [&] {
    pqxx::work txn(m_impl->connection);
    const auto rows = txn.exec_params(
        "INSERT INTO submissions (url, given, client) VALUES ($1, $2, $3)"
        " ON CONFLICT (url) DO NOTHING RETURNING id",
        internal::storable_text(url), internal::storable_text(given),
        internal::storable_text(client));
    txn.commit();
    return !rows.empty();
  });
}

std::vector<Submission> Submissions::waiting() {
  return guarded(m_impl->redacted_url, "list submissions", [&] {
    pqxx::read_transaction txn(m_impl->connection);
    std::vector<Submission> found;
    for (const auto& row : txn.exec(std::string("SELECT ") + k_columns +
                                    " FROM submissions ORDER BY submitted_at, id")) {
      found.push_back(submission_from_row(row));
    }
    return found;
  });
}

std::optional<Submission> Submissions::find(std::int64_t id) {
  return guarded(m_impl->redacted_url, "read a submission", [&]() -> std::optional<Submission> {
    pqxx::read_transaction txn(m_impl->connection);
    const auto rows =
        txn.exec_params(std::string("SELECT ") + k_columns + " FROM submissions WHERE id = $1", id);
    if (rows.empty()) {
      return std::nullopt;
    }
    return submission_from_row(rows[0]);
  });
}

bool Submissions::remove(std::int64_t id) {
  return guarded(m_impl->redacted_url, "remove a submission", [&] {
    pqxx::work txn(m_impl->connection);
    const auto rows = txn.exec_params("DELETE FROM submissions WHERE id = $1 RETURNING id", id);
    txn.commit();
    return !rows.empty();
  });
}

} // namespace podcrawl::store

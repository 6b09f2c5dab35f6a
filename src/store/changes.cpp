#include "podcrawl/store/changes.hpp"

#include <utility>

#include <pqxx/pqxx>

#include "podcrawl/store/api_keys.hpp"
#include "store_internal.hpp"

namespace podcrawl::store {

namespace {

using internal::guarded;
using internal::k_directory_channel;
using internal::redact_database_url;

class Receiver : public pqxx::notification_receiver {
public:
  Receiver(pqxx::connection_base& connection, std::vector<std::string>& slugs)
      : pqxx::notification_receiver(connection, k_directory_channel), m_slugs(slugs) {}

  void operator()(const std::string& payload, int) override { m_slugs.push_back(payload); }

private:
  std::vector<std::string>& m_slugs;
};

class KeysReceiver : public pqxx::notification_receiver {
public:
  KeysReceiver(pqxx::connection_base& connection, bool& changed)
      : pqxx::notification_receiver(connection, k_api_keys_channel), m_changed(changed) {}

  void operator()(const std::string&, int) override { m_changed = true; }

private:
  bool& m_changed;
};

} // namespace

struct DirectoryChanges::Impl {
  std::string redacted_url;
  pqxx::connection connection;
  std::vector<std::string> slugs;
  bool keys_changed = false;
  Receiver receiver;
  KeysReceiver keys_receiver;

  explicit Impl(const std::string& url)
      : redacted_url(redact_database_url(url)),
        connection(url),
        receiver(connection, slugs),
        keys_receiver(connection, keys_changed) {}
};

DirectoryChanges::DirectoryChanges(const std::string& url) {
  guarded(redact_database_url(url), "listen for changes",
          [&] { m_impl = std::make_unique<Impl>(url); });
}

DirectoryChanges::~DirectoryChanges() = default;

Announcements DirectoryChanges::wait(std::chrono::milliseconds timeout) {
  return guarded(m_impl->redacted_url, "listen for changes", [&] {
    const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(timeout).count();
    m_impl->connection.await_notification(static_cast<long>(micros / 1000000),
                                          static_cast<long>(micros % 1000000));
    if (!m_impl->connection.is_open()) {
      throw pqxx::broken_connection("the connection closed");
    }
    Announcements heard;
    heard.slugs.swap(m_impl->slugs);
    heard.api_keys = std::exchange(m_impl->keys_changed, false);
    return heard;
  });
}

} // namespace podcrawl::store

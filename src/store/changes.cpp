#include "podcrawl/store/changes.hpp"

#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <limits>
#include <set>
#include <utility>

#include <pqxx/pqxx>

#include "podcrawl/store/api_keys.hpp"
#include "podcrawl/store/crawl_list.hpp"
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

class UrgentReceiver : public pqxx::notification_receiver {
public:
  UrgentReceiver(pqxx::connection_base& connection, std::set<std::int64_t>& ids)
      : pqxx::notification_receiver(connection, k_urgent_channel), m_ids(ids) {}

  void operator()(const std::string& payload, int) override {
    std::int64_t id = 0;
    const auto parsed = std::from_chars(payload.data(), payload.data() + payload.size(), id);
    if (parsed.ec == std::errc() && parsed.ptr == payload.data() + payload.size() &&
        m_ids.size() < k_max_urgent_heard) {
      m_ids.insert(id);
    }
  }

private:
  std::set<std::int64_t>& m_ids;
};

// Block until one of the descriptors is readable (or hung up), at most timeout_ms.
void poll_readable(int socket, int wake_fd, int timeout_ms) {
  pollfd polled[2] = {{socket, POLLIN, 0}, {wake_fd, POLLIN, 0}};
  const nfds_t count = wake_fd >= 0 ? 2 : 1;
  while (::poll(polled, count, timeout_ms) < 0 && errno == EINTR) {
  }
}

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

struct UrgentFeeds::Impl {
  std::string redacted_url;
  pqxx::connection connection;
  std::set<std::int64_t> ids;
  UrgentReceiver receiver;

  explicit Impl(const std::string& url)
      : redacted_url(redact_database_url(url)), connection(url), receiver(connection, ids) {}

  // Deliver what has arrived on the socket, without blocking; true when some feed was heard.
  bool take_arrived() {
    connection.get_notifs();
    if (!connection.is_open()) {
      throw pqxx::broken_connection("the connection closed");
    }
    return !ids.empty();
  }
};

UrgentFeeds::UrgentFeeds(const std::string& url) {
  guarded(redact_database_url(url), "listen for urgent feeds",
          [&] { m_impl = std::make_unique<Impl>(url); });
}

UrgentFeeds::~UrgentFeeds() = default;

std::vector<std::int64_t> UrgentFeeds::wait(std::chrono::milliseconds timeout, int wake_fd) {
  guarded(m_impl->redacted_url, "listen for urgent feeds", [&] {
    if (!m_impl->take_arrived() && timeout.count() > 0) {
      poll_readable(m_impl->connection.sock(), wake_fd,
                    static_cast<int>(std::min<std::chrono::milliseconds::rep>(
                        timeout.count(), std::numeric_limits<int>::max())));
      m_impl->take_arrived();
    }
  });
  std::vector<std::int64_t> heard(m_impl->ids.begin(), m_impl->ids.end());
  m_impl->ids.clear();
  return heard;
}

} // namespace podcrawl::store

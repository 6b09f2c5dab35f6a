#pragma once

#include <gtest/gtest.h>
#include <pqxx/pqxx>

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "podcrawl/core/config.hpp"
#include "podcrawl/feed/model.hpp"
#include "podcrawl/model/show.hpp"
#include "podcrawl/store/cover_art.hpp"
#include "podcrawl/store/crawl_history.hpp"
#include "podcrawl/store/crawl_list.hpp"
#include "podcrawl/store/database.hpp"
#include "podcrawl/store/directory_pages.hpp"
#include "podcrawl/store/directory_search.hpp"
#include "podcrawl/store/fetch_outcomes.hpp"
#include "support/temp_database.hpp"

namespace podcrawl::store {

inline const std::filesystem::path k_sql_dir =
    std::filesystem::path(podcrawl::core::source_dir()) / "sql";

// A migrated, empty database of its own for each test.
// Hears the store's announcements on one channel, on a connection of its own.
class ChannelListener : public pqxx::notification_receiver {
public:
  ChannelListener(pqxx::connection& connection, const char* channel)
      : pqxx::notification_receiver(connection, channel), m_connection(connection) {}

  void operator()(const std::string& payload, int) override { m_payloads.push_back(payload); }

  // The payloads heard, once `count` have been (waiting at most ten seconds).
  std::vector<std::string> heard(std::size_t count) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (m_payloads.size() < count && std::chrono::steady_clock::now() < deadline) {
      m_connection.await_notification(1, 0);
    }
    return m_payloads;
  }

private:
  pqxx::connection& m_connection;
  std::vector<std::string> m_payloads;
};

class StoreTest : public testing::DatabaseTest {
protected:
  void SetUp() override {
    DatabaseTest::SetUp();
    if (IsSkipped()) {
      return;
    }
    m_db = std::make_unique<Database>(database_url());
    m_db->migrate(k_sql_dir);
  }

  Database& db() { return *m_db; }
  // The store's classes over this test's connection.
  CrawlList crawl_list() { return CrawlList(db()); }
  FetchOutcomes outcomes() { return FetchOutcomes(db()); }
  CrawlHistory history() { return CrawlHistory(db()); }
  CoverArt cover_art() { return CoverArt(db()); }
  DirectoryPages pages() { return DirectoryPages(db()); }
  DirectorySearch directory_search() { return DirectorySearch(db()); }
  const std::string& url() const { return database_url(); }

  // Add a feed and return its id.
  std::int64_t listed_feed(const std::string& url, std::int64_t now = 1000) {
    crawl_list().add_feed(url, now);
    return crawl_list().find_feed(url).value().id;
  }

  std::unique_ptr<Database> m_db;
};

inline feed::Episode episode(const std::string& guid, const std::string& title,
                             std::optional<std::int64_t> published) {
  feed::Episode e;
  e.guid = guid;
  e.title = title;
  e.published = published;
  e.enclosure_url = "https://cdn.example.org/" + guid + ".mp3";
  e.enclosure_type = "audio/mpeg";
  return e;
}

inline feed::Show show(const std::string& title, const std::string& language = "en") {
  feed::Show s;
  s.title = title;
  s.language = language;
  s.effective_language = language;
  s.link = "https://example.org/";
  s.description = "<p>About " + title + "</p>";
  s.author = "Example Author";
  s.categories = {"Technology"};
  return s;
}

// The episodes of a stored show, and their slugs, in its order (newest first).
inline std::vector<feed::Episode> episodes_of(const model::StoredShow& show) {
  std::vector<feed::Episode> episodes;
  for (const auto& stored : show.episodes) {
    episodes.push_back(stored.episode);
  }
  return episodes;
}
inline std::vector<std::string> slugs_of(const model::StoredShow& show) {
  std::vector<std::string> slugs;
  for (const auto& stored : show.episodes) {
    slugs.push_back(stored.slug);
  }
  return slugs;
}

} // namespace podcrawl::store

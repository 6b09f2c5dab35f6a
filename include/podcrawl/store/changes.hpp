#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace podcrawl::store {

// What the store announced since the last look.
struct Announcements {
  std::vector<std::string> slugs; // shows whose pages changed
  bool api_keys = false;          // an API key was created or revoked
};

// The shows whose pages changed, as the store announces them: every save, removal and hand-over
// of a show sends its slug on a PostgreSQL channel when its transaction commits, to every
// process connected to the primary (a read replica delivers none); and the API's keys, when one
// is created or revoked. One connection of its own.
class DirectoryChanges {
public:
  // Connect and listen. Throws core::EnvironmentError when the server cannot be reached.
  explicit DirectoryChanges(const std::string& url);
  ~DirectoryChanges();
  DirectoryChanges(const DirectoryChanges&) = delete;
  DirectoryChanges& operator=(const DirectoryChanges&) = delete;

  // Wait at most `timeout` for announcements; return those made since the last call, none when
  // none came. Throws core::EnvironmentError when the connection broke: changes may have been
  // missed, and a new DirectoryChanges must be made.
  Announcements wait(std::chrono::milliseconds timeout);

private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

// Most feed ids UrgentFeeds holds between two waits; those announced beyond are dropped (they
// are due all the same, and a crawler claims them with the others).
inline constexpr std::size_t k_max_urgent_heard = 10'000;

// The feeds made due at once (CrawlList::mark_urgent_by_url, mark_urgent_by_show), as the store
// announces them on k_urgent_channel when the marking transaction commits, to every process
// connected to the primary. For a crawler that stays up. One connection of its own, which only
// listens: waiting costs the server nothing.
class UrgentFeeds {
public:
  // Connect and listen. Throws ConnectionLost when the server cannot be reached.
  explicit UrgentFeeds(const std::string& url);
  ~UrgentFeeds();
  UrgentFeeds(const UrgentFeeds&) = delete;
  UrgentFeeds& operator=(const UrgentFeeds&) = delete;

  // Wait at most `timeout` for an announcement, or until `wake_fd` (when >= 0) is readable,
  // whichever comes first; a zero timeout only takes what has arrived. Return the ids of the
  // feeds announced since the last call, ascending, each once and at most k_max_urgent_heard of
  // them; none when none came. Throws ConnectionLost when the connection broke: announcements
  // may have been missed (their feeds are due anyway), and a new UrgentFeeds must be made.
  std::vector<std::int64_t> wait(std::chrono::milliseconds timeout, int wake_fd = -1);

private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

} // namespace podcrawl::store

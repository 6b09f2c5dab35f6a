#pragma once

#include <chrono>
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

} // namespace podcrawl::store

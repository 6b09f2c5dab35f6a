#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace podcrawl::store {

// The shows whose pages changed, as the store announces them: every save, removal and hand-over
// of a show sends its slug on a PostgreSQL channel when its transaction commits, to every
// process connected to the primary (a read replica delivers none). One connection of its own.
class DirectoryChanges {
public:
  // Connect and listen. Throws core::EnvironmentError when the server cannot be reached.
  explicit DirectoryChanges(const std::string& url);
  ~DirectoryChanges();
  DirectoryChanges(const DirectoryChanges&) = delete;
  DirectoryChanges& operator=(const DirectoryChanges&) = delete;

  // Wait at most `timeout` for announcements; return the slugs announced since the last call,
  // empty when none came. Throws core::EnvironmentError when the connection broke: changes may
  // have been missed, and a new DirectoryChanges must be made.
  std::vector<std::string> wait(std::chrono::milliseconds timeout);

private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

} // namespace podcrawl::store

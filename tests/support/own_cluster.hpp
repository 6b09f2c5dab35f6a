#pragma once

#include <string>

#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace podcrawl::testing {

// A free TCP port on 127.0.0.1 (free when asked).
int free_port();

// A PostgreSQL cluster of the test's own (scripts/db), which it may stop and start, or make a
// streaming replica of another; stopped and removed at the end.
class OwnCluster {
public:
  OwnCluster();
  ~OwnCluster();
  OwnCluster(const OwnCluster&) = delete;
  OwnCluster& operator=(const OwnCluster&) = delete;

  // Runs scripts/db COMMAND [ARGUMENT] (start, stop, replica PORT) for this cluster; `out`
  // holds what it printed. Its output goes through a file, not a pipe: the server it starts
  // inherits the descriptor, and a pipe would stay open for as long as the server runs.
  ProcessResult script(const std::string& command, const std::string& argument = "");
  // Make this cluster a hot standby of `primary` (pg_basebackup -R) and start it.
  ProcessResult start_replica_of(const OwnCluster& primary);
  std::string url() const;
  int port() const { return m_port; }

private:
  TempDir m_dir;
  int m_port;
};

} // namespace podcrawl::testing

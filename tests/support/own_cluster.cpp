#include "support/own_cluster.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <exception>

#include "podcrawl/core/config.hpp"

namespace podcrawl::testing {

int free_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  const bool bound = bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
                     getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0;
  close(fd);
  return bound ? ntohs(address.sin_port) : 0;
}

OwnCluster::OwnCluster() : m_port(free_port()) {
  // Run as root, scripts/db runs the server as its own user, which must reach the folder.
  chmod(m_dir.path().c_str(), 0755);
}

OwnCluster::~OwnCluster() {
  try {
    script("stop");
  } catch (const std::exception&) {
    // A server left running is found by its folder; a throwing destructor is worse.
  }
}

ProcessResult OwnCluster::script(const std::string& command, const std::string& argument) {
  static const std::string k_shell =
      R"(exec /usr/bin/env PODCRAWL_DB_DIR="$1" PODCRAWL_DB_PORT="$2" "$3" "$4" $5 >"$6" 2>&1)";
  const auto log = m_dir.path() / "db.log";
  auto result = run_process({"/bin/sh", "-c", k_shell, "sh", (m_dir.path() / "db").string(),
                             std::to_string(m_port), (core::source_dir() / "scripts/db").string(),
                             command, argument, log.string()});
  result.out = read_file(log);
  return result;
}

ProcessResult OwnCluster::start_replica_of(const OwnCluster& primary) {
  return script("replica", std::to_string(primary.port()));
}

std::string OwnCluster::url() const {
  return "postgresql://podcrawl@127.0.0.1:" + std::to_string(m_port) + "/podcrawl";
}

} // namespace podcrawl::testing

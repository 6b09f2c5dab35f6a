#pragma once

#include <chrono>
#include <csignal>

namespace podcrawl::core {

// SIGTERM and SIGINT, caught while this lives, as a file descriptor that becomes readable when
// one arrives: a long-running command polls it beside its own sockets and finishes its work in
// flight before it exits 0. Their old dispositions come back with restore() or the destructor,
// so that a second signal ends the process as it would have. One at a time per process.
class StopSignals {
public:
  // Install the handlers. Throws core::EnvironmentError when they cannot be installed.
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  // Readable (POLLIN) once a signal arrived, and from then on; never read from it.
  int fd() const { return m_pipe[0]; }
  // True once a signal arrived. Does not block.
  bool requested() const;
  // Block until a signal arrives.
  void wait() const;
  // Block until a signal arrives or `timeout` passes; true when one arrived.
  bool wait_for(std::chrono::milliseconds timeout) const;
  // Put the old dispositions back; a signal that arrived stays requested.
  void restore();

private:
  int m_pipe[2] = {-1, -1};
  struct sigaction m_old_term {};
  struct sigaction m_old_int {};
  bool m_restored = true;
};

} // namespace podcrawl::core

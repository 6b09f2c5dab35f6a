#include "podcrawl/core/stop_signals.hpp"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <limits>
#include <string>

#include "podcrawl/core/error.hpp"

namespace podcrawl::core {

namespace {

// The write end of the pipe of the StopSignals that lives, -1 outside one. A signal handler may
// only touch lock-free atomics and call async-signal-safe functions such as write().
std::atomic<int> g_wake_fd{-1};

void on_stop_signal(int /*signal*/) {
  const int fd = g_wake_fd.load();
  if (fd >= 0) {
    const char byte = 1;
    [[maybe_unused]] const auto written = ::write(fd, &byte, 1);
  }
}

bool readable(int fd, int timeout_ms) {
  pollfd polled{fd, POLLIN, 0};
  int ready = 0;
  while ((ready = ::poll(&polled, 1, timeout_ms)) < 0 && errno == EINTR) {
  }
  return ready > 0;
}

} // namespace

StopSignals::StopSignals() {
  if (::pipe2(m_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
    throw EnvironmentError(std::string("cannot create a pipe: ") + std::strerror(errno));
  }
  m_restored = false;
  g_wake_fd = m_pipe[1];
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  if (::sigaction(SIGTERM, &action, &m_old_term) != 0 ||
      ::sigaction(SIGINT, &action, &m_old_int) != 0) {
    const std::string reason = std::strerror(errno);
    restore();
    ::close(m_pipe[0]);
    ::close(m_pipe[1]);
    throw EnvironmentError("cannot handle SIGTERM and SIGINT: " + reason);
  }
}

StopSignals::~StopSignals() {
  restore();
  ::close(m_pipe[0]);
  ::close(m_pipe[1]);
}

bool StopSignals::requested() const {
  return readable(m_pipe[0], 0);
}

void StopSignals::wait() const {
  readable(m_pipe[0], -1);
}

bool StopSignals::wait_for(std::chrono::milliseconds timeout) const {
  return readable(m_pipe[0], static_cast<int>(std::clamp<std::chrono::milliseconds::rep>(
                                 timeout.count(), 0, std::numeric_limits<int>::max())));
}

void StopSignals::restore() {
  if (m_restored) {
    return;
  }
  m_restored = true;
  ::sigaction(SIGTERM, &m_old_term, nullptr);
  ::sigaction(SIGINT, &m_old_int, nullptr);
  g_wake_fd = -1;
}

} // namespace podcrawl::core

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>

#include <spdlog/spdlog.h>

#include "podcrawl/core/error.hpp"
#include "podcrawl/http/server.hpp"

namespace podcrawl::http {

namespace {

// The write end of the pipe that wakes serve_until_signal, -1 outside it. A signal handler may
// only touch lock-free atomics and call async-signal-safe functions such as write().
std::atomic<int> g_wake_fd{-1};

void on_stop_signal(int /*signal*/) {
  const int fd = g_wake_fd.load();
  if (fd >= 0) {
    const char byte = 1;
    [[maybe_unused]] const auto written = ::write(fd, &byte, 1);
  }
}

struct Pipe {
  int ends[2] = {-1, -1};
  Pipe() {
    if (::pipe2(ends, O_CLOEXEC | O_NONBLOCK) != 0) {
      throw core::EnvironmentError(std::string("cannot create a pipe: ") + std::strerror(errno));
    }
  }
  ~Pipe() {
    ::close(ends[0]);
    ::close(ends[1]);
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
};

// SIGTERM and SIGINT wake the pipe while this lives; their old dispositions come back after.
class StopSignals {
public:
  explicit StopSignals(int wake_fd) {
    g_wake_fd = wake_fd;
    struct sigaction action {};
    action.sa_handler = on_stop_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    if (::sigaction(SIGTERM, &action, &m_old_term) != 0 ||
        ::sigaction(SIGINT, &action, &m_old_int) != 0) {
      restore();
      throw core::EnvironmentError(std::string("cannot handle SIGTERM and SIGINT: ") +
                                   std::strerror(errno));
    }
  }
  ~StopSignals() { restore(); }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  // Put the old dispositions back: a second signal then ends the process as it would have.
  void restore() {
    if (m_restored) {
      return;
    }
    m_restored = true;
    ::sigaction(SIGTERM, &m_old_term, nullptr);
    ::sigaction(SIGINT, &m_old_int, nullptr);
    g_wake_fd = -1;
  }

private:
  struct sigaction m_old_term {};
  struct sigaction m_old_int {};
  bool m_restored = false;
};

} // namespace

void serve_until_signal(Server& server) {
  Pipe pipe;
  StopSignals signals(pipe.ends[1]);
  pollfd readable{pipe.ends[0], POLLIN, 0};
  while (::poll(&readable, 1, -1) < 0 && errno == EINTR) {
  }
  signals.restore();
  spdlog::info("stopping: finishing the requests in flight");
  server.stop();
  if (!server.wait()) {
    spdlog::warn("stopped with requests still in flight after the drain timeout");
  }
}

} // namespace podcrawl::http

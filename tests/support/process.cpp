#include "support/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

extern char** environ;

namespace podcrawl::testing {

namespace {

struct Running {
  pid_t pid = 0;
  int out = -1; // read end of the child's stdout
  int err = -1; // read end of the child's stderr, when collected
};

enum class Stderr { pass_through, collect };

Running start(const std::vector<std::string>& arguments,
              Stderr stderr_mode = Stderr::pass_through) {
  // Close-on-exec, and every other descriptor closed in the child: a child that starts a
  // daemon (scripts/db starts PostgreSQL) must not hand it a pipe end, or the pipe never ends.
  int out_fds[2];
  int err_fds[2] = {-1, -1};
  if (pipe2(out_fds, O_CLOEXEC) != 0) {
    throw std::runtime_error("pipe failed");
  }
  if (stderr_mode == Stderr::collect && pipe2(err_fds, O_CLOEXEC) != 0) {
    close(out_fds[0]);
    close(out_fds[1]);
    throw std::runtime_error("pipe failed");
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out_fds[1], STDOUT_FILENO);
  if (stderr_mode == Stderr::collect) {
    posix_spawn_file_actions_adddup2(&actions, err_fds[1], STDERR_FILENO);
  }
  posix_spawn_file_actions_addclosefrom_np(&actions, STDERR_FILENO + 1);
  std::vector<char*> argv;
  for (const auto& argument : arguments) {
    argv.push_back(const_cast<char*>(argument.c_str()));
  }
  argv.push_back(nullptr);
  Running running;
  const int spawned = posix_spawn(&running.pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out_fds[1]);
  if (err_fds[1] >= 0) {
    close(err_fds[1]);
  }
  if (spawned != 0) {
    close(out_fds[0]);
    if (err_fds[0] >= 0) {
      close(err_fds[0]);
    }
    throw std::runtime_error("cannot start " + arguments.front());
  }
  running.out = out_fds[0];
  running.err = err_fds[0];
  return running;
}

ProcessResult finish(const Running& running) {
  ProcessResult result;
  char buffer[65536];
  ssize_t n = 0;
  while ((n = read(running.out, buffer, sizeof buffer)) > 0) {
    result.out.append(buffer, static_cast<std::size_t>(n));
  }
  close(running.out);
  int status = 0;
  rusage usage{};
  wait4(running.pid, &status, 0, &usage);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.peak_kilobytes = usage.ru_maxrss;
  return result;
}

} // namespace

ProcessResult run_process(const std::vector<std::string>& arguments) {
  return finish(start(arguments));
}

std::vector<ProcessResult> run_processes_together(
    const std::vector<std::vector<std::string>>& commands) {
  std::vector<Running> running;
  for (const auto& command : commands) {
    running.push_back(start(command));
  }
  // Each child writes little (less than a pipe holds), so reading one to its end never blocks
  // another.
  std::vector<ProcessResult> results;
  for (const auto& child : running) {
    results.push_back(finish(child));
  }
  return results;
}

ChildProcess::ChildProcess(const std::vector<std::string>& arguments) {
  const Running running = start(arguments, Stderr::collect);
  m_pid = running.pid;
  m_out = running.out;
  m_err = running.err;
}

ChildProcess::~ChildProcess() {
  if (m_result) {
    return;
  }
  kill();
  try {
    wait_for(std::chrono::hours(1));
  } catch (const std::exception&) {
    // Left unreaped; a throwing destructor would be worse.
  }
}

void ChildProcess::kill() {
  if (!m_result) {
    ::kill(m_pid, SIGKILL);
  }
}

void ChildProcess::signal(int number) {
  if (!m_result) {
    ::kill(m_pid, number);
  }
}

bool ChildProcess::read_until(std::chrono::steady_clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - std::chrono::steady_clock::now());
  if (left.count() <= 0) {
    return false;
  }
  std::vector<pollfd> fds;
  for (const int fd : {m_out, m_err}) {
    if (fd >= 0) {
      fds.push_back({fd, POLLIN, 0});
    }
  }
  if (poll(fds.data(), fds.size(), static_cast<int>(left.count())) < 0 && errno != EINTR) {
    throw std::runtime_error("poll failed");
  }
  for (const auto& polled : fds) {
    if (polled.revents == 0) {
      continue;
    }
    int& fd = polled.fd == m_out ? m_out : m_err;
    std::string& collected = polled.fd == m_out ? m_collected_out : m_collected_err;
    char buffer[65536];
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n > 0) {
      collected.append(buffer, static_cast<std::size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      close(fd);
      fd = -1;
    }
  }
  return true;
}

std::optional<std::string> ChildProcess::wait_for_output(std::string_view text,
                                                         std::chrono::milliseconds timeout) {
  return wait_for_text(m_collected_out, m_out, text, timeout);
}

std::optional<std::string> ChildProcess::wait_for_log(std::string_view text,
                                                      std::chrono::milliseconds timeout) {
  return wait_for_text(m_collected_err, m_err, text, timeout);
}

std::optional<std::string> ChildProcess::wait_for_text(const std::string& collected, const int& fd,
                                                       std::string_view text,
                                                       std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (collected.find(text) == std::string::npos) {
    if (m_result || fd < 0 || !read_until(deadline)) {
      return std::nullopt;
    }
  }
  return collected;
}

std::optional<ProcessResult> ChildProcess::wait_for(std::chrono::milliseconds timeout) {
  if (m_result) {
    return m_result;
  }
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  // Both pipes reach their end when the child exits (it starts nothing that outlives it).
  while (m_out >= 0 || m_err >= 0) {
    if (!read_until(deadline)) {
      return std::nullopt;
    }
  }
  int status = 0;
  rusage usage{};
  wait4(m_pid, &status, 0, &usage);
  ProcessResult result;
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.peak_kilobytes = usage.ru_maxrss;
  result.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  result.out = std::move(m_collected_out);
  result.err = std::move(m_collected_err);
  std::fputs(result.err.c_str(), stderr);
  m_result = std::move(result);
  return m_result;
}

std::string podcrawl_binary() {
  const char* binary = std::getenv("PODCRAWL_BINARY");
  return binary != nullptr && *binary != '\0' ? binary : PODCRAWL_TEST_BINARY;
}

} // namespace podcrawl::testing

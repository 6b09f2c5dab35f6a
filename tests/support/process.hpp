#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace podcrawl::testing {

struct ProcessResult {
  int status = -1;         // exit status, or -1 when the process did not exit normally
  std::string out;         // everything written to stdout
  int signal = 0;          // the signal that ended the process, 0 when it exited
  std::string err;         // everything written to stderr, when the runner collects it
  long peak_kilobytes = 0; // the process's own peak resident set (ru_maxrss)
};

// Run a program with arguments (no shell) and wait for it; stderr passes through to the test's
// stderr. Throws std::runtime_error when the program cannot be started.
ProcessResult run_process(const std::vector<std::string>& arguments);

// Start every command at once (no shell), then wait for all of them; results in order.
std::vector<ProcessResult> run_processes_together(
    const std::vector<std::vector<std::string>>& commands);

// A program started in the background (no shell), for tests that stop it from outside while it
// runs. Its stdout and stderr are collected (and stderr copied to the test's stderr once it
// ends). The destructor kills and reaps a child still running. Throws std::runtime_error when
// the program cannot be started.
class ChildProcess {
public:
  explicit ChildProcess(const std::vector<std::string>& arguments);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  int pid() const { return m_pid; }
  // Send SIGKILL; nothing once the child has been reaped.
  void kill();
  // Send a signal; nothing once the child has been reaped.
  void signal(int number);
  // Wait until the child's stdout holds text, at most timeout; all of its stdout so far, or
  // nullopt when the text did not come (the child ended, or the time ran out).
  std::optional<std::string> wait_for_output(std::string_view text,
                                             std::chrono::milliseconds timeout);
  // The same for its stderr (its log): all of it so far, once it holds text.
  std::optional<std::string> wait_for_log(std::string_view text, std::chrono::milliseconds timeout);
  // Wait until the child has closed its output and exited, at most timeout; nullopt when it
  // still runs then. Once it returned a result, the child is reaped and it returns the same.
  std::optional<ProcessResult> wait_for(std::chrono::milliseconds timeout);

private:
  // Wait until `collected` (read from fd) holds text, at most timeout.
  std::optional<std::string> wait_for_text(const std::string& collected, const int& fd,
                                           std::string_view text,
                                           std::chrono::milliseconds timeout);
  // Read what the child wrote until one of its pipes had something or closed; false when the
  // deadline passed first.
  bool read_until(std::chrono::steady_clock::time_point deadline);

  int m_pid = 0;
  int m_out = -1;
  int m_err = -1;
  std::optional<ProcessResult> m_result;
  std::string m_collected_out;
  std::string m_collected_err;
};

// The podcrawl binary under test: $PODCRAWL_BINARY, else the one built beside the tests.
std::string podcrawl_binary();

} // namespace podcrawl::testing

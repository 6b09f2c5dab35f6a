#pragma once

#include <string>
#include <vector>

namespace podcrawl::testing {

struct ProcessResult {
  int status = -1; // exit status, or -1 when the process did not exit normally
  std::string out; // everything written to stdout
};

// Run a program with arguments (no shell) and wait for it; stderr passes through to the test's
// stderr. Throws std::runtime_error when the program cannot be started.
ProcessResult run_process(const std::vector<std::string>& arguments);

// Start every command at once (no shell), then wait for all of them; results in order.
std::vector<ProcessResult> run_processes_together(
    const std::vector<std::vector<std::string>>& commands);

// The podcrawl binary under test: $PODCRAWL_BINARY, else the one built beside the tests.
std::string podcrawl_binary();

} // namespace podcrawl::testing

#include "support/process.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <stdexcept>

extern char** environ;

namespace podcrawl::testing {

namespace {

struct Running {
  pid_t pid = 0;
  int out = -1; // read end of the child's stdout
};

Running start(const std::vector<std::string>& arguments) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) {
    throw std::runtime_error("pipe failed");
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  std::vector<char*> argv;
  for (const auto& argument : arguments) {
    argv.push_back(const_cast<char*>(argument.c_str()));
  }
  argv.push_back(nullptr);
  Running running;
  const int spawned = posix_spawn(&running.pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  if (spawned != 0) {
    close(pipe_fds[0]);
    throw std::runtime_error("cannot start " + arguments.front());
  }
  running.out = pipe_fds[0];
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
  waitpid(running.pid, &status, 0);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
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

std::string podcrawl_binary() {
  const char* binary = std::getenv("PODCRAWL_BINARY");
  return binary != nullptr && *binary != '\0' ? binary : PODCRAWL_TEST_BINARY;
}

} // namespace podcrawl::testing

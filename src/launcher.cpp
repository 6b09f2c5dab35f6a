// podcrawl: the command line. `podcrawl parse FILE` is answered here, by a program that loads
// only the parser's libraries (libxml2, ICU, Gumbo, CLD2): a one-feed parse is mostly start-up,
// and podcrawl's network and database libraries (libcurl, libpq and theirs) take three times as
// long to load as the parse of a typical feed. Every other command line runs in podcrawl-main,
// beside this program, which replaces it (exec: the same process, its signals and exit status).
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string_view>
#include <vector>

#include "local_parse.hpp"

int main(int argc, char** argv) {
  if (const auto request = podcrawl::cli::local_parse_request(argc, argv)) {
    return podcrawl::cli::run_local_parse(*request);
  }
  std::error_code error;
  std::filesystem::path folder =
      std::filesystem::read_symlink("/proc/self/exe", error).parent_path();
  if (error && argc > 0 && std::string_view(argv[0]).find('/') != std::string_view::npos) {
    folder = std::filesystem::path(argv[0]).parent_path(); // no /proc: the path it was run by
  }
  if (folder.empty()) {
    std::cerr << "podcrawl: cannot tell which folder podcrawl-main is in\n";
    return 1;
  }
  const std::filesystem::path program = folder / "podcrawl-main";
  std::vector<char*> arguments = {const_cast<char*>("podcrawl")};
  arguments.insert(arguments.end(), argv + std::min(argc, 1), argv + argc);
  arguments.push_back(nullptr);
  execv(program.c_str(), arguments.data());
  std::cerr << "podcrawl: cannot run " << program.string() << ": " << std::strerror(errno) << '\n';
  return 1;
}

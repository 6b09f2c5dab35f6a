// podcrawl: the command line. `podcrawl parse FILE` is answered here, by a program that loads
// only the parser's libraries (libxml2, ICU, Gumbo, CLD2): a one-feed parse is mostly start-up,
// and podcrawl's network and database libraries (libcurl, libpq and theirs) take three times as
// long to load as the parse of a typical feed. Every other command line runs in podcrawl-main,
// beside this program, which replaces it (exec: the same process, its signals and exit status).
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "local_parse.hpp"

int main(int argc, char** argv) {
  if (const auto request = podcrawl::cli::local_parse_request(argc, argv)) {
    return podcrawl::cli::run_local_parse(*request);
  }
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  const std::filesystem::path program =
      (error ? std::filesystem::path(argv[0]).parent_path() : self.parent_path()) / "podcrawl-main";
  argv[0] = const_cast<char*>("podcrawl");
  execv(program.c_str(), argv);
  std::cerr << "podcrawl: cannot run " << program.string() << ": " << std::strerror(errno) << '\n';
  return 1;
}

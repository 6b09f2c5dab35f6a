#pragma once

#include <optional>
#include <string>

// `podcrawl parse FILE` without the rest of podcrawl: the `podcrawl` program answers it with
// only the parser's libraries loaded, and hands every other command line to podcrawl-main
// (src/launcher.cpp). Starting with libcurl and libpq loaded costs a parse of one feed file
// more than its reading.

namespace podcrawl::cli {

// A file, or "-" for stdin. Throws core::UsageError when it cannot be read.
std::string read_input(const std::string& source);

// A parse of a file or stdin with no option but --base-url.
struct LocalParse {
  std::string source;
  std::string base_url;
};

// The parse `argv` asks for when it is exactly "parse SOURCE [--base-url URL]" (either order)
// and SOURCE is not a URL; nullopt for any other command line, which podcrawl-main answers.
std::optional<LocalParse> local_parse_request(int argc, char** argv);

// Parse the feed and print the show as JSON on stdout, as `podcrawl parse` does; the exit
// status (0, or 2 with one line on stderr when the input cannot be read or is not a feed).
int run_local_parse(const LocalParse& request);

} // namespace podcrawl::cli

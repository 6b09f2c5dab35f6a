#include "local_parse.hpp"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string_view>

#include "podcrawl/core/error.hpp"
#include "podcrawl/feed/json.hpp"
#include "podcrawl/feed/parser.hpp"
#include "podcrawl/net/url.hpp"

namespace podcrawl::cli {

namespace {

// Files warm_heap prepares for: large enough for page faults to matter, small enough that the
// memory is a fair guess.
constexpr std::uintmax_t k_warm_heap_from = 1024 * 1024;
constexpr std::uintmax_t k_warm_heap_up_to = 256 * 1024 * 1024;

// Map the pages of a large buffer about to be written in one call, instead of one page fault
// for each 4 KB as the writing reaches it: a feed of 5 MB takes 1,200 faults, each costing
// microseconds (more in a virtual machine). Nothing when the kernel cannot (before Linux
// 5.14): the faults then happen as before.
void prefault(char* data, std::size_t size) {
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto begin = (reinterpret_cast<std::uintptr_t>(data) + page - 1) / page * page;
  const auto end = (reinterpret_cast<std::uintptr_t>(data) + size) / page * page;
  if (end > begin) {
    madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE);
  }
}

// Prefault the heap a parse of `source` will use, in one call: the file's bytes, and about as
// much again for the show read from them. Freed memory stays with the process (the program
// ends after one parse), so the parse's allocations land on mapped pages.
void warm_heap(const std::string& source) {
  std::error_code error;
  const std::uintmax_t size = std::filesystem::file_size(source, error);
  if (error || size < k_warm_heap_from || size > k_warm_heap_up_to) {
    return;
  }
  mallopt(M_MMAP_THRESHOLD, static_cast<int>(k_warm_heap_up_to * 3));
  mallopt(M_TRIM_THRESHOLD, static_cast<int>(k_warm_heap_up_to * 3));
  const auto bytes = static_cast<std::size_t>(size) * 5 / 2;
  void* block = std::malloc(bytes);
  if (block != nullptr) {
    prefault(static_cast<char*>(block), bytes);
    std::free(block);
  }
}

} // namespace

std::string read_input(const std::string& source) {
  if (source == "-") {
    return std::string(std::istreambuf_iterator<char>(std::cin), {});
  }
  std::error_code error;
  if (std::filesystem::is_directory(source, error)) {
    throw core::UsageError("cannot read " + source + ": it is a folder");
  }
  std::ifstream in(source, std::ios::binary);
  if (!in) {
    throw core::UsageError("cannot read " + source);
  }
  // Read a regular file in one piece; a pipe or device (size unknown) by the buffer.
  const std::uintmax_t size = std::filesystem::is_regular_file(source, error)
                                  ? std::filesystem::file_size(source, error)
                                  : 0;
  if (!error && size > 0) {
    // Reserved, then filled through a small buffer: a string of `size` zeros would write every
    // byte twice.
    std::string content;
    content.reserve(static_cast<std::size_t>(size));
    prefault(content.data(), content.capacity());
    std::array<char, 64 * 1024> buffer{};
    while (in.read(buffer.data(), buffer.size()) || in.gcount() > 0) {
      content.append(buffer.data(), static_cast<std::size_t>(in.gcount()));
    }
    if (!in.bad()) {
      return content;
    }
    throw core::UsageError("cannot read " + source);
  }
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) {
    throw core::UsageError("cannot read " + source);
  }
  return content.str();
}

std::optional<LocalParse> local_parse_request(int argc, char** argv) {
  if (argc < 3 || argv[1] == nullptr || std::string_view(argv[1]) != "parse") {
    return std::nullopt;
  }
  LocalParse request;
  bool has_source = false;
  for (int i = 2; i < argc; ++i) {
    const std::string_view argument = argv[i];
    if (argument == "--base-url" && i + 1 < argc) {
      request.base_url = argv[++i];
    } else if (argument.starts_with("--base-url=")) {
      request.base_url = argument.substr(11);
    } else if (!has_source && (argument == "-" || !argument.starts_with('-'))) {
      request.source = argument;
      has_source = true;
    } else {
      return std::nullopt; // --help, another option, a second source: podcrawl-main says
    }
  }
  if (!has_source || net::is_http_url(request.source)) {
    return std::nullopt;
  }
  return request;
}

int run_local_parse(const LocalParse& request) {
  warm_heap(request.source);
  try {
    feed::ParseOptions options;
    options.feed_url = request.base_url;
    auto parsed = feed::parse_feed(read_input(request.source), options);
    if (parsed.outcome != feed::ParseOutcome::ok) {
      throw core::UsageError(request.source + ": " + parsed.error);
    }
    feed::write_json_text(parsed.show, std::cout);
    std::cout << '\n';
    std::cout.flush();
    return 0;
  } catch (const core::UsageError& error) {
    std::cerr << "podcrawl: " << error.what() << '\n';
    return 2;
  } catch (const std::exception& error) {
    std::cerr << "podcrawl: internal error: " << error.what() << '\n';
    return 1;
  }
}

} // namespace podcrawl::cli

#include "local_parse.hpp"

#include <array>
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
  if (argc < 3 || std::string_view(argv[1]) != "parse") {
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

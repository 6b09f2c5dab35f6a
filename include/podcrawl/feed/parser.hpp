#pragma once

#include <string>
#include <string_view>

#include "podcrawl/feed/model.hpp"

namespace podcrawl::feed {

struct ParseOptions {
  std::string feed_url;     // the URL the bytes came from; base for relative links
  std::string content_type; // the HTTP Content-Type header, for its charset; may be empty
};

enum class ParseOutcome { ok, not_a_feed, malformed };

struct ParseResult {
  ParseOutcome outcome = ParseOutcome::malformed;
  std::string error; // one line, for humans, when outcome != ok
  Show show;
};

// Parse feed bytes (RSS 2.0 with iTunes and Podcasting 2.0 namespaces, Atom) into a normalized
// Show. Never loads external entities or DTDs and never touches the network or files. Bad
// bytes are data: the result carries the outcome and a message, nothing is thrown.
ParseResult parse_feed(std::string_view bytes, const ParseOptions& options);
// The same, reading the caller's buffer in place (no copy of a well-formed UTF-8 document); it
// is left in an unspecified state.
ParseResult parse_feed(std::string&& bytes, const ParseOptions& options);

} // namespace podcrawl::feed

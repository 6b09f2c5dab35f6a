#include "podcrawl/html/escape.hpp"

namespace podcrawl::html {

namespace {

std::string_view entity_for(char c) {
  switch (c) {
    case '&':
      return "&amp;";
    case '<':
      return "&lt;";
    case '>':
      return "&gt;";
    case '"':
      return "&quot;";
    case '\'':
      return "&apos;";
    default:
      return {};
  }
}

} // namespace

void append_escaped(std::string& out, std::string_view text, std::string_view characters) {
  for (const char c : text) {
    const std::string_view entity = entity_for(c);
    if (!entity.empty() && characters.find(c) != std::string_view::npos) {
      out += entity;
    } else {
      out += c;
    }
  }
}

std::string escaped(std::string_view text, std::string_view characters) {
  std::string out;
  out.reserve(text.size());
  append_escaped(out, text, characters);
  return out;
}

} // namespace podcrawl::html

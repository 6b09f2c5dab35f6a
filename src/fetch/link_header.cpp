#include "podcrawl/fetch/link_header.hpp"

#include <optional>

#include "podcrawl/core/ascii.hpp"
#include "podcrawl/net/url.hpp"

namespace podcrawl::fetch {

namespace {

// One link-value: its target and the relation types of its rel parameter.
struct LinkValue {
  std::string target;
  std::vector<std::string> relations; // lower case
  bool anchored = false;              // it has an anchor parameter
};

void skip_spaces(std::string_view text, std::size_t& at) {
  while (at < text.size() && (text[at] == ' ' || text[at] == '\t')) {
    ++at;
  }
}

// A parameter's value at `at`: a quoted-string (its escapes undone) or a token, up to the next
// ';' or ','.
std::string parameter_value(std::string_view text, std::size_t& at) {
  std::string value;
  if (at < text.size() && text[at] == '"') {
    for (++at; at < text.size() && text[at] != '"'; ++at) {
      if (text[at] == '\\' && at + 1 < text.size()) {
        ++at;
      }
      value += text[at];
    }
    if (at < text.size()) {
      ++at; // the closing quote
    }
    return value;
  }
  while (at < text.size() && text[at] != ';' && text[at] != ',') {
    value += text[at++];
  }
  return std::string(core::trim(value));
}

std::vector<std::string> relation_types(std::string_view rel) {
  std::vector<std::string> types;
  std::size_t start = 0;
  while (start < rel.size()) {
    const std::size_t end = std::min(rel.find_first_of(" \t", start), rel.size());
    if (end > start) {
      types.push_back(core::ascii_lower(rel.substr(start, end - start)));
    }
    start = end + 1;
  }
  return types;
}

// The link-value starting at `at` (which it leaves after the ',' that ends it, or at the end);
// nullopt when it is malformed (then `at` is past the next ',' all the same).
std::optional<LinkValue> next_link_value(std::string_view text, std::size_t& at) {
  skip_spaces(text, at);
  const std::size_t close = text.find('>', at);
  if (at >= text.size() || text[at] != '<' || close == std::string_view::npos) {
    const std::size_t comma = text.find(',', at);
    at = comma == std::string_view::npos ? text.size() : comma + 1;
    return std::nullopt;
  }
  LinkValue link;
  link.target = std::string(text.substr(at + 1, close - at - 1));
  at = close + 1;
  while (true) {
    skip_spaces(text, at);
    if (at >= text.size() || text[at] == ',') {
      at = std::min(at + 1, text.size());
      return link;
    }
    if (text[at] != ';') { // junk after the target or a parameter: skip to the next link-value
      const std::size_t comma = text.find(',', at);
      at = comma == std::string_view::npos ? text.size() : comma + 1;
      return std::nullopt;
    }
    ++at;
    skip_spaces(text, at);
    std::string name;
    while (at < text.size() && text[at] != '=' && text[at] != ';' && text[at] != ',') {
      name += text[at++];
    }
    name = core::ascii_lower(core::trim(name));
    std::string value;
    if (at < text.size() && text[at] == '=') {
      ++at;
      skip_spaces(text, at);
      value = parameter_value(text, at);
    }
    // RFC 8288 section 3: occurrences of rel after the first are ignored.
    if (name == "rel" && link.relations.empty()) {
      link.relations = relation_types(value);
    } else if (name == "anchor") {
      link.anchored = true;
    }
  }
}

} // namespace

WebSubLinks websub_links(const std::vector<std::string>& values, std::string_view base_url) {
  WebSubLinks links;
  for (const std::string& value : values) {
    std::size_t at = 0;
    while (at < value.size()) {
      const auto link = next_link_value(value, at);
      if (!link || link->anchored) {
        continue;
      }
      const std::string target = net::resolve(base_url, link->target);
      if (!net::is_http_url(target)) {
        continue;
      }
      for (const std::string& relation : link->relations) {
        std::string& field = relation == "hub" ? links.hub : links.self;
        if ((relation == "hub" || relation == "self") && field.empty()) {
          field = target;
        }
      }
    }
  }
  return links;
}

} // namespace podcrawl::fetch

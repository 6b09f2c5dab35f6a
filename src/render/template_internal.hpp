#pragma once

// The page templates' language: the Mustache subset templates/*.mustache use, parsed once and
// rendered from a data tree with no copy of it. Its output is kainjow-mustache's, byte for byte,
// for the same template and data (tests/unit/render/template_test.cpp holds it to that):
// variables {{name}} (escaped) and {{{name}}} / {{& name}} (as they are), dotted names
// {{t.key}} and {{.}}, sections {{#name}} over a list, an object or true, inverted sections
// {{^name}}, comments {{! ...}}; a line that held a section tag and renders to nothing but
// spaces and tabs is left out. Partials are expanded into their includer before it is parsed.

#include <atomic>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace podcrawl::render::internal {

// A value the templates read: an object of named values, a list, a string or a flag.
class Data {
public:
  enum class type { object, list, string, bool_true, bool_false };

  Data() = default; // an empty object
  Data(type kind) : m_type(kind) {}
  Data(std::string text) : m_type(type::string), m_text(std::move(text)) {}
  Data(const char* text) : m_type(type::string), m_text(text) {}
  Data(bool flag) : m_type(flag ? type::bool_true : type::bool_false) {}

  // An object's member `name`, replaced when it is there; nothing for another kind of value.
  void set(std::string_view name, Data value);
  // A list's next item; nothing for another kind of value.
  void push_back(Data value);

  bool is_empty_list() const { return m_type == type::list && m_items.empty(); }
  bool is_false() const { return m_type == type::bool_false; }
  bool is_string() const { return m_type == type::string; }
  bool is_list() const { return m_type == type::list; }
  const std::string& text() const { return m_text; }
  const std::vector<Data>& items() const { return m_items; }
  // An object's member `name`, or null.
  const Data* get(std::string_view name) const;

private:
  type m_type = type::object;
  std::string m_text;
  std::vector<std::pair<std::string, Data>> m_members; // in the order they were first set
  std::vector<Data> m_items;
};

class Template {
public:
  // An empty template renders nothing.
  Template() = default;
  // Parses `text`; is_valid() says whether it could.
  explicit Template(std::string_view text);
  Template(Template&& other) noexcept;
  Template& operator=(Template&& other) noexcept;

  bool is_valid() const { return m_error.empty(); }
  const std::string& error_message() const { return m_error; }

  // The template filled from `stack`, innermost last: a name is looked up in each, last first.
  std::string render(const std::vector<const Data*>& stack) const;

  struct Node {
    enum class Kind { text, newline, variable, raw_variable, section, inverted };
    Kind kind = Kind::text;
    std::string text;               // text and newlines: as written
    std::vector<std::string> names; // tags: the dotted name's parts; empty for {{.}}
    std::vector<Node> children;     // sections
  };

private:
  std::vector<Node> m_nodes;
  std::string m_error;
  // The size of the last page rendered: the next one is written into that much room, less
  // often moved as it grows. Pages of one template are of a size.
  mutable std::atomic<std::size_t> m_size_hint{0};
};

} // namespace podcrawl::render::internal

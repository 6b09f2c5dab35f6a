#include "podcrawl/core/ascii.hpp"
#include "podcrawl/html/escape.hpp"
#include "template_internal.hpp"

namespace podcrawl::render::internal {

void Data::set(std::string_view name, Data value) {
  if (m_type != type::object) {
    return;
  }
  for (auto& member : m_members) {
    if (member.first == name) {
      member.second = std::move(value);
      return;
    }
  }
  m_members.emplace_back(std::string(name), std::move(value));
}

void Data::push_back(Data value) {
  if (m_type == type::list) {
    m_items.push_back(std::move(value));
  }
}

const Data* Data::get(std::string_view name) const {
  if (m_type != type::object) {
    return nullptr;
  }
  for (const auto& member : m_members) {
    if (member.first == name) {
      return &member.second;
    }
  }
  return nullptr;
}

namespace {

using Node = Template::Node;
using Kind = Node::Kind;

// A tag's name in parts: "t.key" is {"t", "key"}, "." is {"."}; a trailing '.' ends no part.
std::vector<std::string> name_parts(std::string_view name) {
  if (name == "." || name.find('.') == std::string_view::npos) {
    return {std::string(name)};
  }
  std::vector<std::string> parts;
  while (!name.empty()) {
    const std::size_t dot = name.find('.');
    parts.emplace_back(name.substr(0, dot));
    name.remove_prefix(dot == std::string_view::npos ? name.size() : dot + 1);
  }
  return parts;
}

class Parser {
public:
  explicit Parser(std::string_view input) : m_input(input) {}

  // The nodes of the whole input; an error message when it is malformed.
  std::vector<Node> parse(std::string& error) {
    std::vector<Node> root;
    m_open.push_back(&root);
    std::size_t at = 0;
    while (at < m_input.size() && error.empty()) {
      if (m_input.compare(at, 2, "{{") == 0) {
        at = tag(at, error);
      } else if (m_input[at] == '\r' || m_input[at] == '\n') {
        const std::size_t length = m_input.compare(at, 2, "\r\n") == 0 ? 2 : 1;
        add({Kind::newline, std::string(m_input.substr(at, length)), {}, {}});
        at += length;
      } else {
        const std::size_t end = m_input.find_first_of("{\r\n", at + 1);
        const std::size_t stop = end == std::string_view::npos ? m_input.size() : end;
        add_text(m_input.substr(at, stop - at));
        at = stop;
      }
    }
    if (error.empty() && m_open.size() > 1) {
      error = "unclosed section \"" + m_open_names.back() + "\"";
    }
    return root;
  }

private:
  void add(Node node) { m_open.back()->push_back(std::move(node)); }

  void add_text(std::string_view text) {
    auto& nodes = *m_open.back();
    if (!nodes.empty() && nodes.back().kind == Kind::text) {
      nodes.back().text.append(text);
    } else {
      add({Kind::text, std::string(text), {}, {}});
    }
  }

  // The tag at `start` (which begins "{{"); returns where the input goes on.
  std::size_t tag(std::size_t start, std::string& error) {
    std::size_t contents = start + 2;
    const bool triple = start != m_input.size() - 2 && m_input[contents] == '{';
    if (triple) {
      ++contents;
    }
    const std::string_view closing = triple ? "}}}" : "}}";
    const std::size_t end = m_input.find(closing, contents);
    if (end == std::string_view::npos) {
      error = "unclosed tag at " + std::to_string(start);
      return m_input.size();
    }
    const std::string_view body = core::trim(m_input.substr(contents, end - contents));
    const std::size_t next = end + closing.size();
    if (triple) {
      add({Kind::raw_variable, {}, name_parts(body), {}});
      return next;
    }
    const char sigil = body.empty() ? '\0' : body.front();
    const std::string_view name = core::trim(body.empty() ? body : body.substr(1));
    switch (sigil) {
      case '#':
      case '^':
        add({sigil == '#' ? Kind::section : Kind::inverted, {}, name_parts(name), {}});
        m_open.push_back(&m_open.back()->back().children);
        m_open_names.emplace_back(name);
        break;
      case '/':
        if (m_open.size() == 1 || m_open_names.back() != name) {
          error = "section end \"" + std::string(name) + "\" at " + std::to_string(start) +
                  " closes no open section of that name";
        } else {
          m_open.pop_back();
          m_open_names.pop_back();
        }
        break;
      case '&':
        add({Kind::raw_variable, {}, name_parts(name), {}});
        break;
      case '!':
        break;
      case '>':
        error = "partial \"" + std::string(name) + "\" is not known";
        break;
      case '=':
        error = "delimiters cannot be changed";
        break;
      default:
        add({Kind::variable, {}, name_parts(body), {}});
        break;
    }
    return next;
  }

  std::string_view m_input;
  std::vector<std::vector<Node>*> m_open; // the root, then each open section's children
  std::vector<std::string> m_open_names;
};

class Expander {
public:
  Expander(const std::vector<const Data*>& stack, std::size_t size_hint) : m_stack(stack) {
    m_out.reserve(size_hint + size_hint / 8);
  }

  std::string run(const std::vector<Node>& nodes) {
    walk(nodes);
    end_line(nullptr);
    return std::move(m_out);
  }

private:
  const Data* find(const std::vector<std::string>& names) const {
    if (names.size() == 1 && names.front() == ".") {
      return m_stack.back();
    }
    for (auto item = m_stack.rbegin(); item != m_stack.rend(); ++item) {
      const Data* value = *item;
      for (const auto& name : names) {
        value = value->get(name);
        if (value == nullptr) {
          break;
        }
      }
      if (value != nullptr) {
        return value;
      }
    }
    return nullptr;
  }

  // A line that held a section tag and holds nothing but spaces and tabs is left out, its
  // newline too.
  void end_line(const Node* newline) {
    const bool blank =
        m_out.find_first_not_of(" \t", m_line_start) == std::string::npos && m_section_on_line;
    if (blank) {
      m_out.resize(m_line_start);
    } else if (newline != nullptr) {
      m_out += newline->text;
    }
    m_line_start = m_out.size();
    m_section_on_line = false;
  }

  void section(const Node& node, const Data* value) {
    const auto body = [&] {
      m_section_on_line = true;
      walk(node.children);
      m_section_on_line = true;
    };
    if (value != nullptr && value->is_list() && !value->items().empty()) {
      for (const auto& item : value->items()) {
        m_stack.push_back(&item);
        body();
        m_stack.pop_back();
      }
    } else if (value != nullptr) {
      m_stack.push_back(value);
      body();
      m_stack.pop_back();
    } else {
      body();
    }
  }

  void walk(const std::vector<Node>& nodes) {
    for (const auto& node : nodes) {
      switch (node.kind) {
        case Kind::text:
          m_out += node.text;
          break;
        case Kind::newline:
          end_line(&node);
          break;
        case Kind::variable:
        case Kind::raw_variable:
          if (const Data* value = find(node.names); value != nullptr && value->is_string()) {
            if (node.kind == Kind::variable) {
              html::append_escaped(m_out, value->text(), html::k_escape_xml);
            } else {
              m_out += value->text();
            }
          }
          break;
        case Kind::section:
          if (const Data* value = find(node.names);
              value != nullptr && !value->is_false() && !value->is_empty_list()) {
            section(node, value);
          }
          break;
        case Kind::inverted:
          if (const Data* value = find(node.names);
              value == nullptr || value->is_false() || value->is_empty_list()) {
            section(node, value);
          }
          break;
      }
    }
  }

  std::vector<const Data*> m_stack;
  std::string m_out;
  std::size_t m_line_start = 0;
  bool m_section_on_line = false;
};

} // namespace

Template::Template(std::string_view text) {
  m_nodes = Parser(text).parse(m_error);
}

Template::Template(Template&& other) noexcept
    : m_nodes(std::move(other.m_nodes)),
      m_error(std::move(other.m_error)),
      m_size_hint(other.m_size_hint.load(std::memory_order_relaxed)) {}

Template& Template::operator=(Template&& other) noexcept {
  m_nodes = std::move(other.m_nodes);
  m_error = std::move(other.m_error);
  m_size_hint.store(other.m_size_hint.load(std::memory_order_relaxed), std::memory_order_relaxed);
  return *this;
}

std::string Template::render(const std::vector<const Data*>& stack) const {
  if (!is_valid() || stack.empty()) {
    return {};
  }
  std::string page = Expander(stack, m_size_hint.load(std::memory_order_relaxed)).run(m_nodes);
  m_size_hint.store(page.size(), std::memory_order_relaxed);
  return page;
}

} // namespace podcrawl::render::internal

#include "json_writer.hpp"

#include <nlohmann/json.hpp>

#include "podcrawl/core/json_string.hpp"

namespace podcrawl::render::internal {

JsonWriter& JsonWriter::key(std::string_view name) {
  Open& object = m_open.back();
  if (!object.empty) {
    m_out += ',';
  }
  object.empty = false;
  new_line();
  append_string(name);
  m_out += m_pretty ? ": " : ":";
  m_after_key = true;
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view text) {
  before_value();
  append_string(text);
  return *this;
}

JsonWriter& JsonWriter::value(std::int64_t number) {
  before_value();
  m_out += std::to_string(number);
  return *this;
}

JsonWriter& JsonWriter::value(std::size_t number) {
  before_value();
  m_out += std::to_string(number);
  return *this;
}

JsonWriter& JsonWriter::value(bool truth) {
  before_value();
  m_out += truth ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::null() {
  before_value();
  m_out += "null";
  return *this;
}

JsonWriter& JsonWriter::open(char bracket) {
  before_value();
  m_out += bracket;
  m_open.push_back({bracket == '{' ? '}' : ']'});
  return *this;
}

JsonWriter& JsonWriter::close(char bracket) {
  const bool empty = m_open.back().empty;
  m_open.pop_back();
  if (!empty) {
    new_line();
  }
  m_out += bracket;
  return *this;
}

void JsonWriter::before_value() {
  if (m_after_key) {
    m_after_key = false;
    return;
  }
  if (m_open.empty()) {
    return;
  }
  Open& array = m_open.back();
  if (!array.empty) {
    m_out += ',';
  }
  array.empty = false;
  new_line();
}

void JsonWriter::new_line() {
  if (m_pretty) {
    m_out += '\n';
    m_out.append(4 * m_open.size(), ' ');
  }
}

void JsonWriter::append_string(std::string_view text) {
  const std::size_t start = m_out.size();
  m_out += '"';
  if (!core::append_json_escaped(m_out, text, core::k_json_short_escapes)) {
    // Ill-formed UTF-8 (stored text never is): as dump writes it.
    m_out.resize(start);
    m_out += nlohmann::ordered_json(std::string(text))
                 .dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    return;
  }
  m_out += '"';
}

} // namespace podcrawl::render::internal

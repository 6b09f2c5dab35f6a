#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// JSON written as it is made, without a tree of it: the APIs' answers hold thousands of values,
// and building an nlohmann tree of them cost more than the database's reading of them.
namespace podcrawl::render::internal {

// Writes what nlohmann::ordered_json::dump writes of the same values, byte for byte: compact, or
// indented by 4 when `pretty`; an empty object or array as {} or []; text with '"', '\' and the
// control characters escaped (\b \t \n \f \r by their letter, the others as \u00xx), every other
// character as it is, and ill-formed UTF-8 replaced by U+FFFD as dump's error_handler_t::replace
// does. The caller writes a key before each member's value and closes what it opens.
class JsonWriter {
public:
  explicit JsonWriter(bool pretty) : m_pretty(pretty) {}

  JsonWriter& begin_object() { return open('{'); }
  JsonWriter& end_object() { return close('}'); }
  JsonWriter& begin_array() { return open('['); }
  JsonWriter& end_array() { return close(']'); }
  // The key of the next member of the object open.
  JsonWriter& key(std::string_view name);

  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(const std::string& text) { return value(std::string_view(text)); }
  JsonWriter& value(std::int64_t number);
  JsonWriter& value(int number) { return value(static_cast<std::int64_t>(number)); }
  JsonWriter& value(std::uint32_t number) { return value(static_cast<std::int64_t>(number)); }
  JsonWriter& value(std::size_t number);
  JsonWriter& value(bool truth);
  // The number, or null.
  JsonWriter& value(const std::optional<std::int64_t>& number) {
    return number ? value(*number) : null();
  }
  JsonWriter& null();

  // What was written; the writer is empty after.
  std::string take() { return std::move(m_out); }

private:
  struct Open {
    char close;
    bool empty = true;
  };
  JsonWriter& open(char bracket);
  JsonWriter& close(char bracket);
  // Before a value: the separator and indentation an array's element takes (a member's come
  // with its key).
  void before_value();
  void new_line();
  void append_string(std::string_view text);

  bool m_pretty;
  bool m_after_key = false;
  std::vector<Open> m_open;
  std::string m_out;
};

} // namespace podcrawl::render::internal

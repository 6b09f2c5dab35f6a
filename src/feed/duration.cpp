#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "duration_internal.hpp"
#include "text_internal.hpp"

namespace podcrawl::feed::internal {
namespace {

// Longest duration text considered, in bytes.
constexpr std::size_t k_max_duration_text = 64;

struct Unit {
  std::string_view name;
  double seconds;
};

constexpr std::array<Unit, 17> k_units = {{
    {"d", 86400},
    {"day", 86400},
    {"days", 86400},
    {"h", 3600},
    {"hr", 3600},
    {"hrs", 3600},
    {"hour", 3600},
    {"hours", 3600},
    {"m", 60},
    {"min", 60},
    {"mins", 60},
    {"minute", 60},
    {"minutes", 60},
    {"s", 1},
    {"sec", 1},
    {"secs", 1},
    {"seconds", 1},
}};

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// Reads an unsigned decimal number ("12", "12.5") at the front of text and removes it.
std::optional<double> take_number(std::string_view& text) {
  std::size_t end = 0;
  while (end < text.size() && is_digit(text[end])) {
    ++end;
  }
  if (end == 0 || end > 12) {
    return std::nullopt;
  }
  std::size_t whole = end;
  if (end < text.size() && (text[end] == '.' || text[end] == ',')) {
    std::size_t fraction = end + 1;
    while (fraction < text.size() && is_digit(text[fraction]) && fraction - end < 10) {
      ++fraction;
    }
    end = fraction;
  }
  std::string number(text.substr(0, end));
  if (end > whole) {
    number[whole] = '.';
  }
  text.remove_prefix(end);
  return std::stod(number);
}

std::optional<std::int64_t> bounded(double seconds) {
  if (!(seconds >= 0) || seconds > static_cast<double>(k_max_duration_seconds)) {
    return std::nullopt;
  }
  return static_cast<std::int64_t>(std::llround(seconds));
}

// "32:48", "1:02:03", "1:02:03.5".
std::optional<std::int64_t> parse_clock(std::string_view text) {
  std::vector<double> fields;
  while (true) {
    auto number = take_number(text);
    if (!number) {
      return std::nullopt;
    }
    fields.push_back(*number);
    if (text.empty()) {
      break;
    }
    if (text[0] != ':' || fields.size() == 3) {
      return std::nullopt;
    }
    text.remove_prefix(1);
  }
  if (fields.size() < 2 || fields.back() >= 60 || (fields.size() == 3 && fields[1] >= 60)) {
    return std::nullopt;
  }
  double seconds = 0;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i + 1 < fields.size() && fields[i] != std::floor(fields[i])) {
      return std::nullopt;
    }
    seconds = seconds * 60 + fields[i];
  }
  return bounded(seconds);
}

// "1h 2m 3s", "90 min", and the ISO 8601 body after "p" ("t1h2m3s", "1dt2h").
std::optional<std::int64_t> parse_units(std::string_view text, bool iso) {
  double seconds = 0;
  bool any = false;
  bool in_time = !iso;
  while (true) {
    text = trim(text);
    if (iso && text.starts_with('t')) {
      in_time = true;
      text.remove_prefix(1);
    }
    if (text.empty()) {
      break;
    }
    auto number = take_number(text);
    if (!number) {
      return std::nullopt;
    }
    text = trim(text);
    std::size_t letters = 0;
    while (letters < text.size() && text[letters] >= 'a' && text[letters] <= 'z' &&
           !(iso && letters > 0)) {
      ++letters;
    }
    std::string_view name = text.substr(0, letters);
    text.remove_prefix(letters);
    if (iso && name == "m" && !in_time) {
      return std::nullopt; // months are not a duration an episode can have
    }
    const Unit* unit = nullptr;
    for (const Unit& candidate : k_units) {
      unit = candidate.name == name ? &candidate : unit;
    }
    if (unit == nullptr || (iso && unit->seconds < 86400 && !in_time)) {
      return std::nullopt;
    }
    seconds += *number * unit->seconds;
    any = true;
  }
  return any ? bounded(seconds) : std::nullopt;
}

} // namespace

std::optional<std::int64_t> parse_duration(std::string_view text) {
  std::string lowered = ascii_lower(trim(text));
  std::string_view value = lowered;
  if (value.empty() || value.size() > k_max_duration_text) {
    return std::nullopt;
  }
  if (value.starts_with('p')) {
    return parse_units(value.substr(1), true);
  }
  if (value.find(':') != std::string_view::npos) {
    return parse_clock(value);
  }
  std::string_view rest = value;
  if (auto number = take_number(rest); number && rest.empty()) {
    return bounded(*number);
  }
  return parse_units(value, false);
}

} // namespace podcrawl::feed::internal

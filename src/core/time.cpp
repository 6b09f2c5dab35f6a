#include "podcrawl/core/time.hpp"

#include <cctype>
#include <chrono>
#include <cstdlib>
#include <ctime>

#include "podcrawl/core/error.hpp"

namespace podcrawl::core {

namespace {

// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's algorithm).
std::int64_t days_from_civil(std::int64_t year, unsigned month, unsigned day) {
  year -= month <= 2 ? 1 : 0;
  const std::int64_t era = (year >= 0 ? year : year - 399) / 400;
  const auto year_of_era = static_cast<unsigned>(year - era * 400);
  const unsigned day_of_year = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
  const unsigned day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + static_cast<std::int64_t>(day_of_era) - 719468;
}

// Reads exactly `width` digits at text[pos]; advances pos.
std::optional<int> read_digits(std::string_view text, std::size_t& pos, std::size_t width) {
  if (pos + width > text.size()) {
    return std::nullopt;
  }
  int value = 0;
  for (std::size_t i = 0; i < width; ++i) {
    const char c = text[pos + i];
    if (!std::isdigit(static_cast<unsigned char>(c))) {
      return std::nullopt;
    }
    value = value * 10 + (c - '0');
  }
  pos += width;
  return value;
}

bool consume(std::string_view text, std::size_t& pos, char expected) {
  if (pos < text.size() && text[pos] == expected) {
    ++pos;
    return true;
  }
  return false;
}

// Parses "[T ]hh:mm[:ss[.fff]]" at pos into seconds of the day.
std::optional<std::int64_t> read_time_of_day(std::string_view text, std::size_t& pos) {
  const auto hour = read_digits(text, pos, 2);
  if (!hour || !consume(text, pos, ':')) {
    return std::nullopt;
  }
  const auto minute = read_digits(text, pos, 2);
  if (!minute) {
    return std::nullopt;
  }
  int second = 0;
  if (consume(text, pos, ':')) {
    const auto s = read_digits(text, pos, 2);
    if (!s) {
      return std::nullopt;
    }
    second = *s;
    if (consume(text, pos, '.') || consume(text, pos, ',')) {
      while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) {
        ++pos;
      }
    }
  }
  if (*hour > 24 || *minute > 59 || second > 60) {
    return std::nullopt;
  }
  return std::int64_t{*hour} * 3600 + *minute * 60 + second;
}

// Parses "Z", "+hh:mm", "+hhmm", "+hh" at pos into an offset east of UTC, in seconds.
std::optional<std::int64_t> read_offset(std::string_view text, std::size_t& pos) {
  if (consume(text, pos, 'Z') || consume(text, pos, 'z')) {
    return 0;
  }
  if (pos >= text.size() || (text[pos] != '+' && text[pos] != '-')) {
    return std::nullopt;
  }
  const int sign = text[pos++] == '-' ? -1 : 1;
  const auto hours = read_digits(text, pos, 2);
  if (!hours) {
    return std::nullopt;
  }
  consume(text, pos, ':');
  int minutes = 0;
  if (pos < text.size()) {
    const auto m = read_digits(text, pos, 2);
    if (!m) {
      return std::nullopt;
    }
    minutes = *m;
  }
  return sign * (std::int64_t{*hours} * 3600 + minutes * 60);
}

} // namespace

UnixSeconds now() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string format_iso8601(UnixSeconds t) {
  const std::time_t time = static_cast<std::time_t>(t);
  std::tm parts{};
  gmtime_r(&time, &parts);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &parts);
  return buffer;
}

std::optional<UnixSeconds> parse_iso8601(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  std::size_t pos = 0;
  const auto year = read_digits(text, pos, 4);
  if (!year || !consume(text, pos, '-')) {
    return std::nullopt;
  }
  const auto month = read_digits(text, pos, 2);
  if (!month || !consume(text, pos, '-')) {
    return std::nullopt;
  }
  const auto day = read_digits(text, pos, 2);
  if (!day || *month < 1 || *month > 12 || *day < 1 || *day > 31) {
    return std::nullopt;
  }
  std::int64_t result =
      days_from_civil(*year, static_cast<unsigned>(*month), static_cast<unsigned>(*day)) * 86400;
  if (pos == text.size()) {
    return result;
  }
  if (text[pos] != 'T' && text[pos] != 't' && text[pos] != ' ') {
    return std::nullopt;
  }
  ++pos;
  const auto seconds = read_time_of_day(text, pos);
  if (!seconds) {
    return std::nullopt;
  }
  result += *seconds;
  if (pos == text.size()) {
    return result; // no zone: taken as UTC
  }
  const auto offset = read_offset(text, pos);
  if (!offset || pos != text.size()) {
    return std::nullopt;
  }
  return result - *offset;
}

UnixSeconds resolve_render_time(const std::optional<std::string>& now_option) {
  if (now_option) {
    const auto parsed = parse_iso8601(*now_option);
    if (!parsed) {
      throw UsageError("--now: not an ISO 8601 time: " + *now_option);
    }
    return *parsed;
  }
  if (const char* epoch = std::getenv("SOURCE_DATE_EPOCH"); epoch != nullptr && *epoch != '\0') {
    char* end = nullptr;
    const long long value = std::strtoll(epoch, &end, 10);
    if (end == nullptr || *end != '\0') {
      throw UsageError(std::string("SOURCE_DATE_EPOCH: not an integer: ") + epoch);
    }
    return value;
  }
  return now();
}

} // namespace podcrawl::core

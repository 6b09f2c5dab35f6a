#include "podcrawl/http/conditional.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>

#include "podcrawl/core/ascii.hpp"
#include "podcrawl/core/hash.hpp"

namespace podcrawl::http {

namespace {

using std::chrono::days;
using std::chrono::sys_days;

constexpr std::int64_t k_earliest_date = 0;          // 1970-01-01T00:00:00Z
constexpr std::int64_t k_latest_date = 253402300799; // 9999-12-31T23:59:59Z
constexpr int k_two_digit_year_pivot = 70;           // RFC 850 "94" is 1994, "05" is 2005

constexpr std::array<std::string_view, 7> k_short_days = {"Sun", "Mon", "Tue", "Wed",
                                                          "Thu", "Fri", "Sat"};
constexpr std::array<std::string_view, 7> k_long_days = {
    "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};
constexpr std::array<std::string_view, 12> k_months = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                       "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

// The three forms of RFC 9110 section 5.6.7, one letter a field: w short weekday, W long
// weekday, D two-digit day, d day padded with a space, b month name, Y four-digit year, y
// two-digit year, h m s two-digit time; any other character stands for itself.
constexpr std::array<std::string_view, 3> k_date_forms = {
    "w, D b Y h:m:s GMT", // IMF-fixdate
    "W, D-b-y h:m:s GMT", // RFC 850
    "w b d h:m:s Y",      // asctime
};

struct DateFields {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
};

// Read `count` digits at the front of text into value; false when they are not there.
bool take_digits(std::string_view& text, std::size_t count, int& value) {
  if (text.size() < count) {
    return false;
  }
  value = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if (text[i] < '0' || text[i] > '9') {
      return false;
    }
    value = value * 10 + (text[i] - '0');
  }
  text.remove_prefix(count);
  return true;
}

// Read one of names at the front of text; its index, or -1.
template <std::size_t N>
int take_name(std::string_view& text, const std::array<std::string_view, N>& names) {
  for (std::size_t i = 0; i < N; ++i) {
    if (text.substr(0, names[i].size()) == names[i]) {
      text.remove_prefix(names[i].size());
      return static_cast<int>(i);
    }
  }
  return -1;
}

bool take_field(char field, std::string_view& text, DateFields& date) {
  switch (field) {
    case 'w':
      return take_name(text, k_short_days) >= 0;
    case 'W':
      return take_name(text, k_long_days) >= 0;
    case 'b':
      date.month = take_name(text, k_months) + 1;
      return date.month > 0;
    case 'D':
      return take_digits(text, 2, date.day);
    case 'd':
      if (!text.empty() && text.front() == ' ') {
        text.remove_prefix(1);
        return take_digits(text, 1, date.day);
      }
      return take_digits(text, 2, date.day);
    case 'Y':
      return take_digits(text, 4, date.year);
    case 'y':
      if (!take_digits(text, 2, date.year)) {
        return false;
      }
      date.year += date.year < k_two_digit_year_pivot ? 2000 : 1900;
      return true;
    case 'h':
      return take_digits(text, 2, date.hour);
    case 'm':
      return take_digits(text, 2, date.minute);
    case 's':
      return take_digits(text, 2, date.second);
    default:
      if (text.empty() || text.front() != field) {
        return false;
      }
      text.remove_prefix(1);
      return true;
  }
}

std::optional<std::int64_t> parse_form(std::string_view form, std::string_view text) {
  DateFields date;
  for (const char field : form) {
    if (!take_field(field, text, date)) {
      return std::nullopt;
    }
  }
  const std::chrono::year_month_day civil{std::chrono::year(date.year),
                                          std::chrono::month(static_cast<unsigned>(date.month)),
                                          std::chrono::day(static_cast<unsigned>(date.day))};
  if (!text.empty() || !civil.ok() || date.hour > 23 || date.minute > 59 || date.second > 60) {
    return std::nullopt;
  }
  const std::int64_t day_number = sys_days(civil).time_since_epoch().count();
  return day_number * 86400 + date.hour * 3600 + date.minute * 60 + date.second;
}

// The opaque part of an entity tag: without "W/", quotes kept.
std::string_view opaque_tag(std::string_view etag) {
  return etag.substr(0, 2) == "W/" ? etag.substr(2) : etag;
}

bool is_list_space(char c) {
  return c == ' ' || c == '\t' || c == ',';
}

} // namespace

std::string strong_etag(std::string_view body) {
  char text[48];
  std::snprintf(text, sizeof text, "\"%016llx-%llx\"",
                static_cast<unsigned long long>(core::word_hash_64(body)),
                static_cast<unsigned long long>(body.size()));
  return text;
}

bool etag_matches(std::string_view if_none_match, std::string_view etag) {
  const std::string_view wanted = opaque_tag(etag);
  std::string_view rest = if_none_match;
  while (true) {
    while (!rest.empty() && is_list_space(rest.front())) {
      rest.remove_prefix(1);
    }
    if (rest.empty()) {
      return false;
    }
    if (rest.front() == '*') {
      return true;
    }
    rest = opaque_tag(rest);
    // etagc excludes '"', so the tag ends at the next quote, commas inside it included.
    const std::size_t close =
        rest.size() > 1 && rest.front() == '"' ? rest.find('"', 1) : std::string_view::npos;
    if (close == std::string_view::npos) {
      return false;
    }
    if (!wanted.empty() && rest.substr(0, close + 1) == wanted) {
      return true;
    }
    rest.remove_prefix(close + 1);
    if (!rest.empty() && !is_list_space(rest.front())) {
      return false;
    }
  }
}

std::string http_date(std::int64_t unix_seconds) {
  const std::int64_t seconds = std::clamp(unix_seconds, k_earliest_date, k_latest_date);
  const sys_days day_point{days(seconds / 86400)};
  const std::chrono::year_month_day civil{day_point};
  const std::chrono::weekday weekday{day_point};
  const std::int64_t in_day = seconds % 86400;
  char text[32];
  std::snprintf(text, sizeof text, "%s, %02u %s %04d %02d:%02d:%02d GMT",
                k_short_days[weekday.c_encoding()].data(), static_cast<unsigned>(civil.day()),
                k_months[static_cast<unsigned>(civil.month()) - 1].data(),
                static_cast<int>(civil.year()), static_cast<int>(in_day / 3600),
                static_cast<int>(in_day / 60 % 60), static_cast<int>(in_day % 60));
  return text;
}

std::optional<std::int64_t> parse_http_date(std::string_view text) {
  text = core::trim(text, core::k_http_space);
  for (const std::string_view form : k_date_forms) {
    if (auto parsed = parse_form(form, text)) {
      return parsed;
    }
  }
  return std::nullopt;
}

bool not_modified(const Request& request, std::string_view etag, std::int64_t last_modified) {
  if (request.method != "GET" && request.method != "HEAD") {
    return false;
  }
  const std::string if_none_match = request.header("If-None-Match");
  if (!if_none_match.empty()) {
    return etag_matches(if_none_match, etag);
  }
  const std::string if_modified_since = request.header("If-Modified-Since");
  if (if_modified_since.empty() || last_modified < 0) {
    return false;
  }
  const auto since = parse_http_date(if_modified_since);
  return since && last_modified <= *since;
}

} // namespace podcrawl::http

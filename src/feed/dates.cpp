#include <array>
#include <charconv>
#include <string>
#include <vector>

#include "dates_internal.hpp"
#include "text_internal.hpp"

namespace podcrawl::feed::internal {
namespace {

struct Replacement {
  std::string_view from;
  std::string_view to;
};

// Month and weekday names of languages whose feeds write them untranslated, rewritten to the
// English (or numeric, for ISO-shaped Hungarian dates) spelling before parsing. Korean
// markers turn into separators and am/pm.
constexpr std::array<Replacement, 42> k_localized_names = {{
    {"Κυρ", "sun"},     {"Δευ", "mon"},      {"Τρί", "tue"},       {"Τρι", "tue"},
    {"Τετ", "wed"},     {"Πέμ", "thu"},      {"Πεμ", "thu"},       {"Παρ", "fri"},
    {"Σάβ", "sat"},     {"Σαβ", "sat"},      {"Ιαν", "jan"},       {"Φεβ", "feb"},
    {"Μάώ", "mar"},     {"Μαώ", "mar"},      {"Μάρ", "mar"},       {"Απρ", "apr"},
    {"Μάι", "may"},     {"Μαϊ", "may"},      {"Μαι", "may"},       {"Ιούν", "jun"},
    {"Ιον", "jun"},     {"Ιούλ", "jul"},     {"Ιολ", "jul"},       {"Αύγ", "aug"},
    {"Αυγ", "aug"},     {"Σεπ", "sep"},      {"Οκτ", "oct"},       {"Νοέ", "nov"},
    {"Νοε", "nov"},     {"Δεκ", "dec"},      {"január", "01"},     {"február", "02"},
    {"március", "03"},  {"április", "04"},   {"május", "05"},      {"június", "06"},
    {"július", "07"},   {"augusztus", "08"}, {"szeptember", "09"}, {"október", "10"},
    {"november", "11"}, {"december", "12"},
}};
// Korean dates carry no zone and mean Korea Standard Time.
constexpr std::array<Replacement, 7> k_korean_markers = {{
    {"년 ", "-"},
    {"년", "-"},
    {"월 ", "-"},
    {"월", "-"},
    {"일", ""},
    {"오전", " am "},
    {"오후", " pm "},
}};
constexpr std::int64_t k_korea_offset_seconds = 9 * 3600;

struct NamedZone {
  std::string_view name;
  std::int64_t offset_minutes;
};

constexpr std::array<NamedZone, 52> k_zones = {{
    {"ut", 0},      {"utc", 0},     {"gmt", 0},    {"z", 0},      {"uct", 0},    {"wet", 0},
    {"etc/gmt", 0}, {"etc/utc", 0}, {"bst", 60},   {"cet", 60},   {"met", 60},   {"mez", 60},
    {"west", 60},   {"cest", 120},  {"mest", 120}, {"mesz", 120}, {"eet", 120},  {"sast", 120},
    {"eest", 180},  {"msk", 180},   {"ist", 330},  {"ict", 420},  {"wib", 420},  {"hkt", 480},
    {"sgt", 480},   {"awst", 480},  {"pht", 480},  {"jst", 540},  {"kst", 540},  {"acst", 570},
    {"aest", 600},  {"aedt", 660},  {"nzst", 720}, {"nzdt", 780}, {"nst", -210}, {"ndt", -150},
    {"adt", -180},  {"ast", -240},  {"at", -240},  {"edt", -240}, {"est", -300}, {"et", -300},
    {"cdt", -300},  {"cst", -360},  {"ct", -360},  {"mdt", -360}, {"mst", -420}, {"mt", -420},
    {"pdt", -420},  {"pst", -480},  {"pt", -480},  {"hst", -600},
}};

constexpr std::array<std::string_view, 12> k_months = {"jan", "feb", "mar", "apr", "may", "jun",
                                                       "jul", "aug", "sep", "oct", "nov", "dec"};
constexpr std::array<std::string_view, 12> k_full_months = {
    "january", "february", "march",     "april",   "may",      "june",
    "july",    "august",   "september", "october", "november", "december"};
constexpr std::array<std::string_view, 7> k_weekdays = {"mon", "tue", "wed", "thu",
                                                        "fri", "sat", "sun"};
constexpr std::array<std::string_view, 7> k_full_weekdays = {
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"};

struct ForeignMonth {
  std::string_view name;
  int month;
};

// Month abbreviations of Portuguese, Spanish, German, French, Italian and Dutch feeds, matched
// as whole tokens after the English names.
constexpr std::array<ForeignMonth, 30> k_foreign_months = {{
    {"fev", 2},  {"abr", 4},  {"mai", 5},  {"ago", 8},  {"set", 9}, {"out", 10},
    {"dez", 12}, {"ene", 1},  {"dic", 12}, {"mär", 3},  {"mrz", 3}, {"okt", 10},
    {"janv", 1}, {"févr", 2}, {"fevr", 2}, {"mars", 3}, {"avr", 4}, {"juin", 6},
    {"juil", 7}, {"août", 8}, {"aout", 8}, {"déc", 12}, {"gen", 1}, {"mag", 5},
    {"giu", 6},  {"lug", 7},  {"ott", 10}, {"mrt", 3},  {"mei", 5}, {"fév", 2},
}};

// Weekday abbreviations of the same languages; a weekday is checked by nothing, only skipped.
// "mar" (Tuesday in three of them) is left out: it is March in English.
constexpr std::array<std::string_view, 29> k_foreign_weekdays = {
    "seg", "ter", "qua", "qui", "sex", "sáb", "sab", "dom", "lun", "mié",
    "mie", "jue", "vie", "mo",  "di",  "mi",  "do",  "fr",  "sa",  "so",
    "mer", "jeu", "ven", "sam", "dim", "gio", "ma",  "wo",  "vr",
};

struct DateParts {
  int year = -1;
  int month = -1;
  int day = -1;
  int hour = 0;
  int minute = 0;
  int second = 0;
  std::optional<std::int64_t> offset_seconds;
  bool pm = false;
  bool am = false;
};

std::optional<int> to_int(std::string_view digits) {
  int value = 0;
  if (digits.empty() || digits.size() > 9) {
    return std::nullopt;
  }
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (error != std::errc() || end != digits.data() + digits.size()) {
    return std::nullopt;
  }
  return value;
}

bool all_digits(std::string_view text) {
  return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
}

int expand_two_digit_year(int year) {
  return year < 50 ? 2000 + year : 1900 + year;
}

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
std::int64_t days_from_civil(std::int64_t year, int month, int day) {
  year -= month <= 2 ? 1 : 0;
  std::int64_t era = (year >= 0 ? year : year - 399) / 400;
  std::int64_t year_of_era = year - era * 400;
  std::int64_t day_of_year = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  std::int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + day_of_era - 719468;
}

bool is_leap(int year) {
  return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

int days_in_month(int year, int month) {
  constexpr std::array<int, 12> k_days = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && is_leap(year) ? 29 : k_days[static_cast<std::size_t>(month - 1)];
}

std::optional<std::int64_t> to_unix(DateParts parts, std::int64_t default_offset) {
  if (parts.pm && parts.hour < 12) {
    parts.hour += 12;
  } else if (parts.am && parts.hour == 12) {
    parts.hour = 0;
  }
  if (parts.year < 1 || parts.year > 9999 || parts.month < 1 || parts.month > 12 || parts.day < 1 ||
      parts.day > days_in_month(parts.year, parts.month) || parts.hour < 0 || parts.hour > 24 ||
      parts.minute < 0 || parts.minute > 59 || parts.second < 0 || parts.second > 60 ||
      (parts.hour == 24 && (parts.minute != 0 || parts.second != 0))) {
    return std::nullopt;
  }
  std::int64_t seconds = days_from_civil(parts.year, parts.month, parts.day) * 86400 +
                         parts.hour * 3600 + parts.minute * 60 + std::min(parts.second, 59);
  return seconds - parts.offset_seconds.value_or(default_offset);
}

std::string replace_all(std::string text, std::string_view from, std::string_view to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at)) {
    text.replace(at, from.size(), to);
    at += to.size();
  }
  return text;
}

// A numeric zone offset: "+0200", "-05:00", "+02", "-0:30"; nullopt when malformed.
std::optional<std::int64_t> parse_offset(std::string_view text) {
  if (text.empty() || (text[0] != '+' && text[0] != '-')) {
    return std::nullopt;
  }
  int sign = text[0] == '-' ? -1 : 1;
  std::string digits;
  for (char c : text.substr(1)) {
    if (c != ':') {
      digits.push_back(c);
    }
  }
  if (!all_digits(digits) || digits.size() > 4) {
    return std::nullopt;
  }
  int hours = 0;
  int minutes = 0;
  if (digits.size() <= 2) {
    hours = *to_int(digits);
  } else {
    hours = *to_int(std::string_view(digits).substr(0, digits.size() - 2));
    minutes = *to_int(std::string_view(digits).substr(digits.size() - 2));
  }
  if (hours > 14 || minutes > 59) {
    return std::nullopt;
  }
  return sign * (hours * 3600 + minutes * 60);
}

// A zone written after the time: "z", "+05:00", "-0800", or empty (then unset).
bool parse_zone(std::string_view text, DateParts& parts) {
  text = trim(text);
  if (text.empty()) {
    return true;
  }
  if (text == "z") {
    parts.offset_seconds = 0;
    return true;
  }
  parts.offset_seconds = parse_offset(text);
  return parts.offset_seconds.has_value();
}

// "10:14:55.1234", "9:15", "101455": fills hour, minute, second; returns what follows.
std::optional<std::string_view> parse_clock(std::string_view text, DateParts& parts) {
  std::size_t end = text.find_first_not_of("0123456789:.,");
  std::string_view clock = text.substr(0, end);
  std::string_view rest = end == std::string_view::npos ? std::string_view() : text.substr(end);
  std::string_view whole = clock.substr(0, clock.find_first_of(".,"));
  std::vector<std::string_view> fields;
  if (whole.find(':') != std::string_view::npos) {
    std::size_t start = 0;
    while (true) {
      std::size_t colon = whole.find(':', start);
      fields.push_back(whole.substr(start, colon - start));
      if (colon == std::string_view::npos) {
        break;
      }
      start = colon + 1;
    }
  } else if (whole.size() == 2 || whole.size() == 4 || whole.size() == 6) {
    for (std::size_t i = 0; i < whole.size(); i += 2) {
      fields.push_back(whole.substr(i, 2));
    }
  }
  if (fields.empty() || fields.size() > 3) {
    return std::nullopt;
  }
  std::array<int*, 3> targets = {&parts.hour, &parts.minute, &parts.second};
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (!all_digits(fields[i]) || fields[i].size() > 2) {
      return std::nullopt;
    }
    *targets[i] = *to_int(fields[i]);
  }
  return rest;
}

// The date part of an ISO 8601 timestamp: extended ("2003-12-31", "2003-12", "2003-335"),
// basic ("20031231", "2003335"), and the truncated two-digit-year forms ("031231", "03-12-31",
// "03335", "-0312", "-03-12").
bool parse_iso_date(std::string_view text, DateParts& parts) {
  bool truncated = text.starts_with('-');
  if (truncated) {
    text.remove_prefix(1);
  }
  std::vector<std::string_view> fields;
  if (text.find('-') != std::string_view::npos) {
    std::size_t start = 0;
    while (true) {
      std::size_t dash = text.find('-', start);
      fields.push_back(text.substr(start, dash - start));
      if (dash == std::string_view::npos) {
        break;
      }
      start = dash + 1;
    }
  } else if (truncated && text.size() == 4) {
    fields = {text.substr(0, 2), text.substr(2, 2)};
  } else if (text.size() == 8 || text.size() == 6) {
    std::size_t year_length = text.size() - 4;
    fields = {text.substr(0, year_length), text.substr(year_length, 2),
              text.substr(year_length + 2)};
  } else if (text.size() == 7 || text.size() == 5) {
    fields = {text.substr(0, text.size() - 3), text.substr(text.size() - 3)};
  } else {
    fields = {text};
  }
  if (fields.size() > 3) {
    return false;
  }
  for (std::string_view field : fields) {
    if (!all_digits(field)) {
      return false;
    }
  }
  if (fields[0].size() != 4 && fields[0].size() != 2) {
    return false;
  }
  parts.year = *to_int(fields[0]);
  if (fields[0].size() == 2) {
    parts.year = expand_two_digit_year(parts.year);
  }
  parts.month = 1;
  parts.day = 1;
  if (fields.size() == 2 && fields[1].size() == 3 && !truncated) {
    int ordinal = *to_int(fields[1]);
    if (ordinal < 1 || ordinal > (is_leap(parts.year) ? 366 : 365)) {
      return false;
    }
    for (parts.month = 1; ordinal > days_in_month(parts.year, parts.month); ++parts.month) {
      ordinal -= days_in_month(parts.year, parts.month);
    }
    parts.day = ordinal;
    return true;
  }
  if (fields.size() >= 2) {
    if (fields[1].size() > 3) {
      return false;
    }
    parts.month = *to_int(fields[1]);
  }
  if (fields.size() == 3) {
    if (fields[2].size() > 2) {
      return false;
    }
    parts.day = *to_int(fields[2]);
  }
  return true;
}

std::optional<std::int64_t> parse_iso(std::string_view text, std::int64_t default_offset) {
  DateParts parts;
  std::size_t split = text.find_first_of("t ");
  if (!parse_iso_date(text.substr(0, split), parts)) {
    return std::nullopt;
  }
  if (split != std::string_view::npos) {
    std::string_view time = trim(text.substr(split + 1));
    auto rest = parse_clock(time, parts);
    if (!rest || !parse_zone(*rest, parts)) {
      return std::nullopt;
    }
  }
  return to_unix(parts, default_offset);
}

template <std::size_t N>
std::optional<int> index_of(const std::array<std::string_view, N>& names, std::string_view word) {
  for (std::size_t i = 0; i < N; ++i) {
    if (names[i] == word) {
      return static_cast<int>(i);
    }
  }
  return std::nullopt;
}

std::optional<int> month_of(std::string_view word) {
  if (word == "sept") {
    return 9;
  }
  if (auto month = index_of(k_months, word)) {
    return *month + 1;
  }
  if (auto month = index_of(k_full_months, word)) {
    return *month + 1;
  }
  for (const ForeignMonth& foreign : k_foreign_months) {
    if (foreign.name == word) {
      return foreign.month;
    }
  }
  return std::nullopt;
}

std::optional<std::int64_t> zone_of(std::string_view word) {
  for (const NamedZone& zone : k_zones) {
    if (zone.name == word) {
      return zone.offset_minutes * 60;
    }
    // "gmt+01:00", "utc-5"
    if (word.size() > zone.name.size() && word.starts_with(zone.name) && zone.name.size() >= 2 &&
        (word[zone.name.size()] == '+' || word[zone.name.size()] == '-')) {
      if (auto offset = parse_offset(word.substr(zone.name.size()))) {
        return zone.offset_minutes * 60 + *offset;
      }
    }
  }
  return std::nullopt;
}

bool assign_number(std::string_view token, DateParts& parts) {
  int value = *to_int(token);
  if (token.size() >= 3 || value > 31) {
    if (parts.year >= 0) {
      return false;
    }
    parts.year = token.size() <= 2 ? expand_two_digit_year(value) : value;
  } else if (parts.day < 0) {
    parts.day = value;
  } else if (parts.year < 0) {
    parts.year = expand_two_digit_year(value);
  } else {
    return false;
  }
  return true;
}

bool assign_token(std::string_view token, DateParts& parts);

// "2006/09/15", "2004-05-25", "13-feb-2012".
bool assign_compound(std::string_view token, DateParts& parts) {
  char separator = token.find('/') != std::string_view::npos ? '/' : '-';
  std::vector<std::string_view> fields;
  for (std::size_t start = 0;;) {
    std::size_t at = token.find(separator, start);
    fields.push_back(token.substr(start, at - start));
    if (at == std::string_view::npos) {
      break;
    }
    start = at + 1;
  }
  if (fields.size() == 3 && fields[0].size() == 4 && all_digits(fields[0]) &&
      all_digits(fields[1]) && all_digits(fields[2]) && parts.year < 0) {
    parts.year = *to_int(fields[0]);
    parts.month = *to_int(fields[1]);
    parts.day = *to_int(fields[2]);
    return fields[1].size() <= 2 && fields[2].size() <= 2;
  }
  for (std::string_view field : fields) {
    if (field.empty() || !assign_token(field, parts)) {
      return false;
    }
  }
  return true;
}

bool assign_word(std::string_view token, DateParts& parts) {
  if (index_of(k_weekdays, token) || index_of(k_full_weekdays, token) ||
      index_of(k_foreign_weekdays, token)) {
    return true;
  }
  if (auto month = month_of(token)) {
    if (parts.month >= 0) {
      return false;
    }
    parts.month = *month;
    return true;
  }
  if (token == "am" || token == "pm") {
    (token == "am" ? parts.am : parts.pm) = true;
    return true;
  }
  if (auto offset = zone_of(token)) {
    parts.offset_seconds = offset;
    return true;
  }
  return false;
}

bool assign_token(std::string_view token, DateParts& parts) {
  while (token.ends_with('.')) {
    token.remove_suffix(1);
  }
  if (token.empty()) {
    return true;
  }
  if (all_digits(token)) {
    return assign_number(token, parts);
  }
  if (token.find(':') != std::string_view::npos && token[0] >= '0' && token[0] <= '9') {
    auto rest = parse_clock(token, parts);
    return rest && parse_zone(*rest, parts);
  }
  if (token[0] == '+' || token[0] == '-') {
    parts.offset_seconds = parse_offset(token);
    return parts.offset_seconds.has_value();
  }
  if ((token[0] >= 'a' && token[0] <= 'z') || static_cast<unsigned char>(token[0]) >= 0x80) {
    if (assign_word(token, parts)) {
      return true;
    }
  }
  if (token.find_first_of("/-") != std::string_view::npos) {
    return assign_compound(token, parts);
  }
  return false;
}

// The RFC 822 family and asctime: tokens in any order, classified by their shape.
std::optional<std::int64_t> parse_tokens(std::string_view text, std::int64_t default_offset) {
  DateParts parts;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find_first_of(" ,", start);
    std::string_view token = text.substr(start, end - start);
    if (!assign_token(token, parts)) {
      return std::nullopt;
    }
    if (end == std::string_view::npos) {
      break;
    }
    start = end + 1;
  }
  return to_unix(parts, default_offset);
}

} // namespace

std::optional<std::int64_t> parse_date(std::string_view text) {
  text = trim(text);
  if (text.empty() || text.size() > k_max_date_length) {
    return std::nullopt;
  }
  std::string normalized(text);
  for (const Replacement& name : k_localized_names) {
    normalized = replace_all(std::move(normalized), name.from, name.to);
  }
  std::int64_t default_offset = 0;
  for (const Replacement& marker : k_korean_markers) {
    if (normalized.find(marker.from) != std::string::npos) {
      default_offset = k_korea_offset_seconds;
      normalized = replace_all(std::move(normalized), marker.from, marker.to);
    }
  }
  normalized = ascii_lower(trim(normalized));
  if (auto iso = parse_iso(normalized, default_offset)) {
    return iso;
  }
  return parse_tokens(normalized, default_offset);
}

} // namespace podcrawl::feed::internal

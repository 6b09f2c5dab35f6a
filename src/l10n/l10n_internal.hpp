#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <unicode/unistr.h>
#include <unicode/ureldatefmt.h>

namespace podcrawl::l10n::internal {

// One config/locales/<tag>.toml, read and checked but not yet compiled.
struct Catalog {
  std::string tag;
  std::string native_name;
  bool right_to_left = false;
  std::string icu_locale; // BCP 47 with a pinned numbering system, e.g. "ar-u-nu-latn"
  std::map<std::string, std::string, std::less<>> messages;
};

// Load <locales_dir>/<tag>.toml. Throws core::UsageError for a malformed tag or a locale without a
// catalog, core::EnvironmentError for an unreadable or incomplete catalog (every key of en.toml
// must be present).
Catalog load_catalog(const std::filesystem::path& locales_dir, std::string_view tag);

// True for a locale tag that can name a catalog file: ASCII letters, digits and '-', bounded.
bool is_valid_tag(std::string_view tag);

icu::UnicodeString from_utf8(std::string_view text);
std::string to_utf8(const icu::UnicodeString& text);

inline constexpr std::int64_t k_minute = 60;
inline constexpr std::int64_t k_hour = 60 * k_minute;
inline constexpr std::int64_t k_day = 24 * k_hour;
inline constexpr std::int64_t k_week = 7 * k_day;
// Feed dates are hostile; anything beyond year 9999 either way is clamped.
inline constexpr std::int64_t k_max_abs_time = 253402300799;

// The unit and amount of a relative phrase for an interval of `seconds` >= 0 that holds `years`
// whole calendar years and, when years is 0, `months` whole months: years (>= 1), months (>= 2),
// weeks, days, hours, minutes. Amount 0 (under a minute) reads as the locale's "now".
std::pair<URelativeDateTimeUnit, std::int64_t> choose_unit(std::int64_t years, std::int64_t months,
                                                           std::int64_t seconds);

// The unit and amount of the phrase for an interval from earlier to later (earlier <= later), as
// ICU's GregorianCalendar in GMT counts its whole years and months (fieldDifference), by
// civil-date arithmetic; nullopt when earlier is before 1583, for ICU's calendar to count.
std::optional<std::pair<URelativeDateTimeUnit, std::int64_t>> relative_unit(std::int64_t earlier,
                                                                            std::int64_t later);

// The seconds in one week, day, hour or minute (the unit of any other phrase).
std::int64_t unit_seconds(URelativeDateTimeUnit unit);

inline constexpr std::int64_t k_never = INT64_MAX;

// The first time after `now` at which the relative phrase for `then` changes unit, amount or
// direction, computed by civil-date arithmetic on the calendar of Localizer::relative_time (ICU's
// GregorianCalendar in GMT: Julian before 1582-10-15, day of month pinned to the month's length
// when whole months or years are added); k_never when that time is past k_max_abs_time, where
// relative_time stops moving. nullopt for a future `then` with October 1582 between the two,
// which only ICU's calendar can follow. The caller clamps both times to k_max_abs_time. Pure
// integer arithmetic: no ICU, no lock.
std::optional<std::int64_t> next_relative_change(std::int64_t then, std::int64_t now);

} // namespace podcrawl::l10n::internal

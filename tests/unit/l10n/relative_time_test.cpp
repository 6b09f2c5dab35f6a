#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <unicode/gregocal.h>
#include <unicode/timezone.h>

#include "l10n_internal.hpp"
#include "podcrawl/core/config.hpp"
#include "podcrawl/l10n/localizer.hpp"

namespace podcrawl::l10n {
namespace {

const std::filesystem::path k_locales_dir =
    std::filesystem::path(podcrawl::core::source_dir()) / "config" / "locales";

constexpr std::int64_t k_minute = 60;
constexpr std::int64_t k_hour = 3600;
constexpr std::int64_t k_day = 86400;
constexpr std::int64_t k_year = 366 * k_day;
constexpr std::int64_t k_max_wait = 86400;
// relative_time clamps both times to the years -9999 to 9999 (the last second of 9999).
constexpr std::int64_t k_clamp = 253402300799;

// 2025-06-10T12:00:00Z, a Tuesday.
constexpr std::int64_t k_now = 1749556800;

// Seconds since the epoch of a proleptic Gregorian date and time (UTC).
constexpr std::int64_t utc(std::int64_t year, std::int64_t month, std::int64_t day,
                           std::int64_t hour = 0, std::int64_t minute = 0,
                           std::int64_t second = 0) {
  year -= month <= 2 ? 1 : 0;
  const std::int64_t era = (year >= 0 ? year : year - 399) / 400;
  const std::int64_t year_of_era = year - era * 400;
  const std::int64_t day_of_year = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
  const std::int64_t day_of_era =
      year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return (era * 146097 + day_of_era - 719468) * k_day + hour * k_hour + minute * k_minute + second;
}
static_assert(utc(2025, 6, 10, 12) == k_now);

constexpr std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  return a / b - (a % b != 0 && a < 0 ? 1 : 0);
}

// Checks relative_time_changes_at(then, now, max_wait) against relative_time itself: the phrase
// stays that of `now` until the answer and differs there, unless the answer is the cap. The scan
// takes every second of the first and last two minutes, every `step` seconds between (every 59
// while the answer is under 100 minutes away: no phrase in minutes, hours, days or weeks lasts
// less than a minute) and, as whole months and years are counted by calendar day and time of
// day, each midnight and each second at and after then's time of day, where a phrase in months
// or years can change even for a second. Returns the answer.
std::int64_t expect_exact(const Localizer& localizer, std::int64_t then, std::int64_t now,
                          std::int64_t max_wait = k_max_wait) {
  const std::int64_t answer = localizer.relative_time_changes_at(then, now, max_wait);
  const std::string context = localizer.tag() + " then " + std::to_string(then) + " now " +
                              std::to_string(now) + " answer " + std::to_string(answer);
  EXPECT_GT(answer, now) << context;
  EXPECT_LE(answer, now + max_wait) << context;
  const std::string phrase = localizer.relative_time(then, now);
  const auto expect_same = [&](std::int64_t t) {
    if (now < t && t < answer) {
      EXPECT_EQ(localizer.relative_time(then, t), phrase) << context << " at " << t;
    }
  };
  const std::int64_t fine = 2 * k_minute;
  for (std::int64_t t = now + 1; t <= now + fine; ++t) {
    expect_same(t);
  }
  const std::int64_t step = std::max<std::int64_t>(k_minute - 1, (answer - now) / 100);
  for (std::int64_t t = now + fine; t < answer - fine; t += step) {
    expect_same(t);
  }
  const std::int64_t then_time_of_day = ((then % k_day) + k_day) % k_day;
  for (std::int64_t day = floor_div(now, k_day) * k_day; day < answer; day += k_day) {
    expect_same(day);
    expect_same(day + then_time_of_day);
    expect_same(day + then_time_of_day + 1);
  }
  for (std::int64_t t = answer - fine; t < answer; ++t) {
    expect_same(t);
  }
  if (answer < now + max_wait) {
    EXPECT_NE(localizer.relative_time(then, answer), phrase) << context;
  }
  return answer;
}

// Walks every phrase of then from `from` to `to`, checking each change time in turn.
int walk(const Localizer& localizer, std::int64_t then, std::int64_t from, std::int64_t to) {
  int changes = 0;
  for (std::int64_t now = from; now < to && !::testing::Test::HasFailure(); ++changes) {
    now = expect_exact(localizer, then, now, to - now);
  }
  return changes;
}

class RelativeTimeChange : public ::testing::TestWithParam<const char*> {
protected:
  const Localizer localizer{k_locales_dir, GetParam()};
};

INSTANTIATE_TEST_SUITE_P(Locales, RelativeTimeChange, ::testing::Values("en", "ar"));

TEST_P(RelativeTimeChange, WalksEveryPhraseFromTwoMonthsAheadToTwoMonthsAfter) {
  // 60 minutes, 23 hours, 6 days, the weeks and "now" on each side: every change one by one.
  const std::int64_t then = utc(2025, 3, 31, 23, 59, 59);
  EXPECT_GE(walk(localizer, then, utc(2025, 1, 20), utc(2025, 6, 10)), 2 * (59 + 23 + 6 + 7));
}

TEST_P(RelativeTimeChange, WalksTheMonthsAndYearsAroundMonthEnds) {
  // Adding months pins the day to the month's length, in the past and the future alike.
  const std::int64_t thens[] = {
      utc(2024, 2, 29, 12, 34, 56), // leap day
      utc(2024, 1, 31),             // a 31st before a leap February
      utc(2023, 1, 31, 23, 59, 59), // ... and before a common one
      utc(2025, 5, 30, 23, 59, 59), // a 30th before a 31-day month
      utc(2025, 12, 31, 23, 59, 59),
      utc(2000, 2, 29, 6), // 2000 is a leap year, 2100 and 1900 are not
      utc(2100, 2, 28, 23, 59, 59),
      utc(1900, 3, 1),
      utc(2025, 2, 28, 6),  // a year from 2024-02-29 pins to February 28
      utc(2025, 9, 30, 12), // two months from July 31 pins to September 30
      utc(2025, 4, 30),     // ... and so do three from January 31, for its first second
  };
  for (const std::int64_t then : thens) {
    SCOPED_TRACE(then);
    // The years, the months and the turn to weeks, before then and after it.
    walk(localizer, then, then - 2 * k_year, then - 50 * k_day);
    walk(localizer, then, then + 50 * k_day, then + 2 * k_year);
  }
}

TEST_P(RelativeTimeChange, IsExactOneSecondEitherSideOfEachChange) {
  const std::int64_t thens[] = {utc(2024, 2, 29, 12, 34, 56), utc(2025, 1, 31), k_now,
                                utc(2023, 12, 31, 23, 59, 59)};
  for (const std::int64_t then : thens) {
    for (const std::int64_t start :
         {then - 3 * k_year, then - 70 * k_day, then - 8 * k_day, then - 2 * k_hour, then - 1, then,
          then + 59, then + 8 * k_day, then + 70 * k_day, then + 3 * k_year}) {
      const std::int64_t change = expect_exact(localizer, then, start, 4 * k_year);
      expect_exact(localizer, then, change - 1, 4 * k_year);
      expect_exact(localizer, then, change, 4 * k_year);
    }
  }
}

TEST_P(RelativeTimeChange, MatchesRelativeTimeAtRandomPairs) {
  std::mt19937_64 random(20250610);
  std::uniform_int_distribution<std::int64_t> offset(-3 * k_year, 3 * k_year);
  std::uniform_int_distribution<std::int64_t> near(-2 * k_day, 2 * k_day);
  for (int i = 0; i < 150 && !HasFailure(); ++i) {
    const std::int64_t now = k_now + offset(random);
    const std::int64_t then = now + (i % 2 == 0 ? offset(random) : near(random));
    expect_exact(localizer, then, now);
  }
}

// ICU's count of whole years, then months, from earlier to later, as relative_time asked it
// before the civil-date arithmetic took over from 1583 on.
std::pair<URelativeDateTimeUnit, std::int64_t> icu_unit(icu::Calendar& calendar,
                                                        std::int64_t earlier, std::int64_t later) {
  UErrorCode status = U_ZERO_ERROR;
  const double target = static_cast<double>(later) * 1000.0;
  calendar.setTime(static_cast<double>(earlier) * 1000.0, status);
  const int32_t years = calendar.fieldDifference(target, UCAL_YEAR, status);
  const int32_t months = calendar.fieldDifference(target, UCAL_MONTH, status);
  EXPECT_TRUE(U_SUCCESS(status));
  return internal::choose_unit(years, months, later - earlier);
}

TEST(RelativeUnit, CountsYearsAndMonthsAsIcusCalendarDoes) {
  UErrorCode status = U_ZERO_ERROR;
  icu::GregorianCalendar calendar(*icu::TimeZone::getGMT(), status);
  ASSERT_TRUE(U_SUCCESS(status));
  std::mt19937_64 random(20261204);
  const std::int64_t first = utc(1583, 1, 1);
  std::uniform_int_distribution<std::int64_t> start(first, k_clamp - 600 * k_year);
  const std::int64_t spans[] = {2 * k_day, 70 * k_day, 3 * k_year, 600 * k_year};
  std::vector<std::int64_t> starts;
  for (int i = 0; i < 4000; ++i) {
    starts.push_back(start(random));
  }
  // Month ends, leap days and the last second of a day, where pinning decides.
  for (const std::int64_t year : {1583, 1600, 1700, 1900, 2000, 2023, 2024, 2100, 9000}) {
    for (const std::int64_t day : {utc(year, 1, 31), utc(year, 2, 28), utc(year, 2, 29),
                                   utc(year, 3, 31), utc(year, 8, 31), utc(year, 12, 31)}) {
      starts.push_back(day);
      starts.push_back(day + k_day - 1);
      starts.push_back(day + 12 * k_hour);
    }
  }
  int compared = 0;
  for (std::size_t i = 0; i < starts.size() && !HasFailure(); ++i) {
    const std::int64_t earlier = starts[i];
    std::uniform_int_distribution<std::int64_t> span(0, spans[i % std::size(spans)]);
    for (int j = 0; j < 8; ++j) {
      const std::int64_t later = std::min(k_clamp, earlier + span(random));
      const auto counted = internal::relative_unit(earlier, later);
      ASSERT_TRUE(counted.has_value()) << earlier;
      EXPECT_EQ(*counted, icu_unit(calendar, earlier, later))
          << "from " << earlier << " to " << later;
      ++compared;
    }
  }
  EXPECT_GT(compared, 30000);
  // Before 1583 ICU's calendar counts: October 1582 is not the arithmetic's to follow.
  EXPECT_FALSE(internal::relative_unit(first - 1, first + k_year).has_value());
  EXPECT_FALSE(internal::relative_unit(first + k_year, first).has_value());
}

TEST_P(RelativeTimeChange, StartsAtThenSeenFromThen) {
  // "now" lasts until a minute after then.
  EXPECT_EQ(localizer.relative_time_changes_at(k_now, k_now), k_now + k_minute);
  EXPECT_EQ(expect_exact(localizer, k_now, k_now - 59), k_now + k_minute);
  EXPECT_EQ(expect_exact(localizer, k_now, k_now - 60), k_now - 59);
  EXPECT_EQ(expect_exact(localizer, k_now - k_hour, k_now), k_now + k_hour);
  EXPECT_EQ(expect_exact(localizer, k_now - k_day, k_now, 2 * k_day), k_now + k_day);
}

TEST_P(RelativeTimeChange, IsCappedAtMaxWait) {
  const std::int64_t then = utc(2021, 6, 10, 12);
  EXPECT_EQ(localizer.relative_time_changes_at(then, k_now), k_now + k_max_wait);
  EXPECT_EQ(localizer.relative_time_changes_at(then, k_now, 10), k_now + 10);
  EXPECT_EQ(localizer.relative_time_changes_at(then, k_now, 0), k_now + 1);
  // Four years ago becomes five at the anniversary.
  EXPECT_EQ(expect_exact(localizer, then, k_now - 1, 400 * k_day), k_now);
  EXPECT_EQ(expect_exact(localizer, then, k_now, 400 * k_day), utc(2026, 6, 10, 12));
}

TEST_P(RelativeTimeChange, FollowsTheClampsOfRelativeTime) {
  // Beyond the last second of 9999 the phrase no longer moves.
  for (const std::int64_t then : {INT64_MIN, -k_clamp, k_now, k_clamp - 30, k_clamp, INT64_MAX}) {
    SCOPED_TRACE(then);
    EXPECT_EQ(localizer.relative_time_changes_at(then, k_clamp), k_clamp + k_max_wait);
    EXPECT_EQ(localizer.relative_time_changes_at(then, INT64_MAX), INT64_MAX);
    EXPECT_EQ(localizer.relative_time_changes_at(then, INT64_MAX - 5, 10), INT64_MAX);
    expect_exact(localizer, then, k_clamp - 90);
    expect_exact(localizer, then, k_now);
    expect_exact(localizer, then, k_now, 2 * k_year);
  }
  // A then beyond the clamp reads as the clamp's, and "now" there never ends.
  EXPECT_EQ(localizer.relative_time_changes_at(INT64_MAX, k_clamp - 30), k_clamp - 30 + k_max_wait);
  // Before the first second of -9999 the phrase is that of the first second.
  for (const std::int64_t then : {INT64_MIN, -k_clamp, -k_clamp + 90, k_now}) {
    SCOPED_TRACE(then);
    EXPECT_EQ(localizer.relative_time_changes_at(then, INT64_MIN, 1000), INT64_MIN + 1000);
    expect_exact(localizer, then, -k_clamp - 40);
    expect_exact(localizer, then, -k_clamp);
    walk(localizer, then, -k_clamp, -k_clamp + 10 * k_minute);
  }
}

TEST_P(RelativeTimeChange, CountsJunkFeedDatesInIcusJulianCalendar) {
  // ICU's Gregorian calendar is Julian before 1582-10-15: Gregorian 0001-01-01 is its Julian
  // 0001-01-03, so the years of that common junk date tick over on January 3.
  const std::int64_t year_one = utc(1, 1, 1);
  EXPECT_EQ(expect_exact(localizer, year_one, utc(2025, 1, 2, 12)), utc(2025, 1, 3));
  expect_exact(localizer, year_one, utc(2025, 1, 3) - 1);
  // Julian 1500-02-29, a leap day the Gregorian calendar lacks, pinned to February 28 in
  // common years and kept in leap ones.
  const std::int64_t julian_leap_day = utc(1500, 3, 10, 8);
  for (const std::int64_t year : {2023, 2024, 2100}) {
    expect_exact(localizer, julian_leap_day, utc(year, 2, 28, 7, 59, 30));
    expect_exact(localizer, julian_leap_day, utc(year, 2, 28, 8) - 1);
    expect_exact(localizer, julian_leap_day, utc(year, 2, 28, 8));
    expect_exact(localizer, julian_leap_day, utc(year, 2, 29, 8) - 1);
  }
  expect_exact(localizer, utc(-5000, 7, 1), k_now - 1, 4 * k_year);
}

TEST_P(RelativeTimeChange, FollowsIcuAcrossTheJulianToGregorianSwitch) {
  // ICU skips from Julian 1582-10-04 to Gregorian 1582-10-15 and reads the missing days 5 to
  // 14 of a month added into October 1582 as Julian dates. A future across that month is
  // answered by asking ICU at each time the phrase could change; the rest by arithmetic.
  const std::int64_t julian_october_4 = utc(1582, 10, 15) - 1;
  const std::int64_t afternoon = utc(1582, 11, 20, 15, 30);
  const std::int64_t julian_september_10 = utc(1582, 9, 20, 6);
  for (const std::int64_t then : {julian_october_4, afternoon, julian_september_10}) {
    SCOPED_TRACE(then);
    walk(localizer, then, then - 250 * k_day, then - 40 * k_day);
    walk(localizer, then, then - 2 * k_day, then + 2 * k_day);
    walk(localizer, then, then + 40 * k_day, then + 250 * k_day);
  }
  const std::int64_t year_after = utc(1584, 1, 1);
  for (const std::int64_t then : {utc(1582, 1, 11), utc(1582, 12, 31, 23, 59, 59), utc(1583, 2, 28),
                                  year_after, year_after + 30}) {
    SCOPED_TRACE(then);
    for (const std::int64_t now : {year_after - 90, year_after - 1, year_after}) {
      expect_exact(localizer, then, now, 2 * k_year);
    }
  }
}

} // namespace
} // namespace podcrawl::l10n

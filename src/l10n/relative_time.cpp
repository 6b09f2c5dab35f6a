#include <algorithm>
#include <cstdint>
#include <optional>

#include "l10n_internal.hpp"

namespace podcrawl::l10n::internal {

namespace {

// Under two months "5 weeks ago" says more than "1 month ago".
constexpr std::int64_t k_min_months = 2;
constexpr std::int64_t k_months_per_year = 12;

constexpr std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  return a / b - (a % b != 0 && (a < 0) != (b < 0) ? 1 : 0);
}

// A calendar day at a time of day; year is ICU's extended year (0 is 1 BC).
struct CivilTime {
  std::int64_t year = 0;
  std::int64_t month = 1; // 1..12
  std::int64_t day = 1;   // 1..31
  std::int64_t second = 0;
};

// Howard Hinnant's days_from_civil and civil_from_days, for the proleptic Gregorian calendar
// and, with a four-year cycle, the Julian one. Days count from 1970-01-01 (Gregorian).
constexpr std::int64_t k_days_to_gregorian_epoch = 719468; // 0000-03-01 to 1970-01-01
constexpr std::int64_t k_days_per_400_years = 146097;
constexpr std::int64_t k_days_per_4_years = 1461;

constexpr std::int64_t day_of_march_year(std::int64_t month, std::int64_t day) {
  return (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
}

constexpr std::int64_t days_from_gregorian(std::int64_t year, std::int64_t month,
                                           std::int64_t day) {
  year -= month <= 2 ? 1 : 0;
  const std::int64_t era = floor_div(year, 400);
  const std::int64_t year_of_era = year - era * 400;
  const std::int64_t day_of_era =
      year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_march_year(month, day);
  return era * k_days_per_400_years + day_of_era - k_days_to_gregorian_epoch;
}

constexpr std::int64_t julian_day_count(std::int64_t year, std::int64_t month, std::int64_t day) {
  year -= month <= 2 ? 1 : 0;
  const std::int64_t era = floor_div(year, 4);
  return era * k_days_per_4_years + (year - era * 4) * 365 + day_of_march_year(month, day);
}

// 1970-01-01 (Gregorian) is 1969-12-19 in the Julian calendar.
constexpr std::int64_t k_days_to_julian_epoch = julian_day_count(1969, 12, 19);

// The year, month and day of a day of a year that starts on March 1.
constexpr CivilTime from_march_year(std::int64_t march_year, std::int64_t day_of_year) {
  const std::int64_t month_index = (5 * day_of_year + 2) / 153;
  const std::int64_t month = month_index < 10 ? month_index + 3 : month_index - 9;
  return {march_year + (month <= 2 ? 1 : 0), month, day_of_year - (153 * month_index + 2) / 5 + 1};
}

constexpr CivilTime gregorian_from_days(std::int64_t days) {
  days += k_days_to_gregorian_epoch;
  const std::int64_t era = floor_div(days, k_days_per_400_years);
  const std::int64_t day_of_era = days - era * k_days_per_400_years;
  const std::int64_t year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  return from_march_year(era * 400 + year_of_era,
                         day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100));
}

constexpr CivilTime julian_from_days(std::int64_t days) {
  days += k_days_to_julian_epoch;
  const std::int64_t era = floor_div(days, k_days_per_4_years);
  const std::int64_t day_of_era = days - era * k_days_per_4_years;
  const std::int64_t year_of_era = (day_of_era - day_of_era / 1460) / 365;
  return from_march_year(era * 4 + year_of_era, day_of_era - 365 * year_of_era);
}

// ICU's GregorianCalendar is Julian before 1582-10-15 (the day after Julian 1582-10-04).
constexpr std::int64_t k_cutover_day = days_from_gregorian(1582, 10, 15);
static_assert(julian_from_days(k_cutover_day - 1).day == 4);
static_assert(julian_from_days(k_cutover_day - 1).month == 10);
// October 1582, whose days 5 to 14 ICU reads as Julian dates: months added into it can land
// out of order, which the arithmetic here does not follow.
constexpr std::int64_t k_cutover_month = 1582 * 12 + 9;

CivilTime civil_time(std::int64_t t) {
  const std::int64_t days = floor_div(t, k_day);
  CivilTime civil = days >= k_cutover_day ? gregorian_from_days(days) : julian_from_days(days);
  civil.second = t - days * k_day;
  return civil;
}

// ICU's month lengths: Julian leap years before 1582, Gregorian ones from then.
std::int64_t month_length(std::int64_t index) {
  const std::int64_t year = floor_div(index, k_months_per_year);
  const std::int64_t month = index - year * k_months_per_year + 1;
  if (month == 2) {
    const bool leap = year % 4 == 0 && (year < 1582 || year % 100 != 0 || year % 400 == 0);
    return leap ? 29 : 28;
  }
  return month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31;
}

std::int64_t month_index(const CivilTime& civil) {
  return civil.year * k_months_per_year + civil.month - 1;
}

// The time at `second` of day `day` (pinned to the month's length) of the month `index`, as
// ICU reads those fields: Gregorian from the switch on, Julian before it.
std::int64_t time_in_month(std::int64_t index, std::int64_t day, std::int64_t second) {
  const std::int64_t year = floor_div(index, k_months_per_year);
  const std::int64_t month = index - year * k_months_per_year + 1;
  day = std::min(day, month_length(index));
  std::int64_t days = days_from_gregorian(year, month, day);
  if (days < k_cutover_day) {
    days = julian_day_count(year, month, day) - k_days_to_julian_epoch;
  }
  return days * k_day + second;
}

// ICU's add(UCAL_MONTH, months), and add(UCAL_YEAR, months / 12): the same day of the month,
// pinned to the target month's length, at the same time of day.
std::int64_t add_months(const CivilTime& from, std::int64_t months) {
  return time_in_month(month_index(from) + months, from.day, from.second);
}

// ICU's fieldDifference in steps of `step` months: the most steps that, added to `from`, do
// not pass `to` (the time of to_civil, no earlier than from).
std::int64_t whole_steps(const CivilTime& from, const CivilTime& to_civil, std::int64_t to,
                         std::int64_t step) {
  // Adding `steps` lands in to's month or an earlier one, so it passes `to` by at most days.
  const std::int64_t steps = floor_div(month_index(to_civil) - month_index(from), step);
  return add_months(from, steps * step) > to ? steps - 1 : steps;
}

// then <= now: the phrase only grows as now moves away from then.
std::int64_t next_past_change(std::int64_t then, std::int64_t now) {
  const CivilTime from = civil_time(then);
  const CivilTime to = civil_time(now);
  const std::int64_t years = whole_steps(from, to, now, k_months_per_year);
  const std::int64_t months = years >= 1 ? 0 : whole_steps(from, to, now, 1);
  const auto [unit, amount] = choose_unit(years, months, now - then);
  if (unit == UDAT_REL_UNIT_YEAR) {
    return add_months(from, (years + 1) * k_months_per_year);
  }
  // At most 11 months, so the next month comes no later than the first year.
  if (unit == UDAT_REL_UNIT_MONTH) {
    return add_months(from, months + 1);
  }
  const std::int64_t size = unit_seconds(unit);
  return std::min(then + ((now - then) / size + 1) * size, add_months(from, k_min_months));
}

struct Span {
  std::int64_t first = 0;
  std::int64_t last = 0;
};

// then > now: the whole months from a start in month `index` to then are the months between
// the two months when the start's day and time, pinned into then's month, do not pass then's,
// and one fewer when they do. Those starts "fit"; they are at most four spans of the month:
// its start to then's day and time and, when then is on the last day of a month shorter than
// this one, the same hours of each day past that length (pinned onto then's day).
class FutureMonths {
public:
  explicit FutureMonths(std::int64_t then)
      : m_then(civil_time(then)),
        m_then_month(month_index(m_then)),
        m_then_month_length(month_length(m_then_month)) {}

  std::int64_t then_month() const { return m_then_month; }

  // Whole months from t (in month `index`, no later than then) to then: ICU's fieldDifference.
  std::int64_t whole_months(std::int64_t index, std::int64_t t) const {
    return m_then_month - index - (fits(index, t) ? 0 : 1);
  }

  // The first time from `from` (in month `index`) that does not fit; the next month's start
  // when the rest of the month fits.
  std::int64_t first_misfit(std::int64_t index, std::int64_t from) const {
    for (const Span& span : spans(index)) {
      if (from < span.first) {
        return from;
      }
      if (from <= span.last) {
        return span.last + 1;
      }
    }
    return from;
  }

  // The first time after `now` (in month `index`, not fitting) that fits, or k_never.
  std::int64_t next_fit(std::int64_t index, std::int64_t now) const {
    for (const Span& span : spans(index)) {
      if (span.first > now) {
        return span.first;
      }
    }
    return k_never;
  }

private:
  struct Spans {
    Span spans[4];
    int count = 0;
    const Span* begin() const { return spans; }
    const Span* end() const { return spans + count; }
    void add(Span span) {
      if (count > 0 && spans[count - 1].last + 1 == span.first) {
        spans[count - 1].last = span.last;
      } else {
        spans[count++] = span;
      }
    }
  };

  Spans spans(std::int64_t index) const {
    Spans result;
    const std::int64_t length = month_length(index);
    const std::int64_t start = time_in_month(index, 1, 0);
    if (m_then.day > length) {
      result.add({start, time_in_month(index + 1, 1, 0) - 1});
      return result;
    }
    result.add({start, time_in_month(index, m_then.day, m_then.second)});
    if (m_then.day == m_then_month_length) {
      for (std::int64_t day = m_then.day + 1; day <= length; ++day) {
        result.add({time_in_month(index, day, 0), time_in_month(index, day, m_then.second)});
      }
    }
    return result;
  }

  bool fits(std::int64_t index, std::int64_t t) const {
    for (const Span& span : spans(index)) {
      if (span.first <= t && t <= span.last) {
        return true;
      }
    }
    return false;
  }

  CivilTime m_then;
  std::int64_t m_then_month;
  std::int64_t m_then_month_length;
};

// then > now: the phrase mostly shrinks as now nears then, reads "now" from a minute before
// then to a minute after, then grows in the past tense. Pinning lets a whole month come back
// for some hours (towards 2024-02-29 at noon, 2023-12-29 at 13:00 reads "in 8 weeks" and the
// 30th at 1:00 "in 2 months" again, as December 30 plus two months pins to February 29), so
// both ways are watched. nullopt across October 1582.
std::optional<std::int64_t> next_future_change(std::int64_t then, std::int64_t now) {
  const FutureMonths future(then);
  const std::int64_t index = month_index(civil_time(now));
  if (index <= k_cutover_month && k_cutover_month <= future.then_month()) {
    return std::nullopt;
  }
  const std::int64_t months_between = future.then_month() - index;
  const std::int64_t months = future.whole_months(index, now);
  // One more whole month only comes back in now's month, while now does not fit.
  const auto month_back = [&](std::int64_t wanted) {
    return months_between == wanted && months < months_between ? future.next_fit(index, now)
                                                               : k_never;
  };
  if (months >= k_min_months) {
    // The phrase holds while the whole months stay in [low, high].
    const std::int64_t low =
        months >= k_months_per_year ? months / k_months_per_year * k_months_per_year : months;
    const std::int64_t high = months >= k_months_per_year ? low + k_months_per_year - 1 : months;
    const std::int64_t low_month = future.then_month() - low;
    const std::int64_t from = low_month == index ? now + 1 : time_in_month(low_month, 1, 0);
    return std::min(future.first_misfit(low_month, from), month_back(high + 1));
  }
  const auto [unit, amount] = choose_unit(0, months, then - now);
  const std::int64_t shrinks =
      amount == 0 ? then + k_minute : then - amount * unit_seconds(unit) + 1;
  return std::min(shrinks, month_back(k_min_months));
}

} // namespace

std::pair<URelativeDateTimeUnit, std::int64_t> choose_unit(std::int64_t years, std::int64_t months,
                                                           std::int64_t seconds) {
  if (years >= 1) {
    return {UDAT_REL_UNIT_YEAR, years};
  }
  if (months >= k_min_months) {
    return {UDAT_REL_UNIT_MONTH, months};
  }
  if (seconds >= k_week) {
    return {UDAT_REL_UNIT_WEEK, seconds / k_week};
  }
  if (seconds >= k_day) {
    return {UDAT_REL_UNIT_DAY, seconds / k_day};
  }
  if (seconds >= k_hour) {
    return {UDAT_REL_UNIT_HOUR, seconds / k_hour};
  }
  return {UDAT_REL_UNIT_MINUTE, seconds / k_minute};
}

std::int64_t unit_seconds(URelativeDateTimeUnit unit) {
  switch (unit) {
    case UDAT_REL_UNIT_WEEK:
      return k_week;
    case UDAT_REL_UNIT_DAY:
      return k_day;
    case UDAT_REL_UNIT_HOUR:
      return k_hour;
    default:
      return k_minute;
  }
}

std::optional<std::pair<URelativeDateTimeUnit, std::int64_t>> relative_unit(std::int64_t earlier,
                                                                            std::int64_t later) {
  // From 1583 on, adding months or years never lands in October 1582.
  constexpr std::int64_t k_first = days_from_gregorian(1583, 1, 1) * k_day;
  if (earlier < k_first || later < earlier) {
    return std::nullopt;
  }
  const CivilTime from = civil_time(earlier);
  const CivilTime to = civil_time(later);
  const std::int64_t years = whole_steps(from, to, later, k_months_per_year);
  const std::int64_t months = years >= 1 ? 0 : whole_steps(from, to, later, 1);
  return choose_unit(years, months, later - earlier);
}

std::optional<std::int64_t> next_relative_change(std::int64_t then, std::int64_t now) {
  const std::optional<std::int64_t> change =
      then <= now ? next_past_change(then, now) : next_future_change(then, now);
  if (change && *change > k_max_abs_time) {
    return k_never;
  }
  return change;
}

} // namespace podcrawl::l10n::internal

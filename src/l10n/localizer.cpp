#include "podcrawl/l10n/localizer.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <mutex>
#include <tuple>
#include <unordered_map>

#include <unicode/calendar.h>
#include <unicode/coll.h>
#include <unicode/datefmt.h>
#include <unicode/gregocal.h>
#include <unicode/listformatter.h>
#include <unicode/measunit.h>
#include <unicode/msgfmt.h>
#include <unicode/numberformatter.h>
#include <unicode/reldatefmt.h>
#include <unicode/timezone.h>

#include "l10n_internal.hpp"
#include "podcrawl/core/error.hpp"

namespace podcrawl::l10n {

namespace {

using internal::from_utf8;
using internal::to_utf8;

using internal::k_day;
using internal::k_hour;
using internal::k_max_abs_time;
using internal::k_minute;
constexpr double k_milliseconds = 1000.0;
// Phrases kept per locale: every amount of every unit a directory's dates reach (about 60
// minutes, 24 hours, 7 days, 9 weeks, 11 months and a few hundred years each way), and a bound
// against junk dates, whose phrases are then formatted each time.
constexpr std::size_t k_max_relative_phrases = 4096;
// Dates kept per locale: eleven years of days.
constexpr std::size_t k_max_dates = 4096;
// Amounts formatted in advance: clock digits and spoken hours, minutes and seconds below this.
constexpr std::size_t k_small_amounts = 100;

void check(UErrorCode status, const std::string& what) {
  if (U_FAILURE(status)) {
    throw core::EnvironmentError(what + ": " + u_errorName(status));
  }
}

icu::Locale make_locale(const internal::Catalog& catalog) {
  UErrorCode status = U_ZERO_ERROR;
  icu::Locale locale = icu::Locale::forLanguageTag(catalog.icu_locale, status);
  check(status, "locale " + catalog.tag + ": bad icu locale " + catalog.icu_locale);
  char numbers[32] = {};
  locale.getKeywordValue("numbers", numbers, sizeof numbers, status);
  if (U_FAILURE(status) || numbers[0] == '\0') {
    throw core::EnvironmentError("locale " + catalog.tag + ": icu locale " + catalog.icu_locale +
                                 " must pin a numbering system (-u-nu-…)");
  }
  return locale;
}

std::string format_integer(const icu::number::LocalizedNumberFormatter& formatter, std::int64_t n) {
  UErrorCode status = U_ZERO_ERROR;
  const auto formatted = formatter.formatInt(n, status);
  std::string result = to_utf8(formatted.toString(status));
  check(status, "number format");
  return result;
}

} // namespace

struct Localizer::Impl {
  internal::Catalog catalog;
  icu::Locale locale;
  std::map<std::string, std::unique_ptr<icu::MessageFormat>, std::less<>> messages;
  icu::number::LocalizedNumberFormatter numbers;
  icu::number::LocalizedNumberFormatter plain_digits; // no grouping, for clock-style durations
  icu::number::LocalizedNumberFormatter two_digits;   // zero-filled minutes and seconds
  std::unique_ptr<icu::RelativeDateTimeFormatter> relative;
  std::unique_ptr<icu::DateFormat> dates;
  // "2 hours", "5 minutes", "1 second" and the list that joins them: built once, since a
  // MeasureFormat rebuilds its number formatter on every call.
  icu::number::LocalizedNumberFormatter spoken_units[3];
  std::unique_ptr<icu::ListFormatter> spoken_list;
  std::unique_ptr<icu::Calendar> calendar;
  std::unique_ptr<icu::Collator> collator;
  // relative_time's phrases by direction (past or not), unit and amount: a page asks for the
  // same few hundred again and again.
  std::map<std::tuple<bool, URelativeDateTimeUnit, std::int64_t>, std::string> relative_phrases;
  // Dates by day since the epoch (a date is the same all day in GMT): each episode of a page has
  // one, and a directory's episodes fall on a few thousand days.
  std::unordered_map<std::int64_t, std::string> dates_by_day;
  // Formatted once: clock digits for 0-99 (plain_digits, two_digits), and the spoken hours,
  // minutes and seconds for 0-99 (spoken_units), which is every amount but long hours.
  std::array<std::string, k_small_amounts> plain_digit_texts;
  std::array<std::string, k_small_amounts> two_digit_texts;
  std::array<std::array<icu::UnicodeString, k_small_amounts>, 3> spoken_amounts;
  // ICU's message, date, calendar and relative formatters are not safe for concurrent use.
  std::mutex mutex;

  const icu::MessageFormat& message(std::string_view key) const {
    const auto found = messages.find(key);
    if (found == messages.end()) {
      throw core::EnvironmentError("locale " + catalog.tag + " has no message \"" +
                                   std::string(key) + "\"");
    }
    return *found->second;
  }

  std::string apply(std::string_view key, const icu::Formattable* arguments, int32_t count) {
    std::lock_guard lock(mutex);
    UErrorCode status = U_ZERO_ERROR;
    icu::UnicodeString result;
    icu::FieldPosition position;
    message(key).format(arguments, count, result, position, status);
    check(status, "locale " + catalog.tag + ": message " + std::string(key));
    return to_utf8(result);
  }

  void compile_messages() {
    for (const auto& [key, pattern] : catalog.messages) {
      UErrorCode status = U_ZERO_ERROR;
      UParseError parse_error{};
      auto format =
          std::make_unique<icu::MessageFormat>(from_utf8(pattern), locale, parse_error, status);
      check(status, "locale " + catalog.tag + ": message \"" + key + "\" does not compile");
      messages.emplace(key, std::move(format));
    }
  }

  void create_formatters() {
    using icu::number::NumberFormatter;
    numbers = NumberFormatter::withLocale(locale);
    plain_digits = NumberFormatter::withLocale(locale).grouping(UNUM_GROUPING_OFF);
    two_digits = plain_digits.integerWidth(icu::number::IntegerWidth::zeroFillTo(2));

    const std::string what = "locale " + catalog.tag + ": ICU formatters";
    UErrorCode status = U_ZERO_ERROR;
    relative = std::make_unique<icu::RelativeDateTimeFormatter>(
        locale, nullptr, UDAT_STYLE_LONG, UDISPCTX_CAPITALIZATION_NONE, status);
    check(status, what);
    dates.reset(icu::DateFormat::createDateInstance(icu::DateFormat::kMedium, locale));
    if (!dates) {
      throw core::EnvironmentError(what);
    }
    dates->setTimeZone(*icu::TimeZone::getGMT());
    const icu::MeasureUnit units[] = {icu::MeasureUnit::getHour(), icu::MeasureUnit::getMinute(),
                                      icu::MeasureUnit::getSecond()};
    for (std::size_t i = 0; i < std::size(units); ++i) {
      spoken_units[i] =
          NumberFormatter::withLocale(locale).unit(units[i]).unitWidth(UNUM_UNIT_WIDTH_FULL_NAME);
    }
    spoken_list.reset(icu::ListFormatter::createInstance(locale, ULISTFMT_TYPE_UNITS,
                                                         ULISTFMT_WIDTH_WIDE, status));
    check(status, what);
    // Differences are counted in Gregorian years and months whatever the locale's calendar.
    calendar = std::make_unique<icu::GregorianCalendar>(*icu::TimeZone::getGMT(), locale, status);
    check(status, what);
    collator.reset(icu::Collator::createInstance(locale, status));
    check(status, what);
    for (std::size_t n = 0; n < k_small_amounts; ++n) {
      const auto amount = static_cast<std::int64_t>(n);
      plain_digit_texts[n] = format_integer(plain_digits, amount);
      two_digit_texts[n] = format_integer(two_digits, amount);
      for (std::size_t unit = 0; unit < spoken_amounts.size(); ++unit) {
        spoken_amounts[unit][n] = spoken_units[unit].formatInt(amount, status).toString(status);
      }
    }
    check(status, what);
  }

  std::string digits(std::int64_t n, bool two) const {
    if (n >= 0 && n < static_cast<std::int64_t>(k_small_amounts)) {
      return (two ? two_digit_texts : plain_digit_texts)[static_cast<std::size_t>(n)];
    }
    return format_integer(two ? two_digits : plain_digits, n);
  }
};

namespace {

// The relative unit and count for an interval from earlier to later (earlier <= later).
std::pair<URelativeDateTimeUnit, std::int64_t> pick_unit(icu::Calendar& calendar,
                                                         std::int64_t earlier, std::int64_t later) {
  if (const auto counted = internal::relative_unit(earlier, later)) {
    return *counted;
  }
  UErrorCode status = U_ZERO_ERROR;
  const double target = static_cast<double>(later) * k_milliseconds;
  calendar.setTime(static_cast<double>(earlier) * k_milliseconds, status);
  // fieldDifference advances the calendar, so months are counted after the whole years.
  const int32_t years = calendar.fieldDifference(target, UCAL_YEAR, status);
  const int32_t months = calendar.fieldDifference(target, UCAL_MONTH, status);
  check(status, "calendar difference");
  return internal::choose_unit(years, months, later - earlier);
}

// What relative_time shows for then seen from now: "now" whatever the direction, else the
// direction, unit and amount.
std::tuple<bool, URelativeDateTimeUnit, std::int64_t> phrase_of(icu::Calendar& calendar,
                                                                std::int64_t then,
                                                                std::int64_t now) {
  now = std::clamp(now, -k_max_abs_time, k_max_abs_time);
  const auto [unit, amount] = pick_unit(calendar, std::min(then, now), std::max(then, now));
  if (amount == 0) {
    return {true, UDAT_REL_UNIT_MINUTE, 0};
  }
  return {then <= now, unit, amount};
}

// The first time in (now, limit] at which the phrase for a future `then` differs from the one
// at now, or limit when none does, by asking ICU at each time it could change: each midnight
// and each time of day a second past then's (where whole months and years are gained or lost)
// and the time the phrase in weeks, days, hours or minutes would shrink. For the rare futures
// across October 1582 that internal::next_relative_change leaves to ICU: about three phrases
// asked for a day.
std::int64_t search_relative_change(icu::Calendar& calendar, std::int64_t then, std::int64_t now,
                                    std::int64_t limit) {
  const auto phrase = phrase_of(calendar, then, now);
  const auto [unit, amount] = pick_unit(calendar, now, then);
  const bool in_seconds = unit != UDAT_REL_UNIT_YEAR && unit != UDAT_REL_UNIT_MONTH;
  const std::int64_t shrinks =
      amount == 0 ? then + k_minute : then - amount * internal::unit_seconds(unit) + 1;
  const std::int64_t then_next_second = ((then % k_day + k_day) % k_day + 1) % k_day;
  // Past k_max_abs_time the clamped phrase no longer moves.
  const std::int64_t last = std::min(limit, k_max_abs_time);
  for (std::int64_t t = now; t < last;) {
    const std::int64_t day = t - (t % k_day + k_day) % k_day;
    std::int64_t next = day + k_day;
    if (day + then_next_second > t) {
      next = std::min(next, day + then_next_second);
    }
    if (in_seconds && shrinks > t) {
      next = std::min(next, shrinks);
    }
    t = std::min(next, last);
    if (phrase_of(calendar, then, t) != phrase) {
      return t;
    }
  }
  return limit;
}

} // namespace

Localizer::Localizer(const std::filesystem::path& locales_dir, std::string_view tag)
    : m_impl(std::make_unique<Impl>()) {
  m_impl->catalog = internal::load_catalog(locales_dir, tag);
  m_impl->locale = make_locale(m_impl->catalog);
  m_impl->compile_messages();
  m_impl->create_formatters();
}

Localizer::~Localizer() = default;
Localizer::Localizer(Localizer&&) noexcept = default;
Localizer& Localizer::operator=(Localizer&&) noexcept = default;

const std::string& Localizer::tag() const {
  return m_impl->catalog.tag;
}
bool Localizer::right_to_left() const {
  return m_impl->catalog.right_to_left;
}
const std::string& Localizer::native_name() const {
  return m_impl->catalog.native_name;
}

std::string Localizer::text(std::string_view key) const {
  return m_impl->apply(key, nullptr, 0);
}

std::string Localizer::count(std::string_view key, std::int64_t n) const {
  const icu::Formattable arguments[] = {icu::Formattable(static_cast<int64_t>(n))};
  return m_impl->apply(key, arguments, 1);
}

std::string Localizer::format(std::string_view key, std::string_view argument) const {
  const icu::Formattable arguments[] = {icu::Formattable(from_utf8(argument))};
  return m_impl->apply(key, arguments, 1);
}

std::string Localizer::relative_time(std::int64_t then, std::int64_t now) const {
  then = std::clamp(then, -k_max_abs_time, k_max_abs_time);
  now = std::clamp(now, -k_max_abs_time, k_max_abs_time);
  std::lock_guard lock(m_impl->mutex);
  const bool past = then <= now;
  const auto [unit, amount] =
      pick_unit(*m_impl->calendar, std::min(then, now), std::max(then, now));
  // "now" whatever the direction and unit.
  const auto key = amount == 0 ? std::make_tuple(true, UDAT_REL_UNIT_MINUTE, std::int64_t{0})
                               : std::make_tuple(past, unit, amount);
  if (const auto found = m_impl->relative_phrases.find(key);
      found != m_impl->relative_phrases.end()) {
    return found->second;
  }
  UErrorCode status = U_ZERO_ERROR;
  icu::UnicodeString result;
  if (amount == 0) {
    m_impl->relative->format(UDAT_DIRECTION_PLAIN, UDAT_ABSOLUTE_NOW, result, status);
  } else {
    const auto offset = static_cast<double>(past ? -amount : amount);
    m_impl->relative->formatNumeric(offset, unit, result, status);
  }
  check(status, "relative time");
  std::string phrase = to_utf8(result);
  if (m_impl->relative_phrases.size() < k_max_relative_phrases) {
    m_impl->relative_phrases.emplace(key, phrase);
  }
  return phrase;
}

std::int64_t Localizer::relative_time_changes_at(std::int64_t then, std::int64_t now,
                                                 std::int64_t max_wait) const {
  max_wait = std::max<std::int64_t>(max_wait, 1);
  const std::int64_t limit = now > INT64_MAX - max_wait ? INT64_MAX : now + max_wait;
  if (now >= k_max_abs_time) {
    return limit; // relative_time clamps now, so the phrase no longer moves
  }
  then = std::clamp(then, -k_max_abs_time, k_max_abs_time);
  // Until -k_max_abs_time the phrase is that of -k_max_abs_time.
  now = std::max(now, -k_max_abs_time);
  if (const auto change = internal::next_relative_change(then, now)) {
    return std::min(*change, limit);
  }
  std::lock_guard lock(m_impl->mutex);
  return search_relative_change(*m_impl->calendar, then, now, limit);
}

std::string Localizer::number(std::int64_t n) const {
  return format_integer(m_impl->numbers, n);
}

std::string Localizer::duration(std::int64_t seconds) const {
  seconds = std::max<std::int64_t>(seconds, 0);
  const std::int64_t hours = seconds / k_hour;
  const std::int64_t minutes = seconds % k_hour / k_minute;
  const std::string clock_seconds = m_impl->digits(seconds % k_minute, true);
  if (hours > 0) {
    return m_impl->digits(hours, false) + ":" + m_impl->digits(minutes, true) + ":" + clock_seconds;
  }
  return m_impl->digits(minutes, false) + ":" + clock_seconds;
}

std::string Localizer::spoken_duration(std::int64_t seconds) const {
  seconds = std::clamp<std::int64_t>(seconds, 0, k_max_abs_time);
  const std::int64_t parts[] = {seconds / k_hour, seconds % k_hour / k_minute, seconds % k_minute};
  const std::string what = "locale " + m_impl->catalog.tag + ": spoken duration";
  icu::UnicodeString measures[std::size(parts)];
  int32_t count = 0;
  for (std::size_t i = 0; i < std::size(parts); ++i) {
    // The seconds stay when they are all there is: "0 seconds".
    if (parts[i] != 0 || (count == 0 && i + 1 == std::size(parts))) {
      if (parts[i] < static_cast<std::int64_t>(k_small_amounts)) {
        measures[count++] = m_impl->spoken_amounts[i][static_cast<std::size_t>(parts[i])];
        continue;
      }
      UErrorCode status = U_ZERO_ERROR;
      measures[count++] = m_impl->spoken_units[i].formatInt(parts[i], status).toString(status);
      check(status, what);
    }
  }
  if (count == 1) {
    return to_utf8(measures[0]);
  }
  UErrorCode status = U_ZERO_ERROR;
  icu::UnicodeString result;
  {
    std::lock_guard lock(m_impl->mutex);
    m_impl->spoken_list->format(measures, count, result, status);
  }
  check(status, what);
  return to_utf8(result);
}

std::optional<std::string> Localizer::category_name(std::string_view category_slug) const {
  std::string key = "category.";
  key += category_slug;
  if (!m_impl->messages.contains(key)) {
    return std::nullopt;
  }
  return text(key);
}

std::string Localizer::language_name(std::string_view language_tag) const {
  UErrorCode status = U_ZERO_ERROR;
  const icu::Locale language = icu::Locale::forLanguageTag(
      icu::StringPiece(language_tag.data(), static_cast<int32_t>(language_tag.size())), status);
  icu::UnicodeString name;
  language.getDisplayName(m_impl->locale, name);
  // ICU echoes a code it has no name for; so does this function, as the caller passed it.
  if (U_FAILURE(status) || name.isEmpty() || to_utf8(name) == language.getName()) {
    return std::string(language_tag);
  }
  return to_utf8(name);
}

std::string Localizer::region_name(std::string_view language_tag) const {
  UErrorCode status = U_ZERO_ERROR;
  const icu::Locale language = icu::Locale::forLanguageTag(
      icu::StringPiece(language_tag.data(), static_cast<int32_t>(language_tag.size())), status);
  if (U_FAILURE(status) || language.getCountry()[0] == '\0') {
    return "";
  }
  icu::UnicodeString name;
  language.getDisplayCountry(m_impl->locale, name);
  // ICU echoes a code it has no name for.
  if (name.isEmpty() || to_utf8(name) == language.getCountry()) {
    return "";
  }
  return to_utf8(name);
}

std::string Localizer::open_graph_locale() const {
  UErrorCode status = U_ZERO_ERROR;
  icu::Locale likely(m_impl->locale.getBaseName());
  likely.addLikelySubtags(status);
  const std::string country = U_SUCCESS(status) ? likely.getCountry() : "";
  return country.empty() ? std::string(likely.getLanguage())
                         : std::string(likely.getLanguage()) + "_" + country;
}

std::string Localizer::date(std::int64_t t) const {
  t = std::clamp(t, -k_max_abs_time, k_max_abs_time);
  const std::int64_t day = t / k_day - (t % k_day < 0 ? 1 : 0);
  std::lock_guard lock(m_impl->mutex);
  if (const auto found = m_impl->dates_by_day.find(day); found != m_impl->dates_by_day.end()) {
    return found->second;
  }
  icu::UnicodeString result;
  m_impl->dates->format(static_cast<UDate>(t) * k_milliseconds, result);
  std::string date = to_utf8(result);
  if (m_impl->dates_by_day.size() < k_max_dates) {
    m_impl->dates_by_day.emplace(day, date);
  }
  return date;
}

bool Localizer::collate_less(std::string_view a, std::string_view b) const {
  std::lock_guard lock(m_impl->mutex);
  UErrorCode status = U_ZERO_ERROR;
  const auto order = m_impl->collator->compareUTF8(
      icu::StringPiece(a.data(), static_cast<int32_t>(a.size())),
      icu::StringPiece(b.data(), static_cast<int32_t>(b.size())), status);
  check(status, "collation");
  return order == UCOL_LESS;
}

std::vector<std::string> available_locales(const std::filesystem::path& locales_dir) {
  std::vector<std::string> tags;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(locales_dir, error)) {
    const auto& file = entry.path();
    if (entry.is_regular_file(error) && file.extension() == ".toml" &&
        internal::is_valid_tag(file.stem().string())) {
      tags.push_back(file.stem().string());
    }
  }
  if (error) {
    throw core::EnvironmentError("cannot list locale catalogs in " + locales_dir.string() + ": " +
                                 error.message());
  }
  std::sort(tags.begin(), tags.end());
  return tags;
}

} // namespace podcrawl::l10n

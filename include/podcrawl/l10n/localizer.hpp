#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace podcrawl::l10n {

// The interface language of one rendered locale: its catalog (config/locales/<tag>.toml, ICU
// MessageFormat strings), direction, CLDR plural rules, relative times, numbers and dates.
// Numbering systems are pinned per locale in the catalog so output does not depend on the
// ICU version.
class Localizer {
public:
  // Load the catalog for `tag` from locales_dir. Throws core::UsageError when the locale has no
  // catalog, core::EnvironmentError when the catalog is unreadable, lacks a key that the
  // English catalog has (no interface string is ever left untranslated), has a key the English
  // catalog lacks, or holds a message that does not compile.
  Localizer(const std::filesystem::path& locales_dir, std::string_view tag);
  ~Localizer();
  Localizer(Localizer&&) noexcept;
  Localizer& operator=(Localizer&&) noexcept;

  const std::string& tag() const;         // "ar"
  bool right_to_left() const;             // dir="rtl"
  const std::string& native_name() const; // "العربية"

  // A plain catalog string; throws core::EnvironmentError for an unknown key.
  std::string text(std::string_view key) const;
  // A catalog MessageFormat pattern applied to one number argument, CLDR plurals included:
  // count("episodes", 83) == "83 حلقة" in Arabic.
  std::string count(std::string_view key, std::int64_t n) const;
  // A catalog MessageFormat pattern with one string argument: format("by_author", "PyTorch").
  std::string format(std::string_view key, std::string_view argument) const;
  // ICU's relative phrase for `then` seen from `now`: "قبل 4 سنوات", "5 weeks ago". The unit
  // is the largest that fits by calendar difference: years (>= 1 year), months (>= 2 months),
  // weeks, days, hours, minutes; under a minute it is the locale's "now". Future times read
  // "in 3 days".
  std::string relative_time(std::int64_t then, std::int64_t now) const;
  // The first time after `now` at which relative_time(then, t) reads differently from
  // relative_time(then, now): when a page showing the phrase must be rendered again. Capped at
  // now + max_wait (at least a second later), so such a page is re-rendered at least that
  // often. Exact, never later than the change, and the same in every locale. Cheaper than
  // relative_time and free to call from many threads at once: integer arithmetic on the same
  // calendar, no ICU and no lock (except for a future `then` with October 1582 in between,
  // which asks ICU under relative_time's lock).
  std::int64_t relative_time_changes_at(std::int64_t then, std::int64_t now,
                                        std::int64_t max_wait = 86400) const;
  // A number in the locale's digits and grouping.
  std::string number(std::int64_t n) const;
  // A duration as the locale writes it: "32:48", "1:02:03" in the locale's digits.
  std::string duration(std::int64_t seconds) const;
  // A duration spoken in words, for screen readers: "32 minutes, 48 seconds", "1 hour,
  // 2 minutes, 3 seconds" (ICU MeasureFormat, wide units; zero units are left out).
  std::string spoken_duration(std::int64_t seconds) const;
  // The localized name of one of Apple Podcasts' top-level categories from the slug of its
  // English name ("health-fitness" -> "Gesundheit & Fitness"); nullopt for any other category.
  std::optional<std::string> category_name(std::string_view category_slug) const;
  // The name of a language in this locale ("en-US" -> "الإنجليزية (الولايات المتحدة)"); the
  // tag itself when ICU does not know the language.
  std::string language_name(std::string_view language_tag) const;
  // The name of the region a language tag names, in this locale ("ar-EG" -> "مصر"); "" when the
  // tag names none, or one ICU does not know.
  std::string region_name(std::string_view language_tag) const;
  // The locale as Open Graph writes it: language_TERRITORY with the likely territory ("ar_EG").
  std::string open_graph_locale() const;
  // A calendar date in the locale's medium format.
  std::string date(std::int64_t t) const;
  // True when a sorts before b in the locale's collation order (for lists of titles).
  bool collate_less(std::string_view a, std::string_view b) const;

private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

// The locale tags that have a catalog in locales_dir, sorted.
std::vector<std::string> available_locales(const std::filesystem::path& locales_dir);

// The language a show is listed under, from its BCP 47 tag: the language subtag in lower case,
// regions and variants dropped ("en-US", "en-GB" -> "en"; "ar-EG" -> "ar"), except the script
// readers rely on: Chinese in Simplified or Traditional characters ("zh-TW", "zh-Hant-HK" ->
// "zh-hant"; "zh-CN", "zh-SG" -> "zh-hans"; "zh" alone stays), and the written script of the few
// languages written in two ("sr-Latn" -> "sr-latn"). "" for no language ("", "und", malformed).
std::string language_group(std::string_view tag);

// Text in lower-case ASCII: transliterated to Latin (ICU's "Any-Latin; Latin-ASCII; Lower"),
// cut to 1 KiB first; ASCII text is only lower-cased. Each thread has its own transliterator and
// remembers the texts it romanized lately, so recurring words cost a look-up.
std::string romanize(std::string_view text);

// An ASCII slug of text (romanize()): transliterated to Latin (ICU), accents removed, lower case,
// runs of anything else as one '-', trimmed, at most max_length characters cut at a '-'. Empty when
// nothing transliterates.
std::string slugify(std::string_view text, std::size_t max_length = 80);

} // namespace podcrawl::l10n

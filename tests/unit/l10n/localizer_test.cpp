#include "podcrawl/l10n/localizer.hpp"
#include "podcrawl/core/config.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "podcrawl/core/error.hpp"
#include "support/temp_dir.hpp"

namespace podcrawl::l10n {
namespace {

const std::filesystem::path k_locales_dir =
    std::filesystem::path(podcrawl::core::source_dir()) / "config" / "locales";

// 2025-06-10T12:00:00Z, a Tuesday.
constexpr std::int64_t k_now = 1749556800;
constexpr std::int64_t k_day = 86400;

struct CountCase {
  std::int64_t n;
  std::string expected;
};

TEST(LocalizerCount, PicksEachOfTheSixArabicPluralCategories) {
  const Localizer arabic(k_locales_dir, "ar");
  // CLDR: 0 zero, 1 one, 2 two, 3-10 few, 11-99 many, 100-102 other.
  const CountCase cases[] = {
      {0, "لا حلقات"},   {1, "حلقة واحدة"}, {2, "حلقتان"},     {3, "3 حلقات"},
      {10, "10 حلقات"},  {11, "11 حلقة"},   {83, "83 حلقة"},   {99, "99 حلقة"},
      {100, "100 حلقة"}, {101, "101 حلقة"}, {102, "102 حلقة"}, {103, "103 حلقات"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(arabic.count("episodes", c.n), c.expected) << "n = " << c.n;
  }
}

TEST(LocalizerCount, NeverUsesThePluralNounForManyInArabic) {
  const Localizer arabic(k_locales_dir, "ar");
  for (const std::int64_t n : {11, 25, 83, 99, 111}) {
    const std::string text = arabic.count("episodes", n);
    EXPECT_EQ(text.find("حلقات"), std::string::npos) << text;
    EXPECT_NE(text.find(std::to_string(n)), std::string::npos) << text;
  }
}

TEST(LocalizerCount, UsesEnglishSingularAndPluralWithGrouping) {
  const Localizer english(k_locales_dir, "en");
  const CountCase cases[] = {
      {0, "No episodes"},  {1, "1 episode"},         {2, "2 episodes"},
      {83, "83 episodes"}, {1234, "1,234 episodes"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(english.count("episodes", c.n), c.expected) << "n = " << c.n;
  }
}

struct RelativeCase {
  std::int64_t then;
  std::string english;
};

TEST(LocalizerRelativeTime, PicksTheLargestCalendarUnit) {
  const Localizer english(k_locales_dir, "en");
  const RelativeCase cases[] = {
      {1623326400, "4 years ago"},         // 2021-06-10T12:00:00Z
      {1623326400 + 1, "3 years ago"},     // one second short of four calendar years
      {k_now - 35 * k_day, "5 weeks ago"}, // one calendar month, so weeks say more
      {k_now - 45 * k_day, "6 weeks ago"},
      {k_now - 70 * k_day, "2 months ago"},
      {k_now - 330 * k_day, "10 months ago"},
      {k_now - 3 * k_day, "3 days ago"},
      {k_now - 5 * 3600, "5 hours ago"},
      {k_now - 7 * 60, "7 minutes ago"},
      {k_now - 20, "now"},
      {k_now + 3 * k_day, "in 3 days"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(english.relative_time(c.then, k_now), c.english) << "then = " << c.then;
  }
}

TEST(LocalizerRelativeTime, GivesIcusArabicPhraseWithOneWordForAgo) {
  const Localizer arabic(k_locales_dir, "ar");
  EXPECT_EQ(arabic.relative_time(1623326400, k_now), "قبل 4 سنوات");
  EXPECT_EQ(arabic.relative_time(k_now - 35 * k_day, k_now), "قبل 5 أسابيع");
  const std::string phrase = arabic.relative_time(k_now - 83 * k_day, k_now);
  EXPECT_EQ(phrase.find("منذ"), std::string::npos) << phrase;
  EXPECT_EQ(phrase.rfind("قبل", 0), 0U) << phrase;
}

TEST(LocalizerRelativeTime, ClampsAbsurdFeedDates) {
  const Localizer english(k_locales_dir, "en");
  EXPECT_NO_THROW(english.relative_time(INT64_MIN, k_now));
  EXPECT_NO_THROW(english.relative_time(INT64_MAX, k_now));
}

TEST(LocalizerNumbers, FormatsDurationsAsAClock) {
  const Localizer english(k_locales_dir, "en");
  const CountCase cases[] = {
      {0, "0:00"},       {59, "0:59"},        {1968, "32:48"},
      {3723, "1:02:03"}, {36000, "10:00:00"}, {-5, "0:00"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(english.duration(c.n), c.expected) << "seconds = " << c.n;
  }
}

TEST(LocalizerNumbers, UsesThePinnedArabicDigits) {
  const Localizer arabic(k_locales_dir, "ar");
  EXPECT_EQ(arabic.duration(1968), "32:48");
  EXPECT_EQ(arabic.count("episodes", 83), "83 حلقة");
  EXPECT_EQ(Localizer(k_locales_dir, "en").number(1234567), "1,234,567");
}

TEST(LocalizerNumbers, SpeaksDurationsInWordsForScreenReaders) {
  const struct {
    const char* tag;
    std::int64_t seconds;
    const char* expected;
  } cases[] = {
      {"en", 1968, "32 minutes, 48 seconds"},
      {"en", 3723, "1 hour, 2 minutes, 3 seconds"},
      {"en", 3600, "1 hour"},
      {"en", 0, "0 seconds"},
      {"en", -5, "0 seconds"},
      {"de", 1968, "32 Minuten, 48 Sekunden"},
      {"ar", 1968, "32 دقيقة و48 ثانية"},
      {"ru", 1968, "32 минуты 48 секунд"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(Localizer(k_locales_dir, c.tag).spoken_duration(c.seconds), c.expected)
        << c.tag << " " << c.seconds;
  }
}

TEST(LocalizerNames, NamesLanguagesInTheInterfaceLanguage) {
  EXPECT_EQ(Localizer(k_locales_dir, "de").language_name("en"), "Englisch");
  EXPECT_EQ(Localizer(k_locales_dir, "en").language_name("ar"), "Arabic");
  EXPECT_EQ(Localizer(k_locales_dir, "en").language_name("qqq"), "qqq");
}

TEST(LocalizerNames, NamesTheRegionOfALanguageTag) {
  EXPECT_EQ(Localizer(k_locales_dir, "en").region_name("ar-EG"), "Egypt");
  EXPECT_EQ(Localizer(k_locales_dir, "ar").region_name("ar-EG"), "مصر");
  EXPECT_EQ(Localizer(k_locales_dir, "en").region_name("ar"), "");
  EXPECT_EQ(Localizer(k_locales_dir, "en").region_name("en-QQ"), "");
}

TEST(LocalizerNames, GivesTheOpenGraphLocale) {
  EXPECT_EQ(Localizer(k_locales_dir, "en").open_graph_locale(), "en_US");
  EXPECT_EQ(Localizer(k_locales_dir, "pt-BR").open_graph_locale(), "pt_BR");
  EXPECT_EQ(Localizer(k_locales_dir, "zh-Hant").open_graph_locale(), "zh_TW");
  EXPECT_EQ(Localizer(k_locales_dir, "ar").open_graph_locale(), "ar_EG");
}

TEST(LocalizerDates, FormatsTheMediumDateInUtc) {
  const Localizer english(k_locales_dir, "en");
  EXPECT_EQ(english.date(k_now), "Jun 10, 2025");
  EXPECT_EQ(english.date(1749599999), "Jun 10, 2025"); // 23:59:59Z, still the 10th in UTC
}

TEST(LocalizerCatalog, DescribesDirectionAndNativeName) {
  const Localizer arabic(k_locales_dir, "ar");
  EXPECT_TRUE(arabic.right_to_left());
  EXPECT_EQ(arabic.native_name(), "العربية");
  EXPECT_EQ(arabic.tag(), "ar");
  EXPECT_FALSE(Localizer(k_locales_dir, "en").right_to_left());
}

TEST(LocalizerCatalog, FormatsAStringArgument) {
  const Localizer english(k_locales_dir, "en");
  EXPECT_EQ(english.format("by_author", "PyTorch"), "by PyTorch");
  EXPECT_THROW(english.text("no_such_key"), core::EnvironmentError);
}

TEST(LocalizerCatalog, EveryCatalogHasEveryEnglishKey) {
  const auto tags = available_locales(k_locales_dir);
  ASSERT_GE(tags.size(), 2U);
  for (const auto& tag : tags) {
    // The constructor refuses a catalog lacking a key of en.toml.
    const Localizer localizer(k_locales_dir, tag);
    EXPECT_FALSE(localizer.text("site_name").empty()) << tag;
    EXPECT_FALSE(localizer.count("episodes", 83).empty()) << tag;
  }
}

TEST(LocalizerCatalog, RejectsACatalogLackingAKeyAndNamesIt) {
  const testing::TempDir dir;
  const std::string english = testing::read_file(k_locales_dir / "en.toml");
  testing::write_file(dir.path() / "en.toml", english);
  std::string incomplete = english;
  const auto line = incomplete.find("site_tagline =");
  ASSERT_NE(line, std::string::npos);
  incomplete.erase(line, incomplete.find('\n', line) - line + 1);
  testing::write_file(dir.path() / "xx.toml", incomplete);
  EXPECT_NO_THROW(Localizer(dir.path(), "en"));
  try {
    const Localizer broken(dir.path(), "xx");
    FAIL() << "a catalog without every key loaded";
  } catch (const core::EnvironmentError& error) {
    EXPECT_NE(std::string(error.what()).find("site_tagline"), std::string::npos) << error.what();
  }
}

TEST(LocalizerCatalog, RejectsACatalogWithoutAPinnedNumberingSystem) {
  const testing::TempDir dir;
  const std::string english = testing::read_file(k_locales_dir / "en.toml");
  std::string unpinned = english;
  unpinned.replace(unpinned.find("en-u-nu-latn"), 12, "en");
  testing::write_file(dir.path() / "en.toml", unpinned);
  EXPECT_THROW(Localizer(dir.path(), "en"), core::EnvironmentError);
}

TEST(LocalizerCatalog, RejectsUnknownAndMalformedTags) {
  for (const std::string tag : {"xx", "", "../en", "en/..", "en.toml", "e n"}) {
    EXPECT_THROW(Localizer(k_locales_dir, tag), core::UsageError) << tag;
  }
}

} // namespace
} // namespace podcrawl::l10n

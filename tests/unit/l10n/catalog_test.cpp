#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <toml++/toml.h>
#include <unicode/messagepattern.h>
#include <unicode/msgfmt.h>
#include <unicode/plurrule.h>

#include "podcrawl/core/config.hpp"
#include "podcrawl/core/error.hpp"
#include "podcrawl/l10n/localizer.hpp"
#include "support/temp_dir.hpp"

namespace podcrawl::l10n {
namespace {

const std::filesystem::path k_locales_dir =
    std::filesystem::path(podcrawl::core::source_dir()) / "config" / "locales";

// The locales the directory promises (issue: at least 20, four of them right-to-left).
const std::vector<std::string> k_required_locales = {
    "ar", "fa", "he", "ur", "en", "es", "fr", "de", "it",      "pt-BR",
    "ru", "tr", "pl", "hi", "bn", "id", "ja", "ko", "zh-Hans", "zh-Hant",
};
const std::set<std::string> k_right_to_left = {"ar", "fa", "he", "ur"};

// One catalog file read straight from TOML, independently of the loader under test.
struct RawCatalog {
  std::string icu_locale;
  std::string direction;
  std::map<std::string, std::string> messages; // "category.arts" for [messages.category] arts
};

RawCatalog read_raw(const std::string& tag) {
  const toml::table table = toml::parse_file((k_locales_dir / (tag + ".toml")).string());
  RawCatalog catalog;
  catalog.icu_locale = table["locale"]["icu"].value_or(std::string());
  catalog.direction = table["locale"]["direction"].value_or(std::string());
  for (const auto& [key, node] : *table["messages"].as_table()) {
    if (const auto* group = node.as_table()) {
      for (const auto& [inner, value] : *group) {
        catalog.messages[std::string(key.str()) + "." + std::string(inner.str())] =
            value.value_or(std::string("<not a string>"));
      }
    } else {
      catalog.messages[std::string(key.str())] = node.value_or(std::string("<not a string>"));
    }
  }
  return catalog;
}

icu::UnicodeString unicode(const std::string& text) {
  return icu::UnicodeString::fromUTF8(text);
}

std::string utf8(const icu::UnicodeString& text) {
  std::string result;
  text.toUTF8String(result);
  return result;
}

icu::Locale icu_locale(const RawCatalog& catalog) {
  UErrorCode status = U_ZERO_ERROR;
  icu::Locale locale = icu::Locale::forLanguageTag(catalog.icu_locale, status);
  EXPECT_TRUE(U_SUCCESS(status)) << catalog.icu_locale;
  return locale;
}

// The plural keywords (not the "=0" explicit values) a MessageFormat pattern selects on.
std::set<std::string> plural_keywords(const std::string& pattern) {
  UErrorCode status = U_ZERO_ERROR;
  UParseError parse_error{};
  const icu::MessagePattern parsed(unicode(pattern), &parse_error, status);
  std::set<std::string> keywords;
  bool in_plural = false;
  for (int32_t i = 0; U_SUCCESS(status) && i < parsed.countParts(); ++i) {
    const auto& part = parsed.getPart(i);
    if (part.getType() == UMSGPAT_PART_TYPE_ARG_START) {
      in_plural = part.getArgType() == UMSGPAT_ARG_TYPE_PLURAL;
    }
    if (in_plural && part.getType() == UMSGPAT_PART_TYPE_ARG_SELECTOR) {
      const std::string selector = utf8(parsed.getSubstring(part));
      if (!selector.starts_with("=")) {
        keywords.insert(selector);
      }
    }
  }
  return keywords;
}

std::set<std::string> cldr_keywords(const icu::Locale& locale) {
  UErrorCode status = U_ZERO_ERROR;
  const std::unique_ptr<icu::PluralRules> rules(icu::PluralRules::forLocale(locale, status));
  const std::unique_ptr<icu::StringEnumeration> names(rules->getKeywords(status));
  std::set<std::string> keywords;
  while (const char* name = names->next(nullptr, status)) {
    keywords.insert(name);
  }
  return keywords;
}

TEST(Catalogs, CoverEveryPromisedLocaleWithTheRightDirection) {
  const auto available = available_locales(k_locales_dir);
  EXPECT_GE(available.size(), 20U);
  for (const auto& tag : k_required_locales) {
    ASSERT_TRUE(std::find(available.begin(), available.end(), tag) != available.end()) << tag;
    const Localizer localizer(k_locales_dir, tag);
    EXPECT_EQ(localizer.right_to_left(), k_right_to_left.contains(tag)) << tag;
    EXPECT_EQ(read_raw(tag).direction, k_right_to_left.contains(tag) ? "rtl" : "ltr") << tag;
  }
}

TEST(Catalogs, HoldExactlyTheKeysOfTheEnglishCatalog) {
  const RawCatalog english = read_raw("en");
  ASSERT_GT(english.messages.size(), 40U);
  for (const auto& tag : available_locales(k_locales_dir)) {
    const RawCatalog catalog = read_raw(tag);
    for (const auto& [key, message] : english.messages) {
      EXPECT_TRUE(catalog.messages.contains(key)) << tag << " misses " << key;
    }
    for (const auto& [key, message] : catalog.messages) {
      EXPECT_TRUE(english.messages.contains(key)) << tag << " has extra key " << key;
      EXPECT_FALSE(message.empty()) << tag << " " << key;
    }
  }
}

TEST(Catalogs, HoldOnlyMessagesThatCompileWithIcu) {
  for (const auto& tag : available_locales(k_locales_dir)) {
    const RawCatalog catalog = read_raw(tag);
    const icu::Locale locale = icu_locale(catalog);
    for (const auto& [key, pattern] : catalog.messages) {
      UErrorCode status = U_ZERO_ERROR;
      UParseError parse_error{};
      const icu::MessageFormat format(unicode(pattern), locale, parse_error, status);
      EXPECT_TRUE(U_SUCCESS(status)) << tag << " " << key << ": " << u_errorName(status)
                                     << " at offset " << parse_error.offset;
    }
  }
}

TEST(Catalogs, NameEveryCldrPluralCategoryOfTheirLanguage) {
  for (const auto& tag : available_locales(k_locales_dir)) {
    const RawCatalog catalog = read_raw(tag);
    const std::set<std::string> expected = cldr_keywords(icu_locale(catalog));
    for (const auto& [key, pattern] : catalog.messages) {
      if (pattern.find("plural") == std::string::npos) {
        continue;
      }
      // A missing category silently falls back to "other": "83 حلقات" instead of "83 حلقة".
      EXPECT_EQ(plural_keywords(pattern), expected) << tag << " " << key;
    }
  }
}

TEST(Catalogs, PinANumberingSystem) {
  for (const auto& tag : available_locales(k_locales_dir)) {
    EXPECT_NE(read_raw(tag).icu_locale.find("-u-nu-"), std::string::npos) << tag;
  }
}

TEST(Catalogs, TranslateTheSentencesInsteadOfFallingBackToEnglish) {
  const RawCatalog english = read_raw("en");
  const char* sentences[] = {"site_tagline",    "footer",         "not_found_title",
                             "not_found_text",  "back_home",      "audio_fallback",
                             "latest_episodes", "category.music", "category.society-culture"};
  for (const auto& tag : available_locales(k_locales_dir)) {
    if (tag == "en") {
      continue;
    }
    const RawCatalog catalog = read_raw(tag);
    for (const char* key : sentences) {
      EXPECT_NE(catalog.messages.at(key), english.messages.at(key)) << tag << " " << key;
    }
  }
}

struct PluralCase {
  std::int64_t n;
  std::string episodes;
};

void expect_counts(const std::string& tag, const std::vector<PluralCase>& cases) {
  const Localizer localizer(k_locales_dir, tag);
  for (const auto& c : cases) {
    EXPECT_EQ(localizer.count("episodes", c.n), c.episodes) << tag << " n = " << c.n;
  }
}

TEST(CatalogPlurals, ArabicUsesAllSixCategories) {
  expect_counts("ar", {{0, "لا حلقات"},
                       {1, "حلقة واحدة"},
                       {2, "حلقتان"},
                       {3, "3 حلقات"},
                       {11, "11 حلقة"},
                       {100, "100 حلقة"}});
}

TEST(CatalogPlurals, RussianUsesOneFewAndMany) {
  expect_counts("ru", {{0, "Нет выпусков"},
                       {1, "1 выпуск"},
                       {2, "2 выпуска"},
                       {3, "3 выпуска"},
                       {11, "11 выпусков"},
                       {21, "21 выпуск"},
                       {100, "100 выпусков"}});
}

TEST(CatalogPlurals, PolishUsesOneFewAndMany) {
  expect_counts("pl", {{0, "Brak odcinków"},
                       {1, "1 odcinek"},
                       {2, "2 odcinki"},
                       {3, "3 odcinki"},
                       {11, "11 odcinków"},
                       {22, "22 odcinki"},
                       {100, "100 odcinków"}});
}

TEST(CatalogPlurals, HebrewHasADual) {
  expect_counts("he", {{1, "פרק אחד"}, {2, "שני פרקים"}, {3, "3 פרקים"}, {100, "100 פרקים"}});
}

TEST(CatalogNumbers, UseEachLocalesPinnedDigits) {
  const struct {
    const char* tag;
    const char* duration; // 1968 seconds
  } cases[] = {
      {"fa", "۳۲:۴۸"}, {"bn", "৩২:৪৮"}, {"ar", "32:48"},
      {"hi", "32:48"}, {"ur", "32:48"}, {"ja", "32:48"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(Localizer(k_locales_dir, c.tag).duration(1968), c.duration) << c.tag;
  }
  EXPECT_EQ(Localizer(k_locales_dir, "fa").count("episodes", 83), "۸۳ قسمت");
}

TEST(CatalogCategories, TranslateApplesTopLevelCategoriesOnly) {
  const Localizer german(k_locales_dir, "de");
  EXPECT_EQ(german.category_name("technology"), std::optional<std::string>("Technologie"));
  EXPECT_EQ(german.category_name("health-fitness"),
            std::optional<std::string>("Gesundheit & Fitness"));
  EXPECT_EQ(german.category_name("tech-news"), std::nullopt);
  EXPECT_EQ(german.category_name(""), std::nullopt);
  EXPECT_EQ(Localizer(k_locales_dir, "ar").category_name("science"),
            std::optional<std::string>("علوم"));
}

TEST(CatalogLoading, RejectsACatalogWithAKeyEnglishLacks) {
  const testing::TempDir dir;
  const std::string english = testing::read_file(k_locales_dir / "en.toml");
  testing::write_file(dir.path() / "en.toml", english);
  std::string extra = english;
  extra.insert(extra.find("site_name ="), "site_nmae = \"typo\"\n");
  testing::write_file(dir.path() / "xx.toml", extra);
  try {
    const Localizer broken(dir.path(), "xx");
    FAIL() << "a catalog with an extra key loaded";
  } catch (const core::EnvironmentError& error) {
    EXPECT_NE(std::string(error.what()).find("site_nmae"), std::string::npos) << error.what();
  }
}

TEST(CatalogLoading, RejectsAMessageThatDoesNotCompile) {
  const testing::TempDir dir;
  std::string english = testing::read_file(k_locales_dir / "en.toml");
  const auto at = english.find("by_author = \"by {0}\"");
  ASSERT_NE(at, std::string::npos);
  english.replace(at, std::string("by_author = \"by {0}\"").size(), "by_author = \"by {0\"");
  testing::write_file(dir.path() / "en.toml", english);
  EXPECT_THROW(Localizer(dir.path(), "en"), core::EnvironmentError);
}

} // namespace
} // namespace podcrawl::l10n

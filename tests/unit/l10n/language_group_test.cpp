#include <gtest/gtest.h>

#include <string>

#include "podcrawl/l10n/localizer.hpp"

namespace podcrawl::l10n {
namespace {

TEST(LanguageGroup, RegionsOfALanguageAreOneLanguage) {
  EXPECT_EQ(language_group("en-US"), "en");
  EXPECT_EQ(language_group("en_GB"), "en");
  EXPECT_EQ(language_group("EN"), "en");
  EXPECT_EQ(language_group("ar-EG"), "ar");
  EXPECT_EQ(language_group("es-419"), "es");
  EXPECT_EQ(language_group("pt-BR"), "pt");
  EXPECT_EQ(language_group("de-CH-1996"), "de");
  EXPECT_EQ(language_group("fil-PH"), "fil");
}

TEST(LanguageGroup, ChineseIsApartByScript) {
  EXPECT_EQ(language_group("zh-CN"), "zh-hans");
  EXPECT_EQ(language_group("zh-SG"), "zh-hans");
  EXPECT_EQ(language_group("zh-Hans"), "zh-hans");
  EXPECT_EQ(language_group("zh-TW"), "zh-hant");
  EXPECT_EQ(language_group("zh-HK"), "zh-hant");
  EXPECT_EQ(language_group("zh-Hant-HK"), "zh-hant");
  EXPECT_EQ(language_group("zh-Hans-HK"), "zh-hans");
  EXPECT_EQ(language_group("zh"), "zh");
  EXPECT_EQ(language_group("sr-Latn-RS"), "sr-latn");
  EXPECT_EQ(language_group("en-Latn-US"), "en"); // English is written one way
}

TEST(LanguageGroup, WhatIsNoLanguageIsNoGroup) {
  for (const char* tag : {"", "und", "x", "english", "<script>", "e1-US", "-en", "zh-Hant-TW-"}) {
    EXPECT_EQ(language_group(tag), "") << tag;
  }
  EXPECT_EQ(language_group(std::string(100, 'a')), "");
}

} // namespace
} // namespace podcrawl::l10n

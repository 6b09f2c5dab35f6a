#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "language_internal.hpp"

namespace podcrawl::feed {
namespace {

using internal::canonical_language;
using internal::parse_explicit;

struct LanguageCase {
  std::string_view text;
  std::string_view expected;
};

constexpr LanguageCase k_languages[] = {
    {"en", "en"},      {"en-us", "en-US"}, {"EN-US", "en-US"}, {"en_GB", "en-GB"},
    {" ar ", "ar"},    {"ar-SA", "ar-SA"}, {"pt-br", "pt-BR"}, {"zh-hant-tw", "zh-Hant-TW"},
    {"English", "en"}, {"english", "en"},  {"German", "de"},   {"Arabic", "ar"},
    {"Deutsch", "de"}, {"fr", "fr"},       {"iw", "he"},       {"iw-IL", "he-IL"},
    {"in", "id"},
};

constexpr std::string_view k_not_languages[] = {
    "", "   ", "zz", "xx-yy", "not a language", "12", "en--us", "a", "Klingonese", "en-us-",
};

TEST(CanonicalLanguage, ReturnsBcp47TagsForCodesAndNames) {
  for (const LanguageCase& row : k_languages) {
    SCOPED_TRACE(std::string(row.text));
    EXPECT_EQ(canonical_language(row.text), row.expected);
  }
}

TEST(CanonicalLanguage, ReturnsEmptyForJunk) {
  for (std::string_view text : k_not_languages) {
    SCOPED_TRACE(std::string(text));
    EXPECT_EQ(canonical_language(text), "");
  }
}

TEST(ParseExplicit, ReadsTheSpellingsFeedsUse) {
  for (std::string_view yes : {"yes", "Yes", "TRUE", "explicit", " true "}) {
    EXPECT_EQ(parse_explicit(yes), true) << yes;
  }
  for (std::string_view no : {"no", "No", "false", "clean", "Clean"}) {
    EXPECT_EQ(parse_explicit(no), false) << no;
  }
  for (std::string_view junk : {"", "maybe", "1", "0", "y"}) {
    EXPECT_EQ(parse_explicit(junk), std::nullopt) << junk;
  }
}

} // namespace
} // namespace podcrawl::feed

#include "podcrawl/serve/negotiate.hpp"

#include <gtest/gtest.h>

namespace podcrawl::serve {
namespace {

struct NegotiateCase {
  const char* header;
  const char* expected;
};

TEST(NegotiateLocale, PicksTheBestAvailableLanguage) {
  const std::vector<std::string> available = {"ar", "en", "fr"};
  const NegotiateCase cases[] = {
      {"ar", "ar"},
      {"ar-EG,ar;q=0.9,en;q=0.8", "ar"},
      {"de-DE,fr;q=0.5,en;q=0.7", "en"},
      {"en-US", "en"},
      {"FR-ca", "fr"},
      {"ar;q=0, en", "en"},
      {"de, ja", ""},
      {"", ""},
      {"*", ""},
      {"ar;q=0.1, fr;q=0.2", "fr"},
      {"en_GB", "en"},
      {"not a tag!!, fr", "fr"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(negotiate_locale(c.header, available), c.expected) << c.header;
  }
}

TEST(NegotiateLocale, UsesCldrLanguageDistancesForScriptsAndRegions) {
  const std::vector<std::string> available = {"en", "pt-BR", "zh-Hans", "zh-Hant", "fa"};
  const NegotiateCase cases[] = {
      {"zh-TW", "zh-Hant"}, {"zh-HK", "zh-Hant"}, {"zh-CN", "zh-Hans"}, {"zh", "zh-Hans"},
      {"pt-PT", "pt-BR"},   {"pt", "pt-BR"},      {"fa-AF", "fa"},      {"ja, en;q=0.5", "en"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(negotiate_locale(c.header, available), c.expected) << c.header;
  }
}

TEST(NegotiateLocale, IgnoresRangesPastTheBound) {
  std::string header;
  for (int i = 0; i < 100; ++i) {
    header += "xx-" + std::to_string(i) + ",";
  }
  EXPECT_EQ(negotiate_locale(header + "en", {"en"}), "");
  EXPECT_EQ(negotiate_locale("en," + header, {"en"}), "en");
}

TEST(NotFoundLocale, PrefersThePathThenTheHeaderThenTheFirstLocale) {
  const std::vector<std::string> available = {"en", "ar", "zh-Hant"};
  const struct {
    const char* path;
    const char* header;
    const char* expected;
  } cases[] = {
      {"/ar/podcasts/missing/", "en", "ar"},
      {"/zh-Hant/x", "", "zh-Hant"},
      {"/ar", "en", "ar"},
      {"/xx/podcasts/", "ar-SA", "ar"},
      {"/missing", "de", "en"},
      {"/", "", "en"},
      {"", "zh-TW", "zh-Hant"},
      {"/AR/x", "", "en"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(not_found_locale(c.path, c.header, available), c.expected) << c.path;
  }
  EXPECT_EQ(not_found_locale("/ar/", "ar", {}), "");
}

} // namespace
} // namespace podcrawl::serve

#include "podcrawl/cli/negotiate.hpp"

#include <gtest/gtest.h>

namespace podcrawl::cli {
namespace {

TEST(NegotiateLocale, PicksTheBestAvailableLanguage) {
  const std::vector<std::string> available = {"ar", "en", "fr"};
  const struct {
    const char* header;
    const char* expected;
  } cases[] = {
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
  };
  for (const auto& c : cases) {
    EXPECT_EQ(negotiate_locale(c.header, available), c.expected) << c.header;
  }
}

} // namespace
} // namespace podcrawl::cli

#include "podcrawl/core/time.hpp"

#include <gtest/gtest.h>

#include "podcrawl/core/error.hpp"
#include "support/temp_dir.hpp"

namespace podcrawl::core {
namespace {

struct Iso8601Case {
  const char* text;
  UnixSeconds expected;
};

TEST(ParseIso8601, AcceptsTheFormsFeedsAndFlagsUse) {
  const Iso8601Case cases[] = {
      {"1970-01-01T00:00:00Z", 0},
      {"2026-12-02T14:19:44Z", 1796221184},
      {"2026-12-02T14:19:44+02:00", 1796221184 - 7200},
      {"2026-12-02T14:19:44-0500", 1796221184 + 18000},
      {"2026-12-02T14:19:44.123Z", 1796221184},
      {"2026-12-02 14:19:44Z", 1796221184},
      {"2026-12-02T14:19Z", 1796221184 - 44},
      {"2026-12-02", 1796169600},
      {"  2000-02-29T00:00:00Z  ", 951782400},
      {"2026-12-02T14:19:44", 1796221184},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(parse_iso8601(c.text), std::optional<UnixSeconds>(c.expected)) << c.text;
  }
}

TEST(ParseIso8601, RejectsWhatIsNotATime) {
  for (const char* text :
       {"", "yesterday", "2026-13-01", "2026-12-32", "2026/12/02", "2026-12-02T25:00Z",
        "2026-12-02T14:19:44+", "2026-12-02Tnoon", "2026-12-02T14:19:44Z trailing"}) {
    EXPECT_FALSE(parse_iso8601(text).has_value()) << text;
  }
}

TEST(FormatIso8601, WritesUtcWithZ) {
  EXPECT_EQ(format_iso8601(0), "1970-01-01T00:00:00Z");
  EXPECT_EQ(format_iso8601(1796221184), "2026-12-02T14:19:44Z");
}

TEST(ResolveRenderTime, PrefersTheNowOptionOverSourceDateEpoch) {
  testing::ScopedEnv epoch("SOURCE_DATE_EPOCH", "1000");
  EXPECT_EQ(resolve_render_time(std::string("1970-01-01T00:01:00Z")), 60);
  EXPECT_EQ(resolve_render_time(std::nullopt), 1000);
}

TEST(ResolveRenderTime, RejectsMalformedInput) {
  testing::ScopedEnv epoch("SOURCE_DATE_EPOCH", "12abc");
  EXPECT_THROW(resolve_render_time(std::string("not a date")), UsageError);
  EXPECT_THROW(resolve_render_time(std::nullopt), UsageError);
}

TEST(ResolveRenderTime, FallsBackToTheClock) {
  testing::ScopedEnv epoch("SOURCE_DATE_EPOCH", std::nullopt);
  const UnixSeconds before = now();
  const UnixSeconds resolved = resolve_render_time(std::nullopt);
  EXPECT_GE(resolved, before);
  EXPECT_LE(resolved, now());
}

} // namespace
} // namespace podcrawl::core

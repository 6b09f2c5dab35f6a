#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "duration_internal.hpp"

namespace podcrawl::feed {
namespace {

using internal::k_max_duration_seconds;
using internal::parse_duration;

struct DurationCase {
  std::string_view text;
  std::int64_t expected_seconds;
};

constexpr DurationCase k_accepted[] = {
    {"1968", 1968},        {"0", 0},
    {" 600 ", 600},        {"1968.4", 1968},
    {"1968.6", 1969},      {"32:48", 1968},
    {"10:00", 600},        {"75:00", 4500},
    {"1:02:03", 3723},     {"01:02:03", 3723},
    {"00:20:00", 1200},    {"1:02:03.5", 3724},
    {"1h 2m 3s", 3723},    {"1h2m3s", 3723},
    {"1H 2M 3S", 3723},    {"90 min", 5400},
    {"45 minutes", 2700},  {"2 hours", 7200},
    {"1 hr 5 mins", 3900}, {"30 sec", 30},
    {"PT1H2M3S", 3723},    {"PT45M", 2700},
    {"PT30.5S", 31},       {"P1DT1H", 90000},
    {"pt1h", 3600},        {"100:00:00", 360000},
};

constexpr std::string_view k_rejected[] = {
    "",    "   ",    "abc",       "-5",    "1:2:3:4", "1::2", "12:60", "1:60:00",
    "PT",  "P1M",    "5 parsecs", "1h 2x", "1e5",     ":30",  "30:",   "99999999999",
    "NaN", "1.5:00", "10 min 5",  "0x10",  "P1H",     "—",
};

TEST(ParseDuration, AcceptsTheDurationFormsFeedsUse) {
  for (const DurationCase& row : k_accepted) {
    SCOPED_TRACE(std::string(row.text));
    auto parsed = parse_duration(row.text);
    ASSERT_TRUE(parsed.has_value());
    EXPECT_EQ(*parsed, row.expected_seconds);
  }
}

TEST(ParseDuration, RejectsJunkNegativeAndHugeValues) {
  for (std::string_view text : k_rejected) {
    SCOPED_TRACE(std::string(text));
    EXPECT_FALSE(parse_duration(text).has_value());
  }
}

TEST(ParseDuration, AcceptsTheLongestAllowedDurationAndNothingLonger) {
  EXPECT_EQ(parse_duration(std::to_string(k_max_duration_seconds)), k_max_duration_seconds);
  EXPECT_FALSE(parse_duration(std::to_string(k_max_duration_seconds + 1)).has_value());
}

} // namespace
} // namespace podcrawl::feed

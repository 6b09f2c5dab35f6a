#include <gtest/gtest.h>

#include <string>

#include "podcrawl/store/records.hpp"

namespace podcrawl::store {
namespace {

TEST(FeedStatusText, RoundTripsEveryStatus) {
  for (const FeedStatus status :
       {FeedStatus::active, FeedStatus::failing, FeedStatus::gone, FeedStatus::removed}) {
    const auto parsed = parse_feed_status(to_string(status));
    ASSERT_TRUE(parsed.has_value()) << to_string(status);
    EXPECT_EQ(*parsed, status);
  }
}

TEST(FeedStatusText, AcceptsTheNamesOfTheListJsonShape) {
  const struct {
    const char* text;
    FeedStatus status;
  } accept[] = {
      {"active", FeedStatus::active},
      {"failing", FeedStatus::failing},
      {"gone", FeedStatus::gone},
      {"removed", FeedStatus::removed},
  };
  for (const auto& row : accept) {
    EXPECT_EQ(parse_feed_status(row.text), row.status) << row.text;
  }
}

TEST(FeedStatusText, RejectsAnythingElse) {
  for (const char* text : {"", "Active", "ACTIVE", " active", "active ", "all", "fail", "gone\n"}) {
    EXPECT_FALSE(parse_feed_status(text).has_value()) << '"' << text << '"';
  }
}

} // namespace
} // namespace podcrawl::store

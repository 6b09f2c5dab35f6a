#include "podcrawl/store/records.hpp"

#include <array>
#include <string_view>
#include <utility>

namespace podcrawl::store {
namespace {

constexpr std::array<std::pair<FeedStatus, const char*>, 4> k_status_names = {{
    {FeedStatus::active, "active"},
    {FeedStatus::failing, "failing"},
    {FeedStatus::gone, "gone"},
    {FeedStatus::removed, "removed"},
}};

} // namespace

const char* to_string(FeedStatus status) {
  for (const auto& [value, name] : k_status_names) {
    if (value == status) {
      return name;
    }
  }
  return "active";
}

std::optional<FeedStatus> parse_feed_status(std::string_view text) {
  for (const auto& [value, name] : k_status_names) {
    if (text == name) {
      return value;
    }
  }
  return std::nullopt;
}

} // namespace podcrawl::store

#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace podcrawl::feed::internal {

// Longest date text considered, in bytes.
inline constexpr std::size_t k_max_date_length = 128;

// Parse a feed date into Unix seconds (UTC): the RFC 822 family as feeds really write it
// (with or without weekday, seconds or zone; two-digit years; named zones such as EST, CEST,
// JST; numeric offsets; any case; full month names and "Sept"), ISO 8601 / RFC 3339 in
// extended, basic, reduced and ordinal forms, asctime, and the Greek, Hungarian and Korean
// forms some feeds use. Returns nullopt for anything else or for an impossible date.
std::optional<std::int64_t> parse_date(std::string_view text);

} // namespace podcrawl::feed::internal

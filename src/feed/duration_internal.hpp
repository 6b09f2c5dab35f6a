#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace podcrawl::feed::internal {

// Longest duration accepted, in seconds (about four months): anything longer is an error.
inline constexpr std::int64_t k_max_duration_seconds = 10'000'000;

// Parse an episode duration into whole seconds: "1968", "1968.4", "32:48" (minutes may
// exceed 59), "1:02:03", "1h 2m 3s", "90 min", ISO 8601 "PT1H2M3S". Returns nullopt for
// anything else, negative values and values over k_max_duration_seconds.
std::optional<std::int64_t> parse_duration(std::string_view text);

} // namespace podcrawl::feed::internal

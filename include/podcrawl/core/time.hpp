#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace podcrawl::core {

// Seconds since the Unix epoch, UTC.
using UnixSeconds = std::int64_t;

// Return the current wall-clock time.
UnixSeconds now();

// Format as ISO 8601 UTC with a trailing Z, e.g. "2026-12-02T14:19:44Z".
std::string format_iso8601(UnixSeconds t);

// Parse an ISO 8601 / RFC 3339 timestamp ("2026-12-02", "2026-12-02T14:19:44Z",
// "2026-12-02T14:19:44+02:00", fractions allowed). Returns nullopt on anything else.
std::optional<UnixSeconds> parse_iso8601(std::string_view text);

// The render time: --now if given (ISO 8601, UsageError if malformed), else SOURCE_DATE_EPOCH
// (UsageError if not an integer), else the clock.
UnixSeconds resolve_render_time(const std::optional<std::string>& now_option);

} // namespace podcrawl::core

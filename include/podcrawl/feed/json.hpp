#pragma once

#include <nlohmann/json.hpp>

#include "podcrawl/feed/model.hpp"

namespace podcrawl::feed {

// The SPEC's `parse` / `show` JSON for a show and its episodes. Absent values are null.
nlohmann::json to_json(const Show& show);

} // namespace podcrawl::feed

#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "podcrawl/feed/model.hpp"

namespace podcrawl::feed {

// The SPEC's `parse` / `show` JSON for a show and its episodes. Absent values are null.
nlohmann::json to_json(const Show& show);

// The same document as to_json(show).dump(2), byte for byte, written without building the
// JSON tree first (a long feed's tree costs more than its parse).
std::string to_json_text(const Show& show);

} // namespace podcrawl::feed

#pragma once

#include <cstddef>

#include <nlohmann/json.hpp>

// What the JSON answers of the APIs share.
namespace podcrawl::render::internal {

using Json = nlohmann::ordered_json;

// Members of an object of the APIs' answers, at most: a feed or an episode has about 35.
inline constexpr std::size_t k_answer_members = 48;

// An empty object with room for `members`. An ordered_json object is a vector of (key, value)
// pairs, and it copies every member it holds each time it grows (a pair with a const key cannot
// be moved): a feed's notes, or the whole list of feeds of an answer.
inline Json object_with_room(std::size_t members = k_answer_members) {
  Json object = Json::object();
  object.get_ref<Json::object_t&>().reserve(members);
  return object;
}

} // namespace podcrawl::render::internal

// The JSON writer of the APIs' answers writes what nlohmann's dump writes of the same values.
#include "json_writer.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace podcrawl::render::internal {
namespace {

using Json = nlohmann::ordered_json;

std::string dumped(const Json& json, bool pretty) {
  return json.dump(pretty ? 4 : -1, ' ', false, Json::error_handler_t::replace);
}

// Nested objects and arrays (empty ones among them), every kind of value, and text with
// quotes, backslashes, every control character, non-ASCII, U+007F and ill-formed UTF-8.
std::string awkward_text() {
  std::string text =
      "\"quoted\" \\ slash / <tag> caf\xC3\xA9 \xD8\xB9\xD8\xB1\xD8\xA8\xD9\x8A \x7F";
  for (int c = 0; c < 0x20; ++c) {
    text += static_cast<char>(c);
  }
  return text;
}

void write_sample(JsonWriter& out) {
  out.begin_object();
  out.key("status").value("true");
  out.key("items").begin_array();
  for (int i = 0; i < 3; ++i) {
    out.begin_object();
    out.key("id").value(std::int64_t{9'007'199'254'740'993} + i);
    out.key("count").value(std::size_t{40});
    out.key("hash").value(std::uint32_t{4'294'967'295U});
    out.key("negative").value(-86'400);
    out.key("explicit").value(i % 2 == 0);
    out.key("none").null();
    out.key("maybe").value(i == 0 ? std::optional<std::int64_t>() : std::optional(std::int64_t{i}));
    out.key("text").value(awkward_text());
    out.key("categories").begin_object().end_object();
    out.key("tags").begin_array().end_array();
    out.key("nested").begin_array().value("a").begin_array().value(1).end_array().end_array();
    out.end_object();
  }
  out.end_array();
  out.key("empty").begin_array().end_array();
  out.key("bad utf-8").value(std::string("ok \xC3 \xFF\xFE end \xE2\x82"));
  out.end_object();
}

Json sample_tree() {
  Json json;
  json["status"] = "true";
  Json items = Json::array();
  for (int i = 0; i < 3; ++i) {
    Json item;
    item["id"] = std::int64_t{9'007'199'254'740'993} + i;
    item["count"] = std::size_t{40};
    item["hash"] = std::uint32_t{4'294'967'295U};
    item["negative"] = -86'400;
    item["explicit"] = i % 2 == 0;
    item["none"] = nullptr;
    item["maybe"] = i == 0 ? Json(nullptr) : Json(std::int64_t{i});
    item["text"] = awkward_text();
    item["categories"] = Json::object();
    item["tags"] = Json::array();
    item["nested"] = Json::array({"a", Json::array({1})});
    items.push_back(item);
  }
  json["items"] = items;
  json["empty"] = Json::array();
  json["bad utf-8"] = std::string("ok \xC3 \xFF\xFE end \xE2\x82");
  return json;
}

TEST(JsonWriter, WritesWhatDumpWritesCompactAndIndented) {
  for (const bool pretty : {false, true}) {
    JsonWriter out(pretty);
    write_sample(out);
    EXPECT_EQ(out.take(), dumped(sample_tree(), pretty)) << (pretty ? "indented" : "compact");
  }
}

TEST(JsonWriter, WritesLoneValuesAndEmptyContainers) {
  EXPECT_EQ(JsonWriter(true).begin_object().end_object().take(), "{}");
  EXPECT_EQ(JsonWriter(false).begin_array().end_array().take(), "[]");
  EXPECT_EQ(JsonWriter(true).value("a\nb").take(), "\"a\\nb\"");
  EXPECT_EQ(JsonWriter(false).null().take(), "null");
}

} // namespace
} // namespace podcrawl::render::internal

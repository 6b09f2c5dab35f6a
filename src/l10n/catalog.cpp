#include <cctype>
#include <string>

#include <toml++/toml.h>

#include "l10n_internal.hpp"
#include "podcrawl/core/error.hpp"

namespace podcrawl::l10n::internal {

namespace {

constexpr std::size_t k_max_tag_length = 35;
constexpr std::string_view k_reference_tag = "en";

toml::table parse_catalog_file(const std::filesystem::path& file) {
  try {
    return toml::parse_file(file.string());
  } catch (const toml::parse_error& error) {
    throw core::EnvironmentError("locale catalog " + file.string() + ": " +
                                 std::string(error.description()));
  }
}

std::string required_string(const toml::table& table, std::string_view key,
                            const std::filesystem::path& file) {
  const auto value = table["locale"][key].value<std::string>();
  if (!value || value->empty()) {
    throw core::EnvironmentError("locale catalog " + file.string() + ": [locale] " +
                                 std::string(key) + " is missing");
  }
  return *value;
}

// Adds the string messages of one table under prefix; a group ([messages.category]) is one
// level of subtable whose keys become "category.<key>".
void add_messages(const toml::table& table, const std::string& prefix, bool allow_groups,
                  const std::filesystem::path& file,
                  std::map<std::string, std::string, std::less<>>& result) {
  for (const auto& [key, node] : table) {
    const std::string name = prefix + std::string(key.str());
    if (const auto* group = node.as_table(); group != nullptr && allow_groups) {
      add_messages(*group, name + ".", false, file, result);
      continue;
    }
    const auto value = node.value<std::string>();
    if (!value) {
      throw core::EnvironmentError("locale catalog " + file.string() + ": message " + name +
                                   " is not a string");
    }
    result.emplace(name, *value);
  }
}

std::map<std::string, std::string, std::less<>> read_messages(const toml::table& table,
                                                              const std::filesystem::path& file) {
  const auto* messages = table["messages"].as_table();
  if (messages == nullptr) {
    throw core::EnvironmentError("locale catalog " + file.string() + ": no [messages] table");
  }
  std::map<std::string, std::string, std::less<>> result;
  add_messages(*messages, "", true, file, result);
  return result;
}

Catalog read_catalog(const std::filesystem::path& file, std::string_view tag) {
  const toml::table table = parse_catalog_file(file);
  Catalog catalog;
  catalog.tag = std::string(tag);
  catalog.native_name = required_string(table, "name", file);
  catalog.icu_locale = required_string(table, "icu", file);
  const std::string direction = required_string(table, "direction", file);
  if (direction != "rtl" && direction != "ltr") {
    throw core::EnvironmentError("locale catalog " + file.string() +
                                 ": [locale] direction must be \"rtl\" or \"ltr\"");
  }
  catalog.right_to_left = direction == "rtl";
  catalog.messages = read_messages(table, file);
  return catalog;
}

void require_keys_of(const Catalog& reference, const Catalog& catalog,
                     const std::filesystem::path& file) {
  for (const auto& [key, pattern] : reference.messages) {
    if (!catalog.messages.contains(key)) {
      throw core::EnvironmentError("locale catalog " + file.string() + " lacks message \"" + key +
                                   "\"");
    }
  }
  // A key the reference lacks is a misspelling or a leftover: no page would ever show it.
  for (const auto& [key, pattern] : catalog.messages) {
    if (!reference.messages.contains(key)) {
      throw core::EnvironmentError("locale catalog " + file.string() + " has message \"" + key +
                                   "\", which " + std::string(k_reference_tag) +
                                   ".toml does not have");
    }
  }
}

} // namespace

bool is_valid_tag(std::string_view tag) {
  if (tag.empty() || tag.size() > k_max_tag_length || tag.front() == '-') {
    return false;
  }
  for (const char c : tag) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '-') {
      return false;
    }
  }
  return true;
}

Catalog load_catalog(const std::filesystem::path& locales_dir, std::string_view tag) {
  if (!is_valid_tag(tag)) {
    throw core::UsageError("not a locale tag: \"" + std::string(tag) + "\"");
  }
  const auto file = locales_dir / (std::string(tag) + ".toml");
  std::error_code error;
  if (!std::filesystem::is_regular_file(file, error)) {
    throw core::UsageError("no catalog for locale \"" + std::string(tag) + "\" in " +
                           locales_dir.string());
  }
  Catalog catalog = read_catalog(file, tag);
  if (tag != k_reference_tag) {
    const auto reference_file = locales_dir / (std::string(k_reference_tag) + ".toml");
    require_keys_of(read_catalog(reference_file, k_reference_tag), catalog, file);
  }
  return catalog;
}

icu::UnicodeString from_utf8(std::string_view text) {
  return icu::UnicodeString::fromUTF8(
      icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
}

std::string to_utf8(const icu::UnicodeString& text) {
  std::string result;
  text.toUTF8String(result);
  return result;
}

} // namespace podcrawl::l10n::internal

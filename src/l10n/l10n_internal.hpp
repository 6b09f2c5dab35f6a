#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <string_view>

#include <unicode/unistr.h>

namespace podcrawl::l10n::internal {

// One config/locales/<tag>.toml, read and checked but not yet compiled.
struct Catalog {
  std::string tag;
  std::string native_name;
  bool right_to_left = false;
  std::string icu_locale; // BCP 47 with a pinned numbering system, e.g. "ar-u-nu-latn"
  std::map<std::string, std::string, std::less<>> messages;
};

// Load <locales_dir>/<tag>.toml. Throws core::UsageError for a malformed tag or a locale without a
// catalog, core::EnvironmentError for an unreadable or incomplete catalog (every key of en.toml
// must be present).
Catalog load_catalog(const std::filesystem::path& locales_dir, std::string_view tag);

// True for a locale tag that can name a catalog file: ASCII letters, digits and '-', bounded.
bool is_valid_tag(std::string_view tag);

icu::UnicodeString from_utf8(std::string_view text);
std::string to_utf8(const icu::UnicodeString& text);

} // namespace podcrawl::l10n::internal

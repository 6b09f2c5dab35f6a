#include <unicode/locid.h>
#include <unicode/uloc.h>
#include <unicode/unistr.h>

#include <array>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "language_internal.hpp"
#include "text_internal.hpp"

namespace podcrawl::feed::internal {
namespace {

// Longest language text considered, in bytes.
constexpr std::size_t k_max_language_text = 64;
constexpr std::int32_t k_locale_capacity = 160;

// The ISO 639 codes ICU knows.
const std::set<std::string, std::less<>>& language_codes() {
  static const std::set<std::string, std::less<>> codes = [] {
    std::set<std::string, std::less<>> built;
    for (const char* const* code = uloc_getISOLanguages(); *code != nullptr; ++code) {
      built.insert(*code);
    }
    return built;
  }();
  return codes;
}

std::string lower_unicode(const icu::UnicodeString& text) {
  icu::UnicodeString copy(text);
  std::string out;
  copy.toLower(icu::Locale::getEnglish()).toUTF8String(out);
  return out;
}

std::string display_name(const char* code, const char* in_locale) {
  std::array<UChar, k_locale_capacity> buffer{};
  UErrorCode status = U_ZERO_ERROR;
  std::int32_t length =
      uloc_getDisplayLanguage(code, in_locale, buffer.data(), k_locale_capacity, &status);
  if (U_FAILURE(status) || status == U_USING_DEFAULT_WARNING || length <= 0) {
    return {};
  }
  return lower_unicode(icu::UnicodeString(buffer.data(), length));
}

// Lower-case English or native language name -> code; built on first use, which only
// language text that is not a tag needs.
const std::map<std::string, std::string>& language_names() {
  static const std::map<std::string, std::string> names = [] {
    std::map<std::string, std::string> built;
    for (const char* in_locale : {"en", ""}) {
      for (const std::string& code : language_codes()) {
        std::string name = display_name(code.c_str(), *in_locale ? in_locale : code.c_str());
        if (!name.empty() && name != code) {
          built.emplace(name, code);
        }
      }
    }
    return built;
  }();
  return names;
}

bool looks_like_tag(std::string_view tag) {
  std::size_t start = 0;
  bool first = true;
  while (start <= tag.size()) {
    std::size_t end = tag.find('-', start);
    std::string_view subtag = tag.substr(start, end - start);
    if (subtag.empty() || subtag.size() > 8 ||
        subtag.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789") != std::string::npos) {
      return false;
    }
    if (first && (subtag.size() < 2 || subtag.size() > 3 ||
                  subtag.find_first_of("0123456789") != std::string::npos)) {
      return false;
    }
    first = false;
    if (end == std::string_view::npos) {
      break;
    }
    start = end + 1;
  }
  return true;
}

std::string tag_from_code(std::string_view tag) {
  std::array<char, k_locale_capacity> locale{};
  std::array<char, k_locale_capacity> language{};
  std::array<char, k_locale_capacity> canonical{};
  std::int32_t parsed = 0;
  UErrorCode status = U_ZERO_ERROR;
  std::string input(tag);
  uloc_forLanguageTag(input.c_str(), locale.data(), k_locale_capacity, &parsed, &status);
  if (U_FAILURE(status) || parsed != static_cast<std::int32_t>(input.size())) {
    return {};
  }
  uloc_getLanguage(locale.data(), language.data(), k_locale_capacity, &status);
  if (U_FAILURE(status) || !language_codes().contains(std::string_view(language.data()))) {
    return {};
  }
  uloc_toLanguageTag(locale.data(), canonical.data(), k_locale_capacity, 0, &status);
  if (U_FAILURE(status)) {
    return {};
  }
  return canonical.data();
}

// ISO 639 codes withdrawn in favour of others, which feeds (and CLD2) still write.
constexpr std::pair<std::string_view, std::string_view> k_withdrawn_codes[] = {
    {"iw", "he"}, {"in", "id"}, {"ji", "yi"}, {"jw", "jv"}, {"mo", "ro"},
};

// The tag with a withdrawn primary subtag replaced ("iw-il" -> "he-il").
std::string current_code(std::string tag) {
  const std::string_view primary = std::string_view(tag).substr(0, tag.find('-'));
  for (const auto& [withdrawn, current] : k_withdrawn_codes) {
    if (primary == withdrawn) {
      return std::string(current) + tag.substr(primary.size());
    }
  }
  return tag;
}

} // namespace

std::string canonical_language(std::string_view text) {
  text = trim(text);
  if (text.empty() || text.size() > k_max_language_text) {
    return {};
  }
  std::string tag = ascii_lower(text);
  for (char& c : tag) {
    c = c == '_' ? '-' : c;
  }
  if (looks_like_tag(tag)) {
    if (std::string canonical = tag_from_code(current_code(tag)); !canonical.empty()) {
      return canonical;
    }
  }
  std::string name = lower_unicode(icu::UnicodeString::fromUTF8(
      icu::StringPiece(text.data(), static_cast<std::int32_t>(text.size()))));
  const auto& by_name = language_names();
  auto found = by_name.find(name);
  return found == by_name.end() ? std::string() : found->second;
}

std::optional<bool> parse_explicit(std::string_view text) {
  std::string value = ascii_lower(trim(text));
  if (value == "yes" || value == "true" || value == "explicit") {
    return true;
  }
  if (value == "no" || value == "false" || value == "clean") {
    return false;
  }
  return std::nullopt;
}

} // namespace podcrawl::feed::internal

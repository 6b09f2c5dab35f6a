#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "podcrawl/l10n/localizer.hpp"

namespace podcrawl::l10n {

namespace {

// Longest tag read: a language page's address is never longer.
constexpr std::size_t k_max_tag_bytes = 35;

// Languages whose readers rely on the script: a page for each script written in a tag.
constexpr std::array<std::string_view, 8> k_script_languages = {"zh", "sr", "uz", "az",
                                                                "bs", "pa", "ku", "mn"};

// Chinese regions and the script they write by default.
constexpr std::array<std::pair<std::string_view, std::string_view>, 6> k_chinese_regions = {
    {{"cn", "hans"},
     {"sg", "hans"},
     {"my", "hans"},
     {"tw", "hant"},
     {"hk", "hant"},
     {"mo", "hant"}}};

bool all_of_class(std::string_view text, bool (*test)(char)) {
  return !text.empty() && std::all_of(text.begin(), text.end(), test);
}

bool is_letter(char c) {
  return c >= 'a' && c <= 'z';
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

} // namespace

std::string language_group(std::string_view tag) {
  if (tag.size() > k_max_tag_bytes) {
    return "";
  }
  std::string lower(tag);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](char c) {
    return c == '_' ? '-' : (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  });
  std::vector<std::string_view> parts;
  for (std::size_t from = 0; from <= lower.size();) {
    const std::size_t dash = std::min(lower.find('-', from), lower.size());
    parts.emplace_back(std::string_view(lower).substr(from, dash - from));
    from = dash + 1;
  }
  if (std::any_of(parts.begin(), parts.end(), [](std::string_view part) { return part.empty(); })) {
    return "";
  }
  const std::string_view language = parts[0];
  if (language.size() < 2 || language.size() > 3 || !all_of_class(language, is_letter) ||
      language == "und") {
    return "";
  }
  std::string_view script;
  std::string_view region;
  for (std::size_t i = 1; i < parts.size(); ++i) {
    if (parts[i].size() == 4 && all_of_class(parts[i], is_letter) && script.empty() &&
        region.empty()) {
      script = parts[i];
    } else if ((parts[i].size() == 2 && all_of_class(parts[i], is_letter)) ||
               (parts[i].size() == 3 && all_of_class(parts[i], is_digit))) {
      region = region.empty() ? parts[i] : region;
    }
  }
  if (language == "zh" && script.empty()) {
    for (const auto& [chinese_region, chinese_script] : k_chinese_regions) {
      script = region == chinese_region ? chinese_script : script;
    }
  }
  const bool keeps_script =
      !script.empty() && std::find(k_script_languages.begin(), k_script_languages.end(),
                                   language) != k_script_languages.end();
  return std::string(language) + (keeps_script ? "-" + std::string(script) : "");
}

} // namespace podcrawl::l10n

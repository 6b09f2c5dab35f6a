// compact_lang_det.h uses FILE without including <cstdio>.
#include <cstdio>

#include <cld2/public/compact_lang_det.h>
#include <cld2/public/encodings.h>
#include <unicode/locid.h>
#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <array>
#include <map>

#include "detect_internal.hpp"
#include "language_internal.hpp"
#include "podcrawl/html/sanitize.hpp"

namespace podcrawl::feed::internal {
namespace {

// Bytes of a show's text scored; CLD2 is as sure of 12 KB as of a megabyte.
constexpr std::size_t k_max_language_sample = 12 * 1024;
// Characters of one description (the show's, then each episode's) put in the sample, so that
// the notes of many episodes count rather than the first one's.
constexpr std::size_t k_max_show_description_chars = 2000;
constexpr std::size_t k_max_episode_description_chars = 400;
// Letters (in bytes) below which a text tells nothing: a title of two words.
constexpr int k_min_detect_bytes = 12;
// Overruling a declared language of the same script takes this much text, this share of it
// in the detected language, and the declared one at most k_max_declared_percent of it.
constexpr int k_min_overrule_bytes = 200;
constexpr int k_min_overrule_percent = 80;
constexpr int k_max_declared_percent = 10;
// Letters a script needs before it can contradict a declared language.
constexpr int k_min_script_letters = 8;

std::string_view primary_subtag(std::string_view tag) {
  return tag.substr(0, tag.find('-'));
}

bool is_address(std::string_view word) {
  return word.find("://") != std::string_view::npos || word.find('@') != std::string_view::npos ||
         word.starts_with("www.");
}

// Append the text to the sample, word by word, leaving out web and e-mail addresses.
void append_words(std::string& sample, std::string_view text) {
  std::size_t start = 0;
  while (start < text.size() && sample.size() < k_max_language_sample) {
    std::size_t end = text.find_first_of(" \t\n\r", start);
    std::string_view word = text.substr(start, end - start);
    if (!word.empty() && !is_address(word)) {
      sample.append(word);
      sample.push_back(' ');
    }
    if (end == std::string_view::npos) {
      break;
    }
    start = end + 1;
  }
  if (!sample.empty() && sample.back() == ' ') {
    sample.back() = '\n';
  }
}

// Return the ISO 15924 code of the script most of the text's letters are in; empty when fewer
// than k_min_script_letters are.
std::string dominant_script(std::string_view text) {
  std::map<UScriptCode, int> letters;
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(text.data());
  const auto length = static_cast<std::int32_t>(text.size());
  std::int32_t offset = 0;
  while (offset < length) {
    UChar32 c = 0;
    U8_NEXT(bytes, offset, length, c);
    if (c < 0 || !u_isalpha(c)) {
      continue;
    }
    UErrorCode status = U_ZERO_ERROR;
    UScriptCode script = uscript_getScript(c, &status);
    if (U_SUCCESS(status) && script != USCRIPT_COMMON && script != USCRIPT_INHERITED) {
      ++letters[script];
    }
  }
  auto most = std::max_element(letters.begin(), letters.end(),
                               [](const auto& a, const auto& b) { return a.second < b.second; });
  if (most == letters.end() || most->second < k_min_script_letters) {
    return {};
  }
  return uscript_getShortName(most->first);
}

// Return true when a language whose usual script is language_script ("Jpan", "Latn") can be
// written in text_script, the script of a text's letters ("Hira", "Latn").
bool script_fits(std::string_view language_script, std::string_view text_script) {
  if (language_script == "Jpan") {
    return text_script == "Hira" || text_script == "Kana" || text_script == "Hani";
  }
  if (language_script == "Kore") {
    return text_script == "Hang" || text_script == "Hani";
  }
  if (language_script == "Hans" || language_script == "Hant") {
    return text_script == "Hani";
  }
  return language_script == text_script;
}

// Return the script a language tag is usually written in ("en" -> "Latn", "ur" -> "Arab");
// empty when ICU knows none.
std::string likely_script(std::string_view tag) {
  UErrorCode status = U_ZERO_ERROR;
  icu::Locale locale = icu::Locale::forLanguageTag(tag, status);
  if (U_FAILURE(status)) {
    return {};
  }
  locale.addLikelySubtags(status);
  return U_SUCCESS(status) ? std::string(locale.getScript()) : std::string();
}

// Languages so close that a detector's choice between them says less than the publisher's tag:
// Malay and Indonesian; Norwegian (Bokmål, Nynorsk) and Danish; Serbian, Croatian and Bosnian;
// Czech and Slovak; Galician and Portuguese.
bool close_languages(std::string_view a, std::string_view b) {
  static constexpr std::array<std::array<std::string_view, 4>, 5> k_groups = {{
      {"id", "ms", "", ""},
      {"no", "nb", "nn", "da"},
      {"sr", "hr", "bs", "sh"},
      {"cs", "sk", "", ""},
      {"gl", "pt", "", ""},
  }};
  const auto in = [](const auto& group, std::string_view code) {
    return !code.empty() && std::find(group.begin(), group.end(), code) != group.end();
  };
  return std::any_of(k_groups.begin(), k_groups.end(),
                     [&](const auto& group) { return in(group, a) && in(group, b); });
}

bool shares_language(const TextLanguage& text, std::string_view declared) {
  return std::any_of(text.top.begin(), text.top.end(), [&](const LanguageShare& share) {
    return !share.language.empty() && primary_subtag(share.language) == primary_subtag(declared) &&
           share.percent > k_max_declared_percent;
  });
}

} // namespace

TextLanguage detect_text_language(std::string_view plain_text) {
  TextLanguage result;
  result.script = dominant_script(plain_text);
  std::array<CLD2::Language, 3> languages{};
  std::array<int, 3> percents{};
  std::array<double, 3> scores{};
  CLD2::CLDHints hints{nullptr, nullptr, CLD2::UNKNOWN_ENCODING, CLD2::UNKNOWN_LANGUAGE};
  int length = static_cast<int>(std::min(plain_text.size(), k_max_language_sample));
  int valid_prefix = length;
  for (int scored = -1; scored != valid_prefix;) {
    // Invalid UTF-8 stops CLD2 at once: the valid prefix is scored again.
    scored = valid_prefix;
    CLD2::ExtDetectLanguageSummaryCheckUTF8(
        plain_text.data(), scored, true, &hints, 0, languages.data(), percents.data(),
        scores.data(), nullptr, &result.text_bytes, &result.reliable, &valid_prefix);
  }
  if (result.text_bytes < k_min_detect_bytes) {
    result.reliable = false;
    return result;
  }
  for (std::size_t i = 0; i < languages.size(); ++i) {
    if (languages[i] == CLD2::UNKNOWN_LANGUAGE || languages[i] == CLD2::TG_UNKNOWN_LANGUAGE) {
      continue;
    }
    result.top[i] = {canonical_language(CLD2::LanguageCode(languages[i])), percents[i]};
  }
  return result;
}

std::string language_sample(const Show& show) {
  std::string sample;
  append_words(sample, show.title);
  append_words(sample, html::plain_text(show.description, k_max_show_description_chars));
  for (const Episode& episode : show.episodes) {
    if (sample.size() >= k_max_language_sample) {
      break;
    }
    append_words(sample, episode.title);
    append_words(sample, html::plain_text(episode.description, k_max_episode_description_chars));
  }
  return sample;
}

std::string effective_language(std::string_view declared, const TextLanguage& text) {
  const std::string& detected = text.top[0].language;
  if (declared.empty() || detected.empty()) {
    return std::string(declared.empty() ? detected : declared);
  }
  if (primary_subtag(detected) == primary_subtag(declared) ||
      close_languages(primary_subtag(detected), primary_subtag(declared))) {
    return std::string(declared);
  }
  if (!text.script.empty()) {
    std::string declared_script = likely_script(declared);
    if (!declared_script.empty() && !script_fits(declared_script, text.script)) {
      return detected;
    }
  }
  bool clear = text.reliable && text.text_bytes >= k_min_overrule_bytes &&
               text.top[0].percent >= k_min_overrule_percent && !shares_language(text, declared);
  return clear ? detected : std::string(declared);
}

void settle_language(Show& show) {
  TextLanguage text = detect_text_language(language_sample(show));
  show.detected_language.reset();
  if (!text.top[0].language.empty()) {
    show.detected_language = text.top[0].language;
  }
  show.effective_language = effective_language(show.language, text);
}

} // namespace podcrawl::feed::internal

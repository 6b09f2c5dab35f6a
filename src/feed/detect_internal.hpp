#pragma once

#include <array>
#include <string>
#include <string_view>

#include "podcrawl/feed/model.hpp"

namespace podcrawl::feed::internal {

// One language a text was found to be in, and its share of the text.
struct LanguageShare {
  std::string language; // canonical BCP 47 tag ("fa", "zh-Hant"); empty for none
  int percent = 0;      // 0..100
};

// What a text's letters say about its language.
struct TextLanguage {
  std::array<LanguageShare, 3> top; // most likely first; top[0].language empty when too short
  bool reliable = false;            // the first is clearly ahead of the second
  int text_bytes = 0;               // letters scored, in bytes
  std::string script;               // ISO 15924 code of most letters ("Arab"); empty for none
};

// Return the language of plain UTF-8 text: top[0] empty when the text holds too few letters
// to tell. At most its first 12 KB are scored, and invalid UTF-8 up to its first bad byte.
TextLanguage detect_text_language(std::string_view plain_text);

// Return the show's own words as plain text, at most k_max_language_sample bytes: its title,
// its description and its episodes' titles and notes, without markup, web or e-mail addresses.
// Names (authors, owners) and categories are left out: they say little of the language spoken.
std::string language_sample(const Show& show);

// Return the language a directory should file text under: the declared tag unless the text is
// long enough and clearly in another language, or is written in a script the declared language
// is not written in. An empty declared tag yields the detected one, which may be empty.
std::string effective_language(std::string_view declared, const TextLanguage& text);

// Set show.detected_language and show.effective_language from the show's text and its
// declared show.language.
void settle_language(Show& show);

} // namespace podcrawl::feed::internal

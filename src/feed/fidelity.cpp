#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "fidelity_internal.hpp"
#include "podcrawl/core/text.hpp"
#include "podcrawl/html/character_reference.hpp"
#include "recovery_internal.hpp"
#include "text_internal.hpp"

namespace podcrawl::feed::internal {
namespace {

// Windows-1252's characters for the bytes 0x80..0x9F; 0 where it defines none.
constexpr std::array<char32_t, 32> k_windows_1252_c1 = {
    0x20ac, 0,      0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160,
    0x2039, 0x0152, 0,      0x017d, 0,      0,      0x2018, 0x2019, 0x201c, 0x201d, 0x2022,
    0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0,      0x017e, 0x0178,
};

// Mojibake decoded twice upstream is undone twice; more is not seen in feeds.
constexpr int k_max_mojibake_rounds = 3;

// The Windows-1252 byte of a character, as a decoder that read the byte would have made it:
// its own 27 characters for 0x80..0x9F, and the code point itself below U+0100 (Latin-1
// decoders, and Windows-1252 decoders for its five undefined bytes, give the C1 control).
std::optional<unsigned char> windows_1252_byte(char32_t c) {
  if (c < 0x100) {
    return static_cast<unsigned char>(c);
  }
  const auto* found = std::find(k_windows_1252_c1.begin(), k_windows_1252_c1.end(), c);
  if (found == k_windows_1252_c1.end()) {
    return std::nullopt;
  }
  return static_cast<unsigned char>(0x80 + (found - k_windows_1252_c1.begin()));
}

// Characters that text plausibly holds: the scripts and symbols feeds are written in. What
// misread Latin-1 decodes to by accident falls mostly outside (Syriac, N'Ko, Samaritan, C1,
// private use), which is what tells mojibake from real text.
bool is_plausible(char32_t c) {
  struct Range {
    char32_t first;
    char32_t last;
  };
  constexpr std::array<Range, 22> k_ranges = {{
      {0x00a0, 0x036f},   // Latin-1, Latin Extended, IPA, modifiers, combining diacritics
      {0x0370, 0x058f},   // Greek, Cyrillic, Armenian
      {0x0590, 0x06ff},   // Hebrew, Arabic
      {0x0750, 0x077f},   // Arabic Supplement
      {0x0900, 0x0dff},   // Indic scripts
      {0x0e00, 0x0eff},   // Thai, Lao
      {0x10a0, 0x11ff},   // Georgian, Hangul Jamo
      {0x1e00, 0x1fff},   // Latin Extended Additional (Vietnamese), Greek Extended
      {0x2000, 0x206f},   // General Punctuation
      {0x2070, 0x209f},   // superscripts and subscripts
      {0x20a0, 0x20cf},   // currency
      {0x2100, 0x23ff},   // letterlike, number forms, arrows, mathematics, technical
      {0x2460, 0x27bf},   // enclosed, boxes, shapes, symbols, dingbats
      {0x2e80, 0x303f},   // CJK radicals and punctuation
      {0x3040, 0x31ff},   // kana, bopomofo, Hangul compatibility
      {0x3400, 0x9fff},   // CJK ideographs
      {0xac00, 0xd7af},   // Hangul syllables
      {0xfb1d, 0xfdff},   // Hebrew and Arabic presentation forms
      {0xfe70, 0xfeff},   // Arabic presentation forms B
      {0xff00, 0xffef},   // full and half width forms
      {0x1f000, 0x1faff}, // emoji and pictographs
      {0x20000, 0x3134f}, // CJK extensions
  }};
  // Of Latin Extended-B, IPA and the modifier letters (U+0180..U+02FF), which misread accented
  // capitals before punctuation decode to ("É…" is U+0245), only what languages write: Vietnamese
  // horns, pinyin tones, Romanian commas below, the schwa, the ʻokina and the apostrophe.
  constexpr std::array<Range, 6> k_written_extended = {{
      {0x018f, 0x018f},
      {0x01a0, 0x01b0},
      {0x01cd, 0x01dc},
      {0x0218, 0x021b},
      {0x0259, 0x0259},
      {0x02bb, 0x02bc},
  }};
  const auto within = [c](const Range& range) { return c >= range.first && c <= range.last; };
  if (c >= 0x0180 && c <= 0x02ff) {
    return std::any_of(k_written_extended.begin(), k_written_extended.end(), within);
  }
  return std::any_of(k_ranges.begin(), k_ranges.end(), within);
}

// True for a closing quote or an ellipsis, which may follow a word's accented last letter.
bool is_closing_punctuation(char32_t c) {
  return c == 0x2019 || c == 0x201d || c == 0x2026 || c == 0x00bb;
}

// The UTF-8 text the run of characters was before it was misread, or nullopt when the run is
// not such mojibake. `before` and `after` are the ASCII characters around the run (0 for none).
std::optional<std::string> unmisread(const std::vector<char32_t>& run, char before, char after) {
  if (run.size() < 2) {
    return std::nullopt;
  }
  // "IRMÃ”" and "MAÇÃ…" are capitals and a closing mark, as likely as a misread "Ô" or "Å".
  const bool letter_before = (before | 0x20) >= 'a' && (before | 0x20) <= 'z';
  const bool letter_after = (after | 0x20) >= 'a' && (after | 0x20) <= 'z';
  if (run.size() == 2 && letter_before && !letter_after && is_closing_punctuation(run[1])) {
    return std::nullopt;
  }
  std::string bytes;
  for (const char32_t c : run) {
    bytes.push_back(static_cast<char>(*windows_1252_byte(c)));
  }
  if (!is_valid_utf8(bytes)) {
    return std::nullopt;
  }
  bool first = true;
  for (std::size_t i = 0; i < bytes.size();) {
    UChar32 c = 0;
    U8_NEXT(bytes.data(), i, bytes.size(), c);
    const auto category = static_cast<UCharCategory>(u_charType(c));
    const bool mark = category == U_NON_SPACING_MARK || category == U_ENCLOSING_MARK;
    // A mark that begins the run would sit on whatever ASCII letter came before it.
    if (!is_plausible(static_cast<char32_t>(c)) || (first && mark)) {
      return std::nullopt;
    }
    first = false;
  }
  return bytes;
}

// One round of repair_mojibake; nullopt when it changes nothing.
std::optional<std::string> repair_once(std::string_view text) {
  std::string out;
  std::vector<char32_t> run;
  char before = 0; // the ASCII character before the run
  bool changed = false;
  const auto flush = [&](char after) {
    if (run.empty()) {
      before = after;
      return;
    }
    if (auto repaired = unmisread(run, before, after)) {
      out += *repaired;
      changed = true;
    } else {
      for (const char32_t c : run) {
        core::append_utf8(out, c);
      }
    }
    run.clear();
    before = after;
  };
  for (std::size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte < 0x80) {
      flush(text[i]);
      out.push_back(text[i++]);
      continue;
    }
    UChar32 c = 0;
    U8_NEXT(text.data(), i, text.size(), c);
    if (windows_1252_byte(static_cast<char32_t>(c))) {
      run.push_back(static_cast<char32_t>(c));
    } else {
      flush(0);
      core::append_utf8(out, static_cast<char32_t>(c));
    }
  }
  flush(0);
  return changed ? std::optional<std::string>(std::move(out)) : std::nullopt;
}

// True when the text holds a character that starts a misread UTF-8 sequence: the Latin-1
// letters U+00C2..U+00F4 stand for the lead bytes C2..F4.
bool may_hold_mojibake(std::string_view text) {
  for (std::size_t i = text.find('\xc3'); i != std::string_view::npos && i + 1 < text.size();
       i = text.find('\xc3', i + 1)) {
    const auto next = static_cast<unsigned char>(text[i + 1]);
    if (next >= 0x82 && next <= 0xb4) {
      return true;
    }
  }
  return false;
}

} // namespace

char32_t windows_1252_c1(char32_t c) {
  return c >= 0x80 && c <= 0x9f ? k_windows_1252_c1[c - 0x80] : c;
}

char32_t numeric_reference_character(char32_t number) {
  const char32_t mapped = windows_1252_c1(number);
  return html::names_character(number) && mapped != 0 ? mapped : 0xfffd;
}

std::string repair_mojibake(std::string_view text) {
  if (!may_hold_mojibake(text) || !is_valid_utf8(text)) {
    return std::string(text);
  }
  std::string repaired(text);
  for (int round = 0; round < k_max_mojibake_rounds; ++round) {
    auto next = repair_once(repaired);
    if (!next) {
      break;
    }
    repaired = std::move(*next);
  }
  return repaired;
}

std::string decode_references(std::string_view text) {
  std::size_t at = text.find('&');
  if (at == std::string_view::npos) {
    return std::string(text);
  }
  std::string out(text.substr(0, at));
  while (at < text.size()) {
    if (text[at] != '&') {
      const std::size_t next = std::min(text.find('&', at), text.size());
      out.append(text.substr(at, next - at));
      at = next;
      continue;
    }
    const std::optional<html::CharacterReference> reference = read_reference(text, at);
    if (!reference) {
      out.push_back('&');
      ++at;
      continue;
    }
    if (reference->number) {
      core::append_utf8(out, numeric_reference_character(*reference->number));
    } else {
      for (const char32_t c : reference->characters) {
        core::append_utf8(out, c);
      }
    }
    at += reference->length;
  }
  return out;
}

std::string plain_line(std::string_view text) {
  std::string line = clean_line(repair_mojibake(text));
  if (line.find('&') == std::string::npos) {
    return line;
  }
  std::string decoded = decode_references(line);
  return decoded == line ? line : clean_line(decoded);
}

std::string markup_block(std::string_view text) {
  return clean_block(repair_mojibake(text));
}

} // namespace podcrawl::feed::internal

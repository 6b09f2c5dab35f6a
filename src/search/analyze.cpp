#include "podcrawl/search/analyze.hpp"

#include <memory>

#include <unicode/brkiter.h>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/uscript.h>

namespace podcrawl::search {
namespace {

constexpr UChar32 k_zwnj = 0x200C;

struct Normalizers {
  const icu::Normalizer2* nfkc_casefold = nullptr;
  const icu::Normalizer2* nfd = nullptr;
  const icu::Normalizer2* nfc = nullptr;
};

// ICU's own instances, made once and shared by every thread; null members when ICU's data is
// missing (then text is folded without them).
const Normalizers& normalizers() {
  static const Normalizers instances = [] {
    Normalizers made;
    UErrorCode status = U_ZERO_ERROR;
    made.nfkc_casefold = icu::Normalizer2::getNFKCCasefoldInstance(status);
    made.nfd = icu::Normalizer2::getNFDInstance(status);
    made.nfc = icu::Normalizer2::getNFCInstance(status);
    return U_SUCCESS(status) ? made : Normalizers{};
  }();
  return instances;
}

icu::UnicodeString normalized(const icu::Normalizer2* normalizer, const icu::UnicodeString& text) {
  if (normalizer == nullptr) {
    return text;
  }
  UErrorCode status = U_ZERO_ERROR;
  icu::UnicodeString result = normalizer->normalize(text, status);
  return U_SUCCESS(status) ? result : text;
}

bool in(UChar32 c, UChar32 first, UChar32 last) {
  return c >= first && c <= last;
}

// Whether a nonspacing mark after `base` goes: every mark of a Latin, Greek or Cyrillic letter;
// Arabic harakat, Quranic marks and the hamza and madda above and below (after NFD, so that
// أ إ آ become ا); Hebrew points and cantillation. The marks of other scripts stay: kana
// voicing (ガ is not カ), Indic vowel signs and viramas, Thai tone marks carry meaning.
bool drops_mark(UChar32 mark, UChar32 base) {
  UErrorCode status = U_ZERO_ERROR;
  const UScriptCode script = uscript_getScript(base, &status);
  if (script == USCRIPT_LATIN || script == USCRIPT_GREEK || script == USCRIPT_CYRILLIC) {
    return true;
  }
  return in(mark, 0x0610, 0x061A) || in(mark, 0x064B, 0x065F) || mark == 0x0670 ||
         in(mark, 0x06D6, 0x06ED) || in(mark, 0x0591, 0x05C7);
}

// Append c folded to out (c is neither a mark nor decomposable further).
void append_folded(icu::UnicodeString& out, UChar32 c) {
  if (c > 0x7F && u_charType(c) == U_DECIMAL_DIGIT_NUMBER) {
    out.append(static_cast<UChar32>('0' + u_charDigitValue(c)));
    return;
  }
  if (in(c, 0x3041, 0x3096) || c == 0x309D || c == 0x309E) {
    out.append(c + 0x60); // hiragana as katakana
    return;
  }
  switch (c) {
    case 0x0142: // ł
    case 0x0140: // ŀ
      out.append(UChar32{'l'});
      return;
    case 0x00F8: // ø
      out.append(UChar32{'o'});
      return;
    case 0x0111: // đ
    case 0x00F0: // ð
      out.append(UChar32{'d'});
      return;
    case 0x0127: // ħ
      out.append(UChar32{'h'});
      return;
    case 0x0131: // dotless ı
      out.append(UChar32{'i'});
      return;
    case 0x00E6: // æ
      out.append(u"ae", 2);
      return;
    case 0x0153: // œ
      out.append(u"oe", 2);
      return;
    case 0x00FE: // þ
      out.append(u"th", 2);
      return;
    case 0x0640: // tatweel
      return;
    case 0x0671: // alef wasla
      out.append(UChar32{0x0627});
      return;
    case 0x0649: // alef maqsura
    case 0x06CC: // Farsi yeh
    case 0x06D2: // yeh barree
      out.append(UChar32{0x064A});
      return;
    case 0x0629: // teh marbuta
    case 0x06C1: // heh goal
    case 0x06D5: // ae (heh with yeh above, after NFD)
      out.append(UChar32{0x0647});
      return;
    case 0x06A9: // keheh
      out.append(UChar32{0x0643});
      return;
    default:
      out.append(c);
  }
}

icu::UnicodeString fold_unicode(const icu::UnicodeString& text) {
  const Normalizers& forms = normalizers();
  const icu::UnicodeString decomposed =
      normalized(forms.nfd, normalized(forms.nfkc_casefold, text));
  icu::UnicodeString out;
  UChar32 base = 0;
  for (int32_t i = 0; i < decomposed.length();) {
    const UChar32 c = decomposed.char32At(i);
    i += U16_LENGTH(c);
    if (u_charType(c) == U_NON_SPACING_MARK) {
      if (!drops_mark(c, base)) {
        out.append(c);
      }
      continue;
    }
    base = c;
    append_folded(out, c);
  }
  return normalized(forms.nfc, out);
}

std::string utf8(const icu::UnicodeString& text) {
  std::string out;
  text.toUTF8String(out);
  return out;
}

void add_term(std::vector<std::string>& terms, const icu::UnicodeString& text) {
  std::string term = utf8(fold_unicode(text));
  if (!term.empty()) {
    terms.push_back(std::move(term));
  }
}

// A character of the scripts written without spaces that bigrams cover.
bool bigrammed(UChar32 c) {
  if (c == 0x30FC || c == 0xFF70) { // the prolonged sound mark is of no script
    return true;
  }
  UErrorCode status = U_ZERO_ERROR;
  const UScriptCode script = uscript_getScript(c, &status);
  return script == USCRIPT_HAN || script == USCRIPT_HIRAGANA || script == USCRIPT_KATAKANA ||
         script == USCRIPT_HANGUL;
}

// This thread's word break iterator: made once a thread, as making one reads ICU's rules.
icu::BreakIterator* word_iterator() {
  thread_local const std::unique_ptr<icu::BreakIterator> iterator = [] {
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<icu::BreakIterator> made(
        icu::BreakIterator::createWordInstance(icu::Locale::getRoot(), status));
    return U_SUCCESS(status) ? std::move(made) : nullptr;
  }();
  return iterator.get();
}

// A word of text[start, end) all of whose characters are bigrammed, in a run of two or more of
// them: the run's bigrams stand for it in a query.
bool bigrams_stand_for(const icu::UnicodeString& text, int32_t start, int32_t end);

// The words of text; with `parts`, a word joined by ZWNJ also as its parts; with `for_query`, a
// word that bigrams stand for is left out.
void add_words(std::vector<std::string>& terms, const icu::UnicodeString& text, bool parts,
               bool for_query) {
  icu::BreakIterator* words = word_iterator();
  if (words == nullptr) {
    add_term(terms, text);
    return;
  }
  words->setText(text);
  int32_t start = words->first();
  for (int32_t end = words->next(); end != icu::BreakIterator::DONE;
       start = end, end = words->next()) {
    if (words->getRuleStatus() < UBRK_WORD_NONE_LIMIT) {
      continue; // spaces and punctuation
    }
    const icu::UnicodeString word(text, start, end - start);
    if (for_query && bigrams_stand_for(text, start, end)) {
      continue;
    }
    add_term(terms, word);
    if (!parts || word.indexOf(k_zwnj) < 0) {
      continue;
    }
    for (int32_t from = 0; from <= word.length();) {
      int32_t to = word.indexOf(k_zwnj, from);
      to = to < 0 ? word.length() : to;
      if (to > from) {
        add_term(terms, icu::UnicodeString(word, from, to - from));
      }
      from = to + 1;
    }
  }
}

bool bigrams_stand_for(const icu::UnicodeString& text, int32_t start, int32_t end) {
  int32_t characters = 0;
  for (int32_t i = start; i < end;) {
    const UChar32 c = text.char32At(i);
    if (!bigrammed(c)) {
      return false;
    }
    ++characters;
    i += U16_LENGTH(c);
  }
  return characters >= 2 || (start > 0 && bigrammed(text.char32At(text.moveIndex32(start, -1)))) ||
         (end < text.length() && bigrammed(text.char32At(end)));
}

void add_bigrams(std::vector<std::string>& terms, const icu::UnicodeString& text) {
  int32_t previous = -1; // where the bigrammed character before this one starts, or -1
  for (int32_t i = 0; i < text.length();) {
    const UChar32 c = text.char32At(i);
    const int32_t next = i + U16_LENGTH(c);
    if (!bigrammed(c)) {
      previous = -1;
    } else {
      if (previous >= 0) {
        add_term(terms, icu::UnicodeString(text, previous, next - previous));
      }
      previous = i;
    }
    i = next;
  }
}

} // namespace

std::string fold(std::string_view text) {
  return utf8(fold_unicode(icu::UnicodeString::fromUTF8(
      icu::StringPiece(text.data(), static_cast<int32_t>(text.size())))));
}

std::vector<std::string> terms(std::string_view text) {
  const icu::UnicodeString unicode = icu::UnicodeString::fromUTF8(
      icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
  std::vector<std::string> found;
  add_words(found, unicode, /*parts=*/true, /*for_query=*/false);
  add_bigrams(found, unicode);
  return found;
}

std::vector<std::string> query_terms(std::string_view query) {
  const icu::UnicodeString unicode = icu::UnicodeString::fromUTF8(
      icu::StringPiece(query.data(), static_cast<int32_t>(query.size())));
  std::vector<std::string> found;
  add_words(found, unicode, /*parts=*/false, /*for_query=*/true);
  add_bigrams(found, unicode);
  return found;
}

} // namespace podcrawl::search

#include "podcrawl/search/analyze.hpp"

#include <algorithm>
#include <memory>

#include <unicode/brkiter.h>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/uscript.h>

#include "podcrawl/core/ascii.hpp"
#include "podcrawl/core/text.hpp"
#include "podcrawl/l10n/localizer.hpp"

namespace podcrawl::search {
namespace {

constexpr UChar32 k_zwnj = 0x200C;

bool is_ascii(std::string_view text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

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

// Whether c is a kana or a unified Han character, which normalization leaves as it is (voiced
// kana included: NFD and NFC give them back).
bool plain_kana_or_han(char16_t c) {
  return (c >= 0x3041 && c <= 0x3096) || (c >= 0x309D && c <= 0x309F) ||
         (c >= 0x30A1 && c <= 0x30FF) || (c >= 0x4E00 && c <= 0x9FFF);
}

icu::UnicodeString fold_unicode(const icu::UnicodeString& text) {
  // Most words of Japanese and Chinese text: only hiragana to fold.
  const char16_t* units = text.getBuffer();
  if (units != nullptr && std::all_of(units, units + text.length(), plain_kana_or_han)) {
    icu::UnicodeString out(text);
    for (int32_t i = 0; i < out.length(); ++i) {
      const char16_t c = out[i];
      if ((c >= 0x3041 && c <= 0x3096) || c == 0x309D || c == 0x309E) {
        out.setCharAt(i, static_cast<char16_t>(c + 0x60));
      }
    }
    return out;
  }
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

// A term and where in the text it starts.
struct Term {
  std::string text;
  int32_t at = 0;
};

void add_term(std::vector<Term>& terms, const icu::UnicodeString& text, int32_t at) {
  std::string term = utf8(fold_unicode(text));
  if (!term.empty()) {
    terms.push_back({std::move(term), at});
  }
}

std::vector<std::string> texts(std::vector<Term>&& terms) {
  std::vector<std::string> out;
  out.reserve(terms.size());
  for (auto& term : terms) {
    out.push_back(std::move(term.text));
  }
  return out;
}

// A character of the scripts written without spaces that bigrams cover.
bool bigrammed(UChar32 c) {
  if (c < 0x1100) { // before the Hangul jamo: no script that is bigrammed
    return false;
  }
  // The prolonged sound mark and the voicing marks are of no script.
  if (c == 0x30FC || c == 0xFF70 || c == 0x3099 || c == 0x309A || c == 0xFF9E || c == 0xFF9F) {
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

bool is_ascii_space(char16_t c) {
  return c == u' ' || (c >= 0x09 && c <= 0x0D);
}

bool is_ascii_alphanumeric(char16_t c) {
  return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9');
}

// The words of the ASCII text[start, end): its runs of letters and digits, in lower case (what
// folding makes of them), without ICU.
void add_ascii_words(std::vector<Term>& terms, const icu::UnicodeString& text, int32_t start,
                     int32_t end) {
  for (int32_t i = start; i < end;) {
    if (!is_ascii_alphanumeric(text[i])) {
      ++i;
      continue;
    }
    const int32_t from = i;
    std::string word;
    for (; i < end && is_ascii_alphanumeric(text[i]); ++i) {
      const char16_t c = text[i];
      word += static_cast<char>(c >= u'A' && c <= u'Z' ? c - u'A' + u'a' : c);
    }
    terms.push_back({std::move(word), from});
  }
}

// The words of text[start, end) as ICU's word break iterator finds them; with `parts`, a word
// joined by ZWNJ also as its parts; with `for_query`, a word that bigrams stand for is left out.
void add_icu_words(std::vector<Term>& terms, const icu::UnicodeString& text, int32_t start,
                   int32_t end, bool parts, bool for_query) {
  const icu::UnicodeString stretch(text, start, end - start);
  icu::BreakIterator* words = word_iterator();
  if (words == nullptr) {
    add_term(terms, stretch, start);
    return;
  }
  words->setText(stretch);
  int32_t from = words->first();
  for (int32_t to = words->next(); to != icu::BreakIterator::DONE; from = to, to = words->next()) {
    if (words->getRuleStatus() < UBRK_WORD_NONE_LIMIT) {
      continue; // spaces and punctuation
    }
    const icu::UnicodeString word(stretch, from, to - from);
    if (for_query && bigrams_stand_for(text, start + from, start + to)) {
      continue;
    }
    add_term(terms, word, start + from);
    if (!parts || word.indexOf(k_zwnj) < 0) {
      continue;
    }
    for (int32_t part = 0; part <= word.length();) {
      int32_t part_end = word.indexOf(k_zwnj, part);
      part_end = part_end < 0 ? word.length() : part_end;
      if (part_end > part) {
        add_term(terms, icu::UnicodeString(word, part, part_end - part), start + from + part);
      }
      part = part_end + 1;
    }
  }
}

// The words of text: each stretch between ASCII white space read on its own, an ASCII one
// without ICU (most of the notes of most feeds), any other by ICU's word break iterator. Text
// and queries are cut the same way; no word spans white space in either.
void add_words(std::vector<Term>& terms, const icu::UnicodeString& text, bool parts,
               bool for_query) {
  const int32_t length = text.length();
  for (int32_t i = 0; i < length;) {
    while (i < length && is_ascii_space(text[i])) {
      ++i;
    }
    const int32_t start = i;
    bool ascii = true;
    for (; i < length && !is_ascii_space(text[i]); ++i) {
      ascii = ascii && text[i] < 0x80;
    }
    if (i == start) {
      break;
    }
    if (ascii) {
      add_ascii_words(terms, text, start, i);
    } else {
      add_icu_words(terms, text, start, i, parts, for_query);
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

// Every two neighbouring characters of each run of Han, kana or Hangul, folded first (so that
// half-width kana and their voicing marks pair as the full-width letters they stand for); a run
// that folds to one character is that character. All of a run's bigrams are where it starts.
void add_bigrams(std::vector<Term>& terms, const icu::UnicodeString& text) {
  for (int32_t i = 0; i < text.length();) {
    const int32_t start = i;
    int32_t length = 0;
    while (i < text.length() && bigrammed(text.char32At(i))) {
      i += U16_LENGTH(text.char32At(i));
      ++length;
    }
    if (length == 0) {
      i += U16_LENGTH(text.char32At(i));
      continue;
    }
    if (length < 2) {
      continue;
    }
    const icu::UnicodeString run = fold_unicode(icu::UnicodeString(text, start, i - start));
    if (run.countChar32() == 1) {
      terms.push_back({utf8(run), start});
      continue;
    }
    for (int32_t from = 0; from < run.length();) {
      const int32_t second = from + U16_LENGTH(run.char32At(from));
      if (second >= run.length()) {
        break;
      }
      const int32_t end = second + U16_LENGTH(run.char32At(second));
      terms.push_back({utf8(icu::UnicodeString(run, from, end - from)), start}); // folded
      from = second;
    }
  }
}

icu::UnicodeString unicode_of(std::string_view text) {
  return icu::UnicodeString::fromUTF8(
      icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
}

std::string_view indexed_part(std::string_view text) {
  return core::utf8_prefix(text, k_max_indexed_bytes);
}

// Whether a folded term holds a letter of another script than Latin.
bool beyond_latin(std::string_view term) {
  if (is_ascii(term)) {
    return false;
  }
  const icu::UnicodeString unicode = unicode_of(term);
  for (int32_t i = 0; i < unicode.length();) {
    const UChar32 c = unicode.char32At(i);
    i += U16_LENGTH(c);
    UErrorCode status = U_ZERO_ERROR;
    const UScriptCode script = uscript_getScript(c, &status);
    if (u_isalpha(c) && script != USCRIPT_LATIN && script != USCRIPT_COMMON &&
        script != USCRIPT_INHERITED) {
      return true;
    }
  }
  return false;
}

// The runs of letters of one script in text, as written: what is romanized as one word. Words of
// kana or Han are runs, not the dictionary's cuts (which read まいにち as まい, に, ち); a mark,
// or a character of no script such as the prolonged sound mark, continues the run it follows.
std::vector<icu::UnicodeString> script_runs(const icu::UnicodeString& text) {
  std::vector<icu::UnicodeString> runs;
  icu::UnicodeString run;
  UScriptCode run_script = USCRIPT_INVALID_CODE;
  for (int32_t i = 0; i < text.length();) {
    const UChar32 c = text.char32At(i);
    i += U16_LENGTH(c);
    UErrorCode status = U_ZERO_ERROR;
    const UScriptCode script = uscript_getScript(c, &status);
    const int8_t type = u_charType(c);
    const bool mark =
        type == U_NON_SPACING_MARK || type == U_COMBINING_SPACING_MARK || type == U_ENCLOSING_MARK;
    if (!run.isEmpty() && (script == run_script || mark || c == 0x30FC)) {
      run.append(c);
      continue;
    }
    if (!run.isEmpty()) {
      runs.push_back(run);
      run.remove();
    }
    if (u_isalpha(c)) {
      run.append(c);
      run_script = script;
    }
  }
  if (!run.isEmpty()) {
    runs.push_back(run);
  }
  return runs;
}

void append_joined(std::string& out, const std::vector<Term>& terms) {
  for (const auto& term : terms) {
    out += out.empty() ? "" : " ";
    out += term.text;
  }
}

// The query's terms in the order of the text: a word where it starts, a run's bigrams where each
// starts.
std::vector<Term> query_terms_in_order(std::string_view query) {
  const icu::UnicodeString unicode = unicode_of(query);
  std::vector<Term> found;
  add_words(found, unicode, /*parts=*/false, /*for_query=*/true);
  add_bigrams(found, unicode);
  std::stable_sort(found.begin(), found.end(),
                   [](const Term& a, const Term& b) { return a.at < b.at; });
  return found;
}

// A term quoted for to_tsquery: a quote inside doubled, a backslash escaped.
void append_quoted(std::string& out, std::string_view term) {
  out += '\'';
  for (const char c : term) {
    if (c == '\'') {
      out += "''";
    } else if (c == '\\') {
      out += "\\\\";
    } else {
      out += c;
    }
  }
  out += '\'';
}

// Whether the query's last term may also match as a prefix.
bool prefix_allowed(std::string_view term) {
  const icu::UnicodeString unicode = unicode_of(term);
  if (unicode.countChar32() >= 3) {
    return true;
  }
  for (int32_t i = 0; i < unicode.length();) {
    const UChar32 c = unicode.char32At(i);
    if (!bigrammed(c)) {
      return false;
    }
    i += U16_LENGTH(c);
  }
  return !unicode.isEmpty();
}

// index_text of ASCII text without ICU (most fields of most feeds): its runs of letters and
// digits in lower case, as add_words cuts and folds them; ASCII holds nothing to bigram.
std::string ascii_index_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    if (!core::is_ascii_alnum(text[i])) {
      ++i;
      continue;
    }
    out += out.empty() ? "" : " ";
    for (; i < text.size() && core::is_ascii_alnum(text[i]); ++i) {
      out += core::ascii_lower(text[i]);
    }
  }
  return out;
}

} // namespace

std::string fold(std::string_view text) {
  return utf8(fold_unicode(unicode_of(text)));
}

std::vector<std::string> terms(std::string_view text) {
  const icu::UnicodeString unicode = unicode_of(text);
  std::vector<Term> found;
  add_words(found, unicode, /*parts=*/true, /*for_query=*/false);
  add_bigrams(found, unicode);
  return texts(std::move(found));
}

std::vector<std::string> query_terms(std::string_view query) {
  return texts(query_terms_in_order(query));
}

std::string index_text(std::string_view text) {
  if (is_ascii(text)) {
    return ascii_index_text(indexed_part(text));
  }
  const icu::UnicodeString unicode = unicode_of(indexed_part(text));
  std::vector<Term> found;
  add_words(found, unicode, /*parts=*/true, /*for_query=*/false);
  add_bigrams(found, unicode);
  std::string out;
  append_joined(out, found);
  return out;
}

std::string title_index_text(std::string_view title) {
  if (is_ascii(title)) { // no word of another script to romanize
    return ascii_index_text(indexed_part(title));
  }
  const icu::UnicodeString unicode = unicode_of(indexed_part(title));
  std::vector<Term> found;
  add_words(found, unicode, /*parts=*/true, /*for_query=*/false);
  add_bigrams(found, unicode);
  for (const auto& run : script_runs(unicode)) {
    const std::string text = utf8(run);
    if (beyond_latin(text)) {
      add_words(found, unicode_of(l10n::romanize(text)), /*parts=*/false, /*for_query=*/false);
    }
  }
  std::string out;
  append_joined(out, found);
  return out;
}

namespace {

// The term quoted, then with its prefix mark when `prefix`, then its alternatives.
void append_term(std::string& out, const std::string& term, bool prefix,
                 const Alternatives& alternatives) {
  const auto others = alternatives.find(term);
  const bool grouped = others != alternatives.end() && !others->second.empty();
  out += grouped ? "(" : "";
  append_quoted(out, term);
  out += prefix ? ":*" : "";
  if (grouped) {
    for (const auto& other : others->second) {
      out += " | ";
      append_quoted(out, other);
    }
    out += ")";
  }
}

} // namespace

TextQuery text_query(std::string_view query, const Alternatives& alternatives) {
  const std::vector<Term> found = query_terms_in_order(query);
  TextQuery result;
  for (std::size_t i = 0; i + 1 < found.size(); ++i) {
    result.leading += result.leading.empty() ? "" : " & ";
    append_term(result.leading, found[i].text, false, alternatives);
  }
  if (!found.empty()) {
    const std::string& last = found.back().text;
    append_term(result.last, last, false, alternatives);
    append_term(result.typed, last, prefix_allowed(last), alternatives);
  }
  return result;
}

bool correctable(std::string_view term) {
  if (is_ascii(term)) {
    return term.size() >= 5 &&
           std::any_of(term.begin(), term.end(), [](char c) { return c < '0' || c > '9'; });
  }
  const icu::UnicodeString unicode = unicode_of(term);
  if (unicode.countChar32() < 5) {
    return false;
  }
  for (int32_t i = 0; i < unicode.length();) {
    const UChar32 c = unicode.char32At(i);
    if (!u_isdigit(c)) {
      return true;
    }
    i += U16_LENGTH(c);
  }
  return false;
}

bool within_one_edit(std::string_view a, std::string_view b) {
  std::u32string x;
  std::u32string y;
  for (const auto& [text, out] : {std::pair{a, &x}, std::pair{b, &y}}) {
    const icu::UnicodeString unicode = unicode_of(text);
    for (int32_t i = 0; i < unicode.length();) {
      const UChar32 c = unicode.char32At(i);
      out->push_back(static_cast<char32_t>(c));
      i += U16_LENGTH(c);
    }
  }
  if (x.size() > y.size()) {
    std::swap(x, y);
  }
  if (y.size() - x.size() > 1) {
    return false;
  }
  std::size_t start = 0;
  while (start < x.size() && x[start] == y[start]) {
    ++start;
  }
  if (start == x.size()) {
    return true; // equal, or y has one more at the end
  }
  if (x.size() < y.size()) {
    return x.compare(start, std::u32string::npos, y, start + 1, std::u32string::npos) == 0;
  }
  if (x.compare(start + 1, std::u32string::npos, y, start + 1, std::u32string::npos) == 0) {
    return true; // replaced
  }
  return start + 1 < x.size() && x[start] == y[start + 1] && x[start + 1] == y[start] &&
         x.compare(start + 2, std::u32string::npos, y, start + 2, std::u32string::npos) == 0;
}

} // namespace podcrawl::search

#pragma once

#include <string>
#include <string_view>
#include <vector>

// The text analysis of search: one for the text indexed and for the words of a query, so that a
// query is cut and folded exactly as the text was.
namespace podcrawl::search {

// Text folded as listeners expect, whatever their keyboard: NFKC with full case folding (width
// forms, ligatures, compatibility characters, ZWNJ and other default-ignorable characters
// dropped); the marks of Latin, Greek and Cyrillic letters removed (é→e, й→и) and the letters
// that carry theirs inside folded too (ł→l, ø→o, đ→d, æ→ae, œ→oe, ß→ss, ı→i, þ→th); Turkish
// dotted and dotless i both i; hiragana as katakana (voicing kept: ガ is not カ); digits of every
// script as ASCII (٢٠٢٤, ۱۴۰۳, १२३ → 2024, 1403, 123); Arabic harakat, Quranic marks and tatweel
// removed, alef with hamza or madda as bare alef, hamza on waw and yeh dropped, alef maqsura and
// the Persian and Urdu yehs as yeh, teh marbuta and the Urdu and Persian hehs as heh, keheh as
// kaf; Hebrew points removed. Invalid UTF-8 is read as U+FFFD.
std::string fold(std::string_view text);

// The search terms of text, folded (fold()): first its words as ICU's word break iterator finds
// them (dictionaries for Chinese, Japanese, Thai, Lao, Khmer and Burmese), a word joined by
// ZWNJ (U+200C, as Persian writes) both whole and as its parts; then every two neighbouring
// characters of each run of Han, kana or Hangul, so that a word the dictionary cut otherwise,
// or a Korean noun inside a compound or before its particle, still matches. Spaces and
// punctuation make no term.
std::vector<std::string> terms(std::string_view text);

// The terms a text must all hold among its terms() to match a query: the query's words as
// terms() cuts and folds them, except that a run of Han, kana or Hangul of two characters or
// more asks for its bigrams instead of its words (the text's dictionary may have cut it
// otherwise, or a Korean particle follows), and a word joined by ZWNJ asks for its joined form.
std::vector<std::string> query_terms(std::string_view query);

} // namespace podcrawl::search

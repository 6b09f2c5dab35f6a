#pragma once

#include <cstddef>
#include <functional>
#include <map>
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

// Bytes of a field read for its index text: the rest of a longer field is not indexed.
inline constexpr std::size_t k_max_indexed_bytes = 4000;

// What the search index stores for a field's text: its terms(), separated by spaces, from its
// first k_max_indexed_bytes. PostgreSQL's text search reads it in the document's language, which
// stems the terms and drops its stop words, as it does the query's (text_query()).
std::string index_text(std::string_view text);

// index_text(title) and, after it, the romanized form of each word written in another script than
// Latin (l10n::romanize: ICU's Any-Latin; Latin-ASCII), so that `mainichi` finds まいにち.
std::string title_index_text(std::string_view title);

// Words a query's term may also stand for (typos read as the word meant), by term.
using Alternatives = std::map<std::string, std::vector<std::string>, std::less<>>;

// The PostgreSQL text search query of a search's words, in to_tsquery syntax: each of the
// query_terms() quoted, all required. The last term is apart, twice: whole, to be read in the
// document's language (stemmed), and as written, to be read without stemming and matching as a
// prefix too when it has three characters or more or is written in Han, kana or Hangul. A stemmer
// may shorten an unfinished word (Hungarian reads `seoul` as `se`, Turkish `kapalıc` as
// `kapalıç`): as a prefix that would be the start of too much, or of nothing. A term with
// alternatives matches any of them too (whole).
struct TextQuery {
  std::string leading; // every term but the last, joined by &; empty for a one-word query
  std::string last;    // the last term; empty when the query has no term
  std::string typed;   // the last term as typed: `last` with the prefix mark when allowed
};
TextQuery text_query(std::string_view query, const Alternatives& alternatives = {});

// Whether a query's term may be a typo worth correcting: 5 characters or more, not a number.
bool correctable(std::string_view term);

// Whether b is a at most one edit away: a character inserted, dropped, replaced, or two
// neighbours swapped (by code point).
bool within_one_edit(std::string_view a, std::string_view b);

} // namespace podcrawl::search

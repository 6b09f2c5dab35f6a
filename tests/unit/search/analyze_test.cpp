#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "podcrawl/search/analyze.hpp"

namespace podcrawl::search {
namespace {

bool has(const std::vector<std::string>& terms, const std::string& term) {
  return std::find(terms.begin(), terms.end(), term) != terms.end();
}

// Every term of the query is among the terms of the text: what an index of the text's terms
// needs to find it.
bool finds(const std::string& query, const std::string& text) {
  const auto indexed = terms(text);
  const auto asked = query_terms(query);
  return !asked.empty() && std::all_of(asked.begin(), asked.end(),
                                       [&](const auto& term) { return has(indexed, term); });
}

TEST(Fold, LatinLettersLoseTheirMarksAndCase) {
  EXPECT_EQ(fold("Hélló Wörld"), "hello world");
  EXPECT_EQ(fold("Łódź"), "lodz");
  EXPECT_EQ(fold("Ørsted Straße"), "orsted strasse");
  EXPECT_EQ(fold("Đakovo Þing Æsir Œuvre"), "dakovo thing aesir oeuvre");
  EXPECT_EQ(fold("ÂÇÊÑ"), "acen");
  EXPECT_EQ(fold("Ёлка й"), fold("елка и"));
  EXPECT_EQ(fold("Ἀθῆναι"), fold("αθηναι"));
}

TEST(Fold, TurkishDottedAndDotlessIAreBothI) {
  EXPECT_EQ(fold("İSTANBUL"), "istanbul");
  EXPECT_EQ(fold("ıstanbul"), "istanbul");
  EXPECT_EQ(fold("ISTANBUL"), "istanbul");
}

TEST(Fold, WidthFormsAndLigaturesAreTheirPlainLetters) {
  EXPECT_EQ(fold("ＰＯＤＣＡＳＴ２０２４"), "podcast2024");
  EXPECT_EQ(fold("ﬁle"), "file");
  EXPECT_EQ(fold("ｶﾞｲﾄﾞ"), fold("ガイド"));
}

TEST(Fold, DigitsOfEveryScriptAreAscii) {
  EXPECT_EQ(fold("٢٠٢٤"), "2024");
  EXPECT_EQ(fold("۱۴۰۳"), "1403");
  EXPECT_EQ(fold("१२३"), "123");
  EXPECT_EQ(fold("২০২৪"), "2024");
  EXPECT_EQ(fold("๒๕๖๗"), "2567");
}

TEST(Fold, KanaIsOneFormAndKeepsItsVoicing) {
  EXPECT_EQ(fold("まいにち"), fold("マイニチ"));
  EXPECT_EQ(fold("ひらがな"), "ヒラガナ");
  EXPECT_NE(fold("ガイド"), fold("カイト"));
  EXPECT_EQ(fold("ぱん"), "パン");
}

TEST(Fold, ArabicLetterFormsAreOne) {
  EXPECT_EQ(fold("المقهى"), fold("المقهي"));
  EXPECT_EQ(fold("أحمد"), fold("احمد"));
  EXPECT_EQ(fold("إسلام"), fold("اسلام"));
  EXPECT_EQ(fold("آمن"), fold("امن"));
  EXPECT_EQ(fold("مدرسة"), fold("مدرسه"));
  EXPECT_EQ(fold("كِتَابٌ"), fold("كتاب"));
  EXPECT_EQ(fold("كتـــاب"), fold("كتاب"));
  EXPECT_EQ(fold("ﻻ"), fold("لا")); // a presentation form
}

TEST(Fold, PersianAndUrduLettersMeetTheirArabicForms) {
  EXPECT_EQ(fold("کتاب"), fold("كتاب"));                    // keheh, kaf
  EXPECT_EQ(fold("فارسی"), fold("فارسي"));                  // Farsi yeh, yeh
  EXPECT_EQ(fold("نۀ"), fold("نه"));                        // heh with yeh above
  EXPECT_EQ(fold("اردو ہے"), fold("اردو هي"));              // heh goal, yeh barree
  EXPECT_EQ(fold("کتاب‌خوان"), fold("کتابخوان")); // ZWNJ joins
}

TEST(Fold, HebrewPointsAreRemoved) {
  EXPECT_EQ(fold("שָׁלוֹם"), fold("שלום"));
  EXPECT_EQ(fold("שָׁלוֹם"), "שלום");
}

TEST(Fold, InvalidUtf8IsReadAsReplacementCharacters) {
  EXPECT_EQ(fold(std::string("a\xff"
                             "b")),
            "a\xEF\xBF\xBD"
            "b");
  EXPECT_EQ(fold(""), "");
}

TEST(Terms, SpacesAndPunctuationMakeNoTerm) {
  EXPECT_EQ(terms("Le Coin des Curieux!"),
            (std::vector<std::string>{"le", "coin", "des", "curieux"}));
  EXPECT_TRUE(terms(" ,.;— ").empty());
}

TEST(Terms, FindWordsInsideJapaneseAndChineseText) {
  EXPECT_TRUE(finds("テック", "まいにちテック雑談"));
  EXPECT_TRUE(finds("雑談", "まいにちテック雑談"));
  EXPECT_TRUE(finds("まいにち", "マイニチテック雑談"));
  EXPECT_TRUE(finds("科技", "每日科技闲谈"));
  EXPECT_FALSE(finds("料理", "まいにちテック雑談"));
}

TEST(Terms, FindAKoreanNounInsideACompoundOrBeforeItsParticle) {
  EXPECT_TRUE(finds("뉴스", "김어준의 뉴스공장"));
  EXPECT_TRUE(finds("김어준", "김어준의 뉴스공장"));
  EXPECT_FALSE(finds("스포츠", "김어준의 뉴스공장"));
}

TEST(Terms, CutThaiIntoWords) {
  const auto words = terms("สวัสดีครับ");
  EXPECT_GE(words.size(), 2U);
  EXPECT_TRUE(has(words, "สวัสดี"));
}

TEST(Terms, AWordJoinedByZwnjIsAlsoItsParts) {
  const auto found = terms("رادیو کتاب‌خوان");
  EXPECT_TRUE(has(found, fold("کتابخوان")));
  EXPECT_TRUE(has(found, fold("کتاب")));
  EXPECT_TRUE(has(found, fold("خوان")));
  EXPECT_TRUE(finds("كتاب", "رادیو کتاب‌خوان"));
  EXPECT_TRUE(finds("کتاب خوان", "رادیو کتاب‌خوان"));
}

TEST(QueryTerms, ARunOfHanKanaOrHangulAsksForItsBigrams) {
  EXPECT_EQ(query_terms("김어준"), (std::vector<std::string>{"김어", "어준"}));
  EXPECT_EQ(query_terms("まいにち"), (std::vector<std::string>{"マイ", "イニ", "ニチ"}));
  EXPECT_EQ(query_terms("tech 雑談"), (std::vector<std::string>{"tech", "雑談"}));
  EXPECT_EQ(query_terms("کتاب‌خوان"), (std::vector<std::string>{fold("کتابخوان")}));
}

TEST(Terms, FoldEachTerm) {
  EXPECT_TRUE(finds("Hélló", "Hello World Tech"));
  EXPECT_TRUE(finds("المقهي", "المقهى العلمي"));
  EXPECT_TRUE(finds("٢٠٢٤", "حلقة 2024"));
}

TEST(Terms, HalfWidthKanaPairAsTheFullWidthLetters) {
  // ﾋﾟ is ピ: the bigrams of the folded run, not of the half-width characters.
  EXPECT_TRUE(finds("スピーカー", "ｽﾏｰﾄｽﾋﾟｰｶｰ"));
  EXPECT_TRUE(finds("すぴーかー", "ｽﾏｰﾄｽﾋﾟｰｶｰ"));
  EXPECT_TRUE(has(query_terms("ﾃﾞ"), "デ"));
}

// The words of an index text, as PostgreSQL reads them.
std::vector<std::string> words_of(const std::string& text) {
  std::vector<std::string> words;
  for (std::size_t from = 0; from < text.size();) {
    const std::size_t space = std::min(text.find(' ', from), text.size());
    words.push_back(text.substr(from, space - from));
    from = space + 1;
  }
  return words;
}

TEST(IndexText, IsTheTermsOfTheTextBetweenSpaces) {
  EXPECT_EQ(words_of(index_text("Hélló, World!")), (std::vector<std::string>{"hello", "world"}));
  EXPECT_EQ(index_text(""), "");
  EXPECT_EQ(index_text(std::string(k_max_indexed_bytes, 'a') + " zebra"),
            std::string(k_max_indexed_bytes, 'a'));
}

TEST(IndexText, CutsAsciiTextAsItCutsAnyOther) {
  // ASCII text takes a path of its own, without ICU: it must give what the general one gives,
  // which the non-ASCII word at the end sends the whole text through.
  for (const std::string& text : std::vector<std::string>{
           "Episode 42: C++ & Rust -- what's new?", "  tabs\tand\nlines\r\n", "a.b,c;d/e_f",
           "ALL CAPS 2024", "x", "", "...", std::string("nul\0byte", 8), "\x01\x7F control"}) {
    EXPECT_EQ(index_text(text + " \xC3\xA9"),
              index_text(text) + (index_text(text).empty() ? "e" : " e"))
        << text;
    EXPECT_EQ(title_index_text(text + " \xC3\xA9"),
              title_index_text(text) + (title_index_text(text).empty() ? "e" : " e"))
        << text;
  }
}

TEST(TitleIndexText, AddsTheRomanizedWordsOfOtherScripts) {
  const auto japanese = words_of(title_index_text("まいにちテック雑談"));
  EXPECT_TRUE(has(japanese, "mainichi")) << title_index_text("まいにちテック雑談");
  EXPECT_TRUE(has(japanese, "tekku"));
  EXPECT_TRUE(has(japanese, "テック"));
  EXPECT_TRUE(has(words_of(title_index_text("Подлодка")), "podlodka"));
  EXPECT_TRUE(has(words_of(title_index_text("서울 이야기")), "seoul"));
  // Latin words are indexed once, folded.
  EXPECT_EQ(words_of(title_index_text("Le Coin des Curieux")),
            (std::vector<std::string>{"le", "coin", "des", "curieux"}));
}

TEST(TextQuery, AllTermsAreRequiredAndTheLastIsAlsoAPrefix) {
  EXPECT_EQ(text_query("Le Coin curi").leading, "'le' & 'coin'");
  EXPECT_EQ(text_query("Le Coin curi").last, "'curi'");
  EXPECT_EQ(text_query("Le Coin curi").typed, "'curi':*");
  EXPECT_EQ(text_query("curi").leading, "");
  // Under three letters no prefix; one Han or kana character is one.
  EXPECT_EQ(text_query("cu").typed, "'cu'");
  EXPECT_EQ(text_query("雑").typed, "'雑':*");
  EXPECT_EQ(text_query("テ").typed, "'テ':*");
  // A run of kana asks for its bigrams; the last one is the prefix.
  EXPECT_EQ(text_query("podcast テック").leading, "'podcast' & 'テッ'");
  EXPECT_EQ(text_query("podcast テック").typed, "'ック':*");
  EXPECT_EQ(text_query("テック podcast").typed, "'podcast':*");
  EXPECT_EQ(text_query(" ,; ").last, "");
  EXPECT_EQ(text_query(" ,; ").typed, "");
}

TEST(TextQuery, QuotesAndOperatorsAreOnlyText) {
  // ICU keeps an apostrophe inside a word; ASCII text is cut at it.
  EXPECT_EQ(text_query("l'été").typed, "'l''ete':*");
  EXPECT_EQ(text_query("o'reilly").leading, "'o'");
  for (const char* hostile : {"a & | ! ( ) :*", "<->", "'", "\\"}) {
    const TextQuery query = text_query(hostile);
    for (const std::string* text : {&query.leading, &query.last, &query.typed}) {
      // Every quote opened is closed: an even count of unescaped quotes.
      std::size_t quotes = 0;
      for (std::size_t i = 0; i < text->size(); ++i) {
        quotes += (*text)[i] == '\'' ? 1 : 0;
        i += (*text)[i] == '\\' ? 1 : 0;
      }
      EXPECT_EQ(quotes % 2, 0U) << hostile << ": " << *text;
    }
  }
}

TEST(TextQuery, ATermWithAlternativesMatchesAnyOfThem) {
  const TextQuery query =
      text_query("zeitsprnug podcast", {{"zeitsprnug", {"zeitsprung", "zeitspring"}}});
  EXPECT_EQ(query.leading, "('zeitsprnug' | 'zeitsprung' | 'zeitspring')");
  EXPECT_EQ(query.last, "'podcast'");
  EXPECT_EQ(query.typed, "'podcast':*");
  EXPECT_EQ(text_query("curieus", {{"curieus", {"curieux"}}}).last, "('curieus' | 'curieux')");
  EXPECT_EQ(text_query("curieus", {{"curieus", {"curieux"}}}).typed, "('curieus':* | 'curieux')");
}

TEST(Typos, LongWordsOnlyAreCorrected) {
  EXPECT_TRUE(correctable("curieux"));
  EXPECT_TRUE(correctable("雑談ポッドキ"));
  EXPECT_FALSE(correctable("curi"));
  EXPECT_FALSE(correctable("12345"));
  EXPECT_TRUE(correctable("2024a"));
}

TEST(Typos, OneEditIsAnInsertionADeletionAReplacementOrASwap) {
  EXPECT_TRUE(within_one_edit("curieux", "curieux"));
  EXPECT_TRUE(within_one_edit("curieux", "curieuxx"));
  EXPECT_TRUE(within_one_edit("curieux", "curiex"));
  EXPECT_TRUE(within_one_edit("curieux", "curieuz"));
  EXPECT_TRUE(within_one_edit("curieux", "cuireux"));
  EXPECT_TRUE(within_one_edit("zeitsprung", "zeitsprnug"));
  EXPECT_TRUE(within_one_edit("کتابخوان", "کتابخان"));
  EXPECT_FALSE(within_one_edit("curieux", "curieuxxx"));
  EXPECT_FALSE(within_one_edit("curieux", "cuirexu"));
  EXPECT_FALSE(within_one_edit("curieux", "xurieuz"));
  EXPECT_FALSE(within_one_edit("abc", ""));
}

} // namespace
} // namespace podcrawl::search

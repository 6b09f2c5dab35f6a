#include "detect_internal.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "language_internal.hpp"
#include "support/temp_dir.hpp"

namespace podcrawl::feed {
namespace {

using internal::canonical_language;
using internal::detect_text_language;
using internal::effective_language;
using internal::language_sample;
using internal::settle_language;
using internal::TextLanguage;

TextLanguage text_in(std::string language, int percent, bool reliable, int text_bytes,
                     std::string script) {
  TextLanguage text;
  text.top[0] = {std::move(language), percent};
  text.reliable = reliable;
  text.text_bytes = text_bytes;
  text.script = std::move(script);
  return text;
}

struct EffectiveCase {
  const char* declared;
  TextLanguage text;
  const char* effective;
};

TEST(EffectiveLanguage, FollowsTheDeclaredTagUnlessTheTextClearlySaysOtherwise) {
  TextLanguage mixed = text_in("en", 85, true, 900, "Latn");
  mixed.top[1] = {"fr", 15};
  const EffectiveCase cases[] = {
      {"en-US", text_in("en", 99, true, 900, "Latn"), "en-US"},
      {"zh-TW", text_in("zh-Hant", 99, true, 900, "Hani"), "zh-TW"},
      {"", text_in("fa", 99, true, 900, "Arab"), "fa"},
      {"", text_in("", 0, false, 4, ""), ""},
      {"de", text_in("", 0, false, 4, ""), "de"},
      // A Latin-script tag on Arabic-script text loses even on a short text.
      {"en", text_in("ar", 99, false, 40, "Arab"), "ar"},
      {"ur", text_in("hi", 99, true, 300, "Deva"), "hi"},
      {"ja", text_in("ja", 99, true, 300, "Hani"), "ja"},
      {"ko", text_in("ja", 70, false, 30, "Hani"), "ko"},
      // Same script: only a long, reliable, one-sided text overrules the tag.
      {"ar", text_in("fa", 97, true, 900, "Arab"), "fa"},
      {"ar", text_in("fa", 97, true, 120, "Arab"), "ar"},
      {"ar", text_in("fa", 97, false, 900, "Arab"), "ar"},
      {"es", text_in("pt", 60, true, 900, "Latn"), "es"},
      {"fr", mixed, "fr"},
      {"de", mixed, "en"},
      // Languages too close to tell apart reliably: the tag stands.
      {"id", text_in("ms", 99, true, 900, "Latn"), "id"},
      {"nb-NO", text_in("da", 99, true, 900, "Latn"), "nb-NO"},
      {"hr", text_in("sr", 99, true, 900, "Latn"), "hr"},
      {"en", text_in("ms", 99, true, 900, "Latn"), "ms"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(effective_language(c.declared, c.text), c.effective)
        << "declared " << c.declared << ", text " << c.text.top[0].language;
  }
}

struct DetectCase {
  const char* text;
  const char* language;
};

TEST(DetectTextLanguage, TellsArabicPersianAndUrduApart) {
  const DetectCase cases[] = {
      {"نشرة يومية عن أخبار التقنية في العالم العربي، نناقش فيها الهواتف الذكية والتطبيقات "
       "الجديدة ونستضيف كل أسبوع ضيفاً من رواد الأعمال في الخليج ومصر والمغرب.",
       "ar"},
      {"این پادکست هر هفته درباره‌ی کتاب‌های "
       "تازه‌ی فارسی گفتگو می‌کند. ما با "
       "نویسندگان و مترجمان جوان حرف می‌زنیم "
       "و می‌پرسیم چرا هنوز کتاب می‌خوانیم.",
       "fa"},
      {"یہ پوڈکاسٹ ہر ہفتے پاکستان کی کرکٹ ٹیم کے بارے میں بات کرتا ہے۔ ہم کھلاڑیوں کے انٹرویو "
       "کرتے ہیں اور میچوں کا تجزیہ پیش کرتے ہیں۔",
       "ur"},
  };
  for (const auto& c : cases) {
    TextLanguage text = detect_text_language(c.text);
    EXPECT_EQ(text.top[0].language, c.language) << c.text;
    EXPECT_EQ(text.script, "Arab");
  }
}

TEST(DetectTextLanguage, SaysNothingOfTooLittleText) {
  EXPECT_EQ(detect_text_language("").top[0].language, "");
  EXPECT_EQ(detect_text_language("Ep. 4").top[0].language, "");
  EXPECT_EQ(detect_text_language("Ep. 4").script, "");
}

TEST(DetectTextLanguage, ScoresInvalidUtf8WithoutReadingPastIt) {
  std::string text = "Un podcast sur la cuisine française et les marchés de Lyon, chaque semaine.";
  text += "\xC3\x28\xFF";
  TextLanguage detected = detect_text_language(text);
  EXPECT_EQ(detected.top[0].language, "fr");
  EXPECT_EQ(detected.script, "Latn");
}

TEST(LanguageSample, KeepsTheShowsWordsAndLeavesOutMarkupAddressesAndNames) {
  Show show;
  show.title = "Café Noir";
  show.author = "Johnny Walker";
  show.categories = {"Technology"};
  show.description =
      "<p>Écoutez <a href=\"https://example.com/x\">notre site</a> "
      "https://example.com/y ou écrivez à hello@example.com</p>";
  Episode episode;
  episode.title = "Épisode un";
  episode.description = "<b>Le</b> marché";
  show.episodes.push_back(episode);
  const std::string sample = language_sample(show);
  EXPECT_NE(sample.find("Café Noir"), std::string::npos);
  EXPECT_NE(sample.find("notre site"), std::string::npos);
  EXPECT_NE(sample.find("Le marché"), std::string::npos);
  EXPECT_NE(sample.find("Épisode un"), std::string::npos);
  for (const char* absent : {"<", "example.com", "Johnny", "Technology"}) {
    EXPECT_EQ(sample.find(absent), std::string::npos) << absent;
  }
}

TEST(LanguageSample, IsBounded) {
  Show show;
  Episode episode;
  episode.title = std::string(500, 'a') + " word";
  episode.description = "<p>" + std::string(5000, 'b') + "</p>";
  show.episodes.assign(1000, episode);
  EXPECT_LE(language_sample(show).size(), 13u * 1024u);
}

// The test set: shows' own text in many languages, with the tags their feeds declare (honest,
// wrong or missing). See tests/data/languages/README.md.
struct Sample {
  std::string id, expected, declared;
  bool honest = false;
  Show show;
};

std::vector<Sample> test_set() {
  std::vector<Sample> samples;
  for (const auto& entry : std::filesystem::directory_iterator("tests/data/languages")) {
    if (entry.path().extension() != ".json") {
      continue;
    }
    for (const auto& item : nlohmann::json::parse(testing::read_file(entry.path()))) {
      Sample sample;
      sample.id = item.at("id");
      sample.expected = item.at("expected");
      sample.declared = item.at("declared").is_null() ? "" : item.at("declared");
      sample.honest = item.at("honest");
      sample.show.title = item.at("title");
      sample.show.author = item.at("author");
      sample.show.description = item.at("description");
      sample.show.language = canonical_language(sample.declared);
      for (const auto& e : item.at("episodes")) {
        Episode episode;
        episode.title = e.at("title");
        episode.description = e.at("description");
        sample.show.episodes.push_back(std::move(episode));
      }
      samples.push_back(std::move(sample));
    }
  }
  return samples;
}

std::string primary(const std::string& tag) {
  return tag.substr(0, tag.find('-'));
}

TEST(EffectiveLanguage, FilesTheTestSetsShowsUnderTheLanguageTheyAreIn) {
  const std::vector<Sample> samples = test_set();
  ASSERT_GE(samples.size(), 240u);
  std::map<std::string, std::map<std::string, int>> confusion; // expected -> effective -> shows
  std::set<std::string> languages;
  int right = 0;
  for (Sample sample : samples) {
    settle_language(sample.show);
    const std::string effective = primary(sample.show.effective_language);
    confusion[sample.expected][effective.empty() ? "-" : effective] += 1;
    languages.insert(sample.expected);
    right += effective == sample.expected ? 1 : 0;
    if (sample.honest) {
      EXPECT_EQ(sample.show.effective_language, sample.show.language)
          << sample.id << ": the honest tag " << sample.declared << " was overruled";
    }
    if (effective != sample.expected) {
      std::cout << sample.id << ": declared " << sample.declared << ", detected "
                << sample.show.detected_language.value_or("-") << ", filed under "
                << sample.show.effective_language << '\n';
    }
  }
  EXPECT_GE(languages.size(), 12u);
  const double accuracy = static_cast<double>(right) / static_cast<double>(samples.size());
  std::cout << "effective language right for " << right << " of " << samples.size() << " shows ("
            << std::fixed << std::setprecision(1) << accuracy * 100 << "%)\n";
  for (const auto& [expected, filed] : confusion) {
    std::ostringstream line;
    line << std::setw(4) << expected << ':';
    for (const auto& [effective, shows] : filed) {
      line << ' ' << effective << '=' << shows;
    }
    std::cout << line.str() << '\n';
  }
  EXPECT_GE(accuracy, 0.97);
}

} // namespace
} // namespace podcrawl::feed

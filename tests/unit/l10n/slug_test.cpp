#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "podcrawl/l10n/localizer.hpp"

namespace podcrawl::l10n {
namespace {

bool is_clean_slug(const std::string& slug) {
  if (slug.empty() || slug.front() == '-' || slug.back() == '-' ||
      slug.find("--") != std::string::npos) {
    return false;
  }
  for (const char c : slug) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) {
      return false;
    }
  }
  return true;
}

struct SlugCase {
  std::string text;
  std::string slug;
};

TEST(Slugify, LowersAndJoinsLatinWords) {
  const SlugCase accept[] = {
      {"Hello World Tech", "hello-world-tech"},
      {"  Hello,   World!  ", "hello-world"},
      {"Crème Brûlée Café", "creme-brulee-cafe"},
      {"Straße", "strasse"},
      {"Ça va? Ñandú", "ca-va-nandu"},
      {"Episode #83: <script>", "episode-83-script"},
  };
  for (const auto& c : accept) {
    EXPECT_EQ(slugify(c.text), c.slug) << c.text;
  }
}

TEST(Slugify, TransliteratesNonLatinScriptsToAscii) {
  const std::string texts[] = {"مرحبا بالعالم", "こんにちは世界", "Привет мир", "Γειά σου"};
  for (const auto& text : texts) {
    const std::string slug = slugify(text);
    EXPECT_TRUE(is_clean_slug(slug)) << text << " -> " << slug;
    EXPECT_EQ(slugify(text), slug) << "not stable: " << text;
  }
  EXPECT_EQ(slugify("こんにちは").rfind("kon", 0), 0U) << slugify("こんにちは");
  EXPECT_EQ(slugify("Привет"), "privet");
  EXPECT_NE(slugify("مرحبا"), slugify("شكرا"));
}

TEST(Slugify, IsEmptyWhenNothingTransliterates) {
  const std::string reject[] = {"", "   ", "!!!", "—…—", "\xF0\x9F\x8E\x99"};
  for (const auto& text : reject) {
    EXPECT_EQ(slugify(text), "") << text;
  }
}

TEST(Slugify, CutsLongTextAtAWordBoundary) {
  std::string text;
  for (int i = 0; i < 40; ++i) {
    text += "word" + std::to_string(i) + " ";
  }
  const std::string slug = slugify(text, 30);
  EXPECT_LE(slug.size(), 30U);
  EXPECT_TRUE(is_clean_slug(slug)) << slug;
  const std::string full = slugify(text, 1000);
  ASSERT_GT(full.size(), slug.size());
  EXPECT_EQ(full.compare(0, slug.size(), slug), 0) << slug;
  EXPECT_EQ(full[slug.size()], '-') << "cut inside a word: " << slug;
  EXPECT_EQ(slugify(std::string(200, 'a'), 80), std::string(80, 'a'));
}

TEST(Slugify, SurvivesInvalidUtf8) {
  const std::string slug = slugify("abc\xFF\xFE def");
  EXPECT_TRUE(is_clean_slug(slug)) << slug;
}

TEST(Romanize, IsLowerCaseAsciiAndTheSameEveryTime) {
  EXPECT_EQ(romanize("Hello World"), "hello world");
  EXPECT_EQ(romanize("Подлодка"), "podlodka");
  EXPECT_EQ(romanize("Łódź"), "lodz");
  for (int i = 0; i < 3; ++i) { // from the thread's memory after the first time
    EXPECT_EQ(romanize("まいにち"), "mainichi");
  }
  const std::string long_text = std::string(2000, 'x') + "Ä";
  EXPECT_EQ(romanize(long_text), std::string(1024, 'x'));
}

TEST(Romanize, EachThreadRomanizesWithItsOwnTransliterator) {
  std::vector<std::string> results(4);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < results.size(); ++i) {
    threads.emplace_back([&results, i] {
      for (int n = 0; n < 50; ++n) {
        results[i] = romanize("Москва " + std::to_string(n % 5));
      }
    });
  }
  for (auto& thread : threads) {
    thread.join();
  }
  for (const auto& result : results) {
    EXPECT_EQ(result, "moskva 4");
  }
}

} // namespace
} // namespace podcrawl::l10n

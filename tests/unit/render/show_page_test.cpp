// A show's page: its title, byline, counts and dates in the reader's language, its categories,
// cover art, structured data and Open Graph properties, and how long its bytes stay true.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "page_fixture.hpp"
#include "podcrawl/core/config.hpp"
#include "podcrawl/core/time.hpp"
#include "support/temp_dir.hpp"

namespace podcrawl::render {
namespace {

namespace fs = std::filesystem;

class RenderShowPage : public PageTest {};

TEST_F(RenderShowPage, ArabicPageIsRightToLeftWithIsolatedEnglishTitle) {
  const std::string html = show("hello-world-tech", "ar");
  EXPECT_EQ(html.rfind("<!DOCTYPE html>\n<html lang=\"ar\" dir=\"rtl\">", 0), 0U);
  EXPECT_NE(html.find("<bdi lang=\"en\">Hello World Tech</bdi>"), std::string::npos);
  EXPECT_NE(html.find("<title>\u2068Hello World Tech\u2069"), std::string::npos);
  EXPECT_NE(html.find("<bdi lang=\"en\">Ada &amp; Co</bdi>"), std::string::npos);
}

TEST_F(RenderShowPage, ArabicPageUsesCldrPluralsAndIcuRelativeTimes) {
  const std::string html = show("hello-world-tech", "ar");
  EXPECT_NE(html.find("83 حلقة"), std::string::npos);
  EXPECT_EQ(html.find("83 حلقات"), std::string::npos);
  const std::string added =
      "<time datetime=\"" + core::format_iso8601(k_four_years_ago) + "\">قبل 4 سنوات</time>";
  EXPECT_NE(html.find(added), std::string::npos) << added;
  const std::string newest =
      "datetime=\"" + core::format_iso8601(k_now - 35 * k_day) + "\">قبل 5 أسابيع</time>";
  EXPECT_NE(html.find(newest), std::string::npos) << newest;
  EXPECT_EQ(html.find("منذ قبل"), std::string::npos);
}

TEST_F(RenderShowPage, EnglishPageCountsEpisodesAndSaysWhenTheShowWasAdded) {
  const std::string html = show("hello-world-tech", "en");
  EXPECT_EQ(html.rfind("<!DOCTYPE html>\n<html lang=\"en\" dir=\"ltr\">", 0), 0U);
  EXPECT_NE(html.find("83 episodes"), std::string::npos);
  EXPECT_NE(html.find("Added <time datetime=\"" + core::format_iso8601(k_four_years_ago) +
                      "\">4 years ago</time>"),
            std::string::npos);
  EXPECT_NE(html.find(">5 weeks ago</time>"), std::string::npos);
  // Episode 34, the oldest on the first page, lasts 1968 + 34 seconds: a clock for the eye,
  // words for screen readers.
  EXPECT_NE(html.find("<time class=\"length\" datetime=\"PT33M22S\"><span "
                      "aria-hidden=\"true\">33:22</span><span class=\"visually-hidden\">33 "
                      "minutes, 22 seconds</span></time>"),
            std::string::npos);
  EXPECT_NE(html.find("href=\"../../categories/technology/\""), std::string::npos);
  EXPECT_NE(html.find("href=\"episode-83/\""), std::string::npos);
}

TEST_F(RenderShowPage, LocalizesApplesCategoriesAndKeepsOthersInTheFeedsLanguage) {
  const std::string arabic = show("hello-world-tech", "ar");
  EXPECT_NE(arabic.find("<bdi lang=\"ar\">تقنية</bdi>"), std::string::npos);
  EXPECT_NE(arabic.find("<bdi lang=\"en\">Tech News</bdi>"), std::string::npos);
  EXPECT_EQ(arabic.find(">Technology<"), std::string::npos);
}

TEST_F(RenderShowPage, EscapesTheFeedsText) {
  const std::string html = show("script-show", "en");
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt; Show"), std::string::npos);
  EXPECT_NE(html.find("&quot;Quote&quot; &lt;b&gt;Author&lt;/b&gt;"), std::string::npos);
}

// Cover art is the site's own copy: the page links its files relatively with every width in
// srcset, og:image and JSON-LD name the widest. A show without art gets the placeholder.
TEST_F(RenderShowPage, ShowsCoverArtFromTheSitesOwnFolder) {
  const std::string prefix = std::string("art/") + k_art_hash + "-";
  const std::string html = show("hello-world-tech", "en");
  const std::string up = "../../../";
  const std::string image =
      "<img class=\"art\" src=\"" + up + prefix + "400.webp\" srcset=\"" + up + prefix +
      "160.webp 160w, " + up + prefix + "400.webp 400w, " + up + prefix +
      "1400.webp 1400w\" sizes=\"200px\" width=\"400\" height=\"400\" alt=\"Cover art of "
      "\u2068Hello World Tech\u2069\" loading=\"lazy\" decoding=\"async\">";
  EXPECT_NE(html.find(image), std::string::npos) << html;
  EXPECT_NE(html.find("<meta property=\"og:image\" content=\"" + k_site_url + "/" + prefix +
                      "1400.webp\">"),
            std::string::npos);
  EXPECT_NE(html.find("\"image\":\"" + k_site_url + "/" + prefix + "1400.webp\""),
            std::string::npos);
  const std::string without = show("mrhba", "en");
  EXPECT_EQ(without.find("<img"), std::string::npos);
  EXPECT_NE(without.find("<span class=\"art art-none\" aria-hidden=\"true\"></span>"),
            std::string::npos);
  EXPECT_EQ(without.find("og:image"), std::string::npos);
}

// The show pages as they are meant to be, byte for byte, in tests/unit/render/golden/. After an
// intended change, PODCRAWL_UPDATE_GOLDEN=1 rewrites the files; review their diff.
TEST_F(RenderShowPage, MatchesItsGoldenFiles) {
  const fs::path golden_dir = core::source_dir() / "tests" / "unit" / "render" / "golden";
  const bool update = std::getenv("PODCRAWL_UPDATE_GOLDEN") != nullptr;
  for (const std::string locale : {"ar", "en"}) {
    for (const std::string slug : {"hello-world-tech", "mrhba"}) {
      const fs::path golden = golden_dir / (locale + "-" + slug + ".html");
      const std::string rendered = show(slug, locale);
      SCOPED_TRACE(golden.string());
      if (update) {
        std::ofstream(golden, std::ios::binary) << rendered;
        continue;
      }
      ASSERT_TRUE(fs::exists(golden)) << "missing: run with PODCRAWL_UPDATE_GOLDEN=1";
      const std::string expected = testing::read_file(golden);
      if (rendered == expected) {
        continue;
      }
      std::istringstream want(expected);
      std::istringstream got(rendered);
      std::string want_line;
      std::string got_line;
      int line = 0;
      while (true) {
        ++line;
        const bool more_wanted = static_cast<bool>(std::getline(want, want_line));
        const bool more_got = static_cast<bool>(std::getline(got, got_line));
        if (!more_wanted || !more_got || want_line != got_line) {
          ADD_FAILURE() << "first difference at line " << line
                        << "\n  golden:   " << (more_wanted ? want_line : "<end>")
                        << "\n  rendered: " << (more_got ? got_line : "<end>");
          break;
        }
      }
    }
  }
}

TEST_F(RenderShowPage, DescribesThePodcastSeriesInJsonLd) {
  const std::string text = json_ld_of(show("hello-world-tech", "ar"));
  ASSERT_FALSE(text.empty());
  const auto json = nlohmann::json::parse(text);
  EXPECT_EQ(json["@context"], "https://schema.org");
  EXPECT_EQ(json["@type"], "PodcastSeries");
  EXPECT_EQ(json["name"], "Hello World Tech");
  EXPECT_EQ(json["url"], k_site_url + "/ar/podcasts/hello-world-tech/");
  EXPECT_EQ(json["webFeed"], "https://feeds.example/hello.xml");
  EXPECT_EQ(json["inLanguage"], "en");
  EXPECT_EQ(json["author"]["name"], "Ada & Co");
  EXPECT_EQ(json["numberOfEpisodes"], 83);
  EXPECT_EQ(text.find('&'), std::string::npos) << "raw & in " << text;
}

TEST_F(RenderShowPage, JsonLdCannotCloseItsScriptElement) {
  const std::string text = json_ld_of(show("script-show", "en"));
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.find('<'), std::string::npos) << text;
  EXPECT_NE(text.find("\\u003c/script\\u003e"), std::string::npos) << text;
  EXPECT_EQ(nlohmann::json::parse(text)["name"], "<script>alert(1)</script> Show");
}

TEST_F(RenderShowPage, CarriesOpenGraphProperties) {
  const std::string html = show("hello-world-tech", "ar");
  const char* expected[] = {
      "<meta property=\"og:type\" content=\"website\">",
      "<meta property=\"og:title\" content=\"Hello World Tech\">",
      "<meta property=\"og:url\" "
      "content=\"https://podcasts.example/ar/podcasts/hello-world-tech/\">",
      "<meta property=\"og:locale\" content=\"ar_EG\">",
      "<meta property=\"og:locale:alternate\" content=\"en_US\">",
      "<meta property=\"og:description\" content=\"A show about software.\">",
  };
  for (const char* tag : expected) {
    EXPECT_NE(html.find(tag), std::string::npos) << tag;
  }
}

// The hostile show's one episode is two hours old: "2 hours ago" reads "3 hours ago" an hour
// from now, long before the show's "3 days ago" or the day a page lives at most.
TEST_F(RenderShowPage, ExpiresWhenItsFirstRelativePhraseChanges) {
  const model::ShowPage model = model::show_page_of(whole_show("script-show"), 1);
  const RenderedPage page = m_renderer.show_page(model, "en", k_now);
  EXPECT_NE(page.html.find(">2 hours ago</time>"), std::string::npos);
  EXPECT_EQ(page.expires_at, k_now + 3600);
  EXPECT_EQ(m_renderer.show_page(model, "en", page.expires_at - 1).html, page.html);
  const std::string later = m_renderer.show_page(model, "en", page.expires_at).html;
  EXPECT_NE(later.find(">3 hours ago</time>"), std::string::npos);
  EXPECT_EQ(later.find(">2 hours ago</time>"), std::string::npos);
}

// No phrase on these pages changes within the hour: they expire when a page's lifetime ends.
TEST_F(RenderShowPage, ExpiresNoLaterThanTheLongestPageLifetime) {
  SiteOptions options = site_options();
  options.max_page_lifetime = 3600;
  Renderer renderer(options);
  for (const char* slug : {"hello-world-tech", "mrhba"}) {
    const model::ShowPage model = model::show_page_of(whole_show(slug), 1);
    EXPECT_EQ(renderer.show_page(model, "ar", k_now).expires_at, k_now + 3600) << slug;
    EXPECT_EQ(m_renderer.show_page(model, "ar", k_now).expires_at, k_now + Renderer::k_max_lifetime)
        << slug;
  }
  // The two-hour-old episode's phrase changes in an hour, after a lifetime of ten minutes.
  options.max_page_lifetime = 600;
  Renderer short_lived(options);
  EXPECT_EQ(short_lived.show_page(model::show_page_of(whole_show("script-show"), 1), "en", k_now)
                .expires_at,
            k_now + 600);
}

} // namespace
} // namespace podcrawl::render

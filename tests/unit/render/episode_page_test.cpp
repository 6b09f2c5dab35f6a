// An episode's page: its description and audio, numbering, transcripts and chapters, cover art,
// structured data and Open Graph type, and how long its bytes stay true.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "page_fixture.hpp"
#include "podcrawl/core/time.hpp"

namespace podcrawl::render {
namespace {

class RenderEpisodePage : public PageTest {};

TEST_F(RenderEpisodePage, EmbedsTheSanitizedDescriptionAndAudio) {
  const std::string html = episode("hello-world-tech", "episode-83", "ar");
  EXPECT_NE(html.find("<div class=\"description\" dir=\"auto\" lang=\"en\"><p>About episode "
                      "83</p></div>"),
            std::string::npos);
  EXPECT_NE(html.find("<audio controls preload=\"none\" src=\"https://cdn.example/e83.mp3\">"),
            std::string::npos);
  EXPECT_NE(html.find("href=\"../\"><bdi lang=\"en\">Hello World Tech</bdi></a>"),
            std::string::npos);
}

TEST_F(RenderEpisodePage, NumbersTheEpisodeAndLinksTranscriptsAndChapters) {
  const std::string english = episode("hello-world-tech", "episode-83", "en");
  EXPECT_NE(english.find("<p class=\"meta\">Season 2 · Episode 83</p>"), std::string::npos);
  EXPECT_NE(english.find("<li><a href=\"https://cdn.example/e83.vtt\" rel=\"nofollow ugc "
                         "noopener\">Transcript <bdi dir=\"ltr\">(VTT)</bdi></a></li>"),
            std::string::npos);
  EXPECT_NE(english.find("href=\"https://cdn.example/e83.srt\" rel=\"nofollow ugc "
                         "noopener\">Transcript <bdi dir=\"ltr\">(SRT)</bdi>"),
            std::string::npos);
  EXPECT_NE(english.find("href=\"https://cdn.example/e83.txt\" rel=\"nofollow ugc "
                         "noopener\">Transcript</a>"),
            std::string::npos);
  EXPECT_NE(english.find("<li><a href=\"https://cdn.example/e83.json\" rel=\"nofollow ugc "
                         "noopener\">Chapters</a></li>"),
            std::string::npos);
  const std::string arabic = episode("hello-world-tech", "episode-83", "ar");
  EXPECT_NE(arabic.find("<p class=\"meta\">الموسم 2 · الحلقة 83</p>"), std::string::npos);
  EXPECT_NE(arabic.find(">الفصول</a>"), std::string::npos);
  // An episode without numbers or resources shows neither.
  const std::string older = episode("hello-world-tech", "episode-82", "en");
  EXPECT_EQ(older.find("Season"), std::string::npos);
  EXPECT_EQ(older.find("class=\"resources\""), std::string::npos);
}

// The episode page shows the show's cover art, named for the show, from the site's own folder.
TEST_F(RenderEpisodePage, ShowsTheShowsCoverArt) {
  const std::string prefix = std::string("art/") + k_art_hash + "-";
  const std::string arabic = episode("hello-world-tech", "episode-83", "ar");
  EXPECT_NE(arabic.find("alt=\"صورة غلاف \u2068Hello World Tech\u2069\""), std::string::npos);
  EXPECT_NE(arabic.find("src=\"../../../../" + prefix + "400.webp\""), std::string::npos);
}

TEST_F(RenderEpisodePage, DescribesThePodcastEpisodeInJsonLd) {
  const auto json =
      nlohmann::json::parse(json_ld_of(episode("hello-world-tech", "episode-83", "en")));
  EXPECT_EQ(json["@type"], "PodcastEpisode");
  EXPECT_EQ(json["name"], "Episode 83: compilers");
  EXPECT_EQ(json["datePublished"], core::format_iso8601(k_now - 35 * k_day));
  EXPECT_EQ(json["timeRequired"], "PT34M11S");
  EXPECT_EQ(json["associatedMedia"]["contentUrl"], "https://cdn.example/e83.mp3");
  EXPECT_EQ(json["partOfSeries"]["@type"], "PodcastSeries");
  EXPECT_EQ(json["partOfSeries"]["url"], k_site_url + "/en/podcasts/hello-world-tech/");
}

TEST_F(RenderEpisodePage, JsonLdNamesNoScriptUrlAsMedia) {
  const auto json = nlohmann::json::parse(json_ld_of(episode("script-show", "first", "en")));
  EXPECT_FALSE(json.contains("associatedMedia")); // a javascript: enclosure is no media
}

TEST_F(RenderEpisodePage, IsAnArticleToOpenGraph) {
  EXPECT_NE(episode("hello-world-tech", "episode-1", "en")
                .find("<meta property=\"og:type\" content=\"article\">"),
            std::string::npos);
}

// Episode 83 is five weeks old: "5 weeks ago" reads "6 weeks ago" in a week, before a page
// lifetime of thirty days ends.
TEST_F(RenderEpisodePage, ExpiresWhenItsPublicationPhraseChanges) {
  SiteOptions options = site_options();
  options.max_page_lifetime = 30 * k_day;
  Renderer renderer(options);
  const model::EpisodePage model = model::episode_page_of(whole_show("hello-world-tech"), 0);
  const RenderedPage page = renderer.episode_page(model, "en", k_now);
  EXPECT_NE(page.html.find(">5 weeks ago</time>"), std::string::npos);
  EXPECT_EQ(page.expires_at, k_now + 7 * k_day);
  EXPECT_EQ(renderer.episode_page(model, "en", page.expires_at - 1).html, page.html);
  EXPECT_NE(renderer.episode_page(model, "en", page.expires_at).html.find(">6 weeks ago</time>"),
            std::string::npos);
}

} // namespace
} // namespace podcrawl::render

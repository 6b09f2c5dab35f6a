#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "podcrawl/model/pages.hpp"
#include "podcrawl/render/site.hpp"

// A small directory for the tests of its pages: four shows (one inactive), the page models a
// store holding them hands over, and a Renderer of its site in English and Arabic. The page
// tests here render it in memory; tests/unit/publish/site_test.cpp writes it as an exported site.
namespace podcrawl::render {

// 2025-06-10T12:00:00Z: the time the pages are rendered at.
inline constexpr std::int64_t k_now = 1749556800;
inline constexpr std::int64_t k_day = 86400;
// Four calendar years before k_now.
inline constexpr std::int64_t k_four_years_ago = 1623326400;
inline const std::string k_site_url = "https://podcasts.example";
// The content address of Hello World Tech's cover art.
inline constexpr const char* k_art_hash = "0123456789abcdef0123456789abcdef01234567";

// The cover art of Hello World Tech, as the crawler stores it: three renditions of a square.
model::StoredArtwork hello_artwork();
// The art folder the renders read: one file for each rendition of hello_artwork(), its bytes
// naming its width ("RIFF160"). One for the whole test program.
const std::filesystem::path& art_folder();

// An English show with 83 episodes, the newest five weeks old (season 2, episode 83, with
// transcripts and chapters), added four years ago, with cover art (its feed's image URL is on
// another host, which no page may link).
model::StoredShow hello_world_tech();
// A show whose feed text is markup and whose URLs are javascript:, with one episode two hours
// old and no feed URL.
model::StoredShow hostile_show();
// An Arabic show without episodes, cover art or feed URL, in a category of its own spelling.
model::StoredShow arabic_show();
// A show that left the directory: no page may show it.
model::StoredShow inactive_show();
// The four shows above.
std::vector<model::StoredShow> all_shows();

// The site of the tests: English (the x-default) and Arabic at k_site_url, the templates and
// catalogs of the source tree, and art_folder().
SiteOptions site_options();

// The page models a store holding some shows hands over, built here by hand (the store's own
// are tested against PostgreSQL in tests/unit/store/pages_test.cpp).
struct Directory {
  model::HomePage home;
  // Page 1 of each category's list, in slug order, then of each language's.
  std::vector<model::ShowListPage> lists;
  // The active shows with a title, in slug order.
  std::vector<model::WholeShow> shows;
};
// The directory of `shows`, in any order; inactive and untitled ones are left out.
Directory directory_of(std::vector<model::StoredShow> shows);

// Every file the renderer makes of the directory at `now`, by its name in the exported site
// (the language chooser is "index.html", a show's page "en/podcasts/<slug>/index.html"): every
// page in every locale, the 404 pages, the stylesheet, the chooser's script and the OPML files.
std::map<std::string, std::string> every_file(Renderer& renderer, const Directory& directory,
                                              std::int64_t now = k_now);

// The text of the page's first <script type="application/ld+json"> element; "" when it has none.
std::string json_ld_of(const std::string& html);

// A Renderer of site_options() and the page models of all_shows(), each page rendered at k_now.
class PageTest : public ::testing::Test {
protected:
  // The whole of a show, and one of its lists by category slug or language tag. Each throws
  // std::out_of_range when the directory has no such show or list.
  const model::WholeShow& whole_show(std::string_view slug) const;
  const model::ShowListPage& list_of(model::ListKind kind, std::string_view slug) const;

  std::string home(std::string_view locale);
  std::string list(model::ListKind kind, std::string_view slug, std::string_view locale);
  // The pages' HTML in a locale; show() is page `page` of the show's episode list. Each throws
  // std::out_of_range for a show, list or episode the directory does not have.
  std::string show(std::string_view slug, std::string_view locale, std::int64_t page = 1);
  std::string episode(std::string_view slug, std::string_view episode_slug,
                      std::string_view locale);

  Renderer m_renderer{site_options()};
  const Directory m_directory = directory_of(all_shows());
};

} // namespace podcrawl::render

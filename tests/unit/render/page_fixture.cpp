#include "page_fixture.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <tuple>

#include "podcrawl/core/config.hpp"
#include "podcrawl/l10n/localizer.hpp"
#include "podcrawl/render/layout.hpp"
#include "podcrawl/render/paths.hpp"
#include "podcrawl/store/artwork.hpp"
#include "support/temp_dir.hpp"

namespace podcrawl::render {

namespace {

namespace fs = std::filesystem;

feed::Episode make_episode(int number, std::int64_t published) {
  feed::Episode episode;
  episode.guid = "guid-" + std::to_string(number);
  episode.title = "Episode " + std::to_string(number) + ": compilers";
  episode.published = published;
  episode.enclosure_url = "https://cdn.example/e" + std::to_string(number) + ".mp3";
  episode.enclosure_type = "audio/mpeg";
  episode.duration_seconds = 1968 + number;
  episode.description = "<p>About episode " + std::to_string(number) + "</p>";
  return episode;
}

std::string lower(std::string text) {
  for (char& c : text) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return text;
}

// The list entries of `members`, in the store's list order: by title, then slug.
std::vector<model::ShowSummary> summaries(std::vector<const model::StoredShow*> members) {
  std::sort(members.begin(), members.end(), [](const auto* a, const auto* b) {
    return std::tie(a->show.title, a->slug) < std::tie(b->show.title, b->slug);
  });
  std::vector<model::ShowSummary> list;
  for (const auto* show : members) {
    list.push_back({show->slug, show->show.title, show->show.author, show->show.language,
                    static_cast<std::int64_t>(show->episodes.size()), show->artwork});
  }
  return list;
}

// The show as its pages are rendered: its episodes beside it, its categories as entries.
model::WholeShow whole_show_of(const model::StoredShow& show,
                               const std::map<std::string, model::CategoryEntry>& categories) {
  model::WholeShow pages;
  pages.show = show;
  for (const auto& name : show.show.categories) {
    pages.categories.push_back(categories.at(l10n::slugify(name)));
  }
  return pages;
}

std::string file_in_locale(const std::string& locale, const std::string& path) {
  return file_in(locale + "/" + path);
}

} // namespace

model::StoredArtwork hello_artwork() {
  model::StoredArtwork artwork;
  artwork.content_hash = k_art_hash;
  artwork.width = 3000;
  artwork.height = 3000;
  for (const int width : {160, 400, 1400}) {
    artwork.renditions.push_back({width, width, 4 + width});
  }
  return artwork;
}

const fs::path& art_folder() {
  static const testing::TempDir folder;
  static const bool made = [] {
    for (const auto& rendition : hello_artwork().renditions) {
      testing::write_file(folder.path() / model::art_file_name(k_art_hash, rendition.width),
                          "RIFF" + std::to_string(rendition.width));
    }
    return true;
  }();
  (void)made;
  return folder.path();
}

model::StoredShow hello_world_tech() {
  model::StoredShow stored;
  stored.slug = "hello-world-tech";
  stored.feed_url = "https://feeds.example/hello.xml";
  stored.added_at = k_four_years_ago;
  stored.updated_at = k_now - k_day;
  stored.show.title = "Hello World Tech";
  stored.show.language = "en";
  stored.show.effective_language = "en";
  stored.show.author = "Ada & Co";
  stored.show.link = "https://hello.example/";
  stored.show.description = "<p>A show about <b>software</b>.</p>";
  stored.show.categories = {"Technology", "Tech News"};
  stored.show.image = "https://images.example/hello.jpg";
  stored.artwork = hello_artwork();
  for (int i = 0; i < 83; ++i) {
    stored.episodes.push_back({make_episode(83 - i, k_now - 35 * k_day - i * 17 * k_day),
                               "episode-" + std::to_string(83 - i), std::nullopt});
  }
  feed::Episode& newest = stored.episodes.front().episode;
  newest.season = 2;
  newest.episode = 83;
  newest.transcripts = {{"https://cdn.example/e83.vtt", "text/vtt"},
                        {"https://cdn.example/e83.srt", "application/x-subrip"},
                        {"https://cdn.example/e83.txt", ""}};
  newest.chapters_url = "https://cdn.example/e83.json";
  return stored;
}

model::StoredShow hostile_show() {
  model::StoredShow stored;
  stored.slug = "script-show";
  stored.added_at = k_now - 3 * k_day;
  stored.show.title = "<script>alert(1)</script> Show";
  stored.show.author = "\"Quote\" <b>Author</b>";
  stored.show.categories = {"Technology"};
  feed::Episode episode = make_episode(1, k_now - 2 * 3600);
  episode.enclosure_url = "javascript:alert(2)";
  episode.link = "javascript:alert(3)";
  episode.transcripts = {{"javascript:alert(4)", "text/html"}};
  episode.chapters_url = "javascript:alert(5)";
  stored.episodes.push_back({episode, "first", std::nullopt});
  return stored;
}

model::StoredShow arabic_show() {
  model::StoredShow stored;
  stored.slug = "mrhba";
  stored.added_at = k_now - 400 * k_day;
  stored.show.title = "مرحبا بالعالم";
  stored.show.language = "ar";
  stored.show.effective_language = "ar";
  stored.show.categories = {"تقنية"};
  return stored;
}

model::StoredShow inactive_show() {
  model::StoredShow stored = arabic_show();
  stored.slug = "gone-show";
  stored.active = false;
  return stored;
}

std::vector<model::StoredShow> all_shows() {
  return {hello_world_tech(), hostile_show(), arabic_show(), inactive_show()};
}

SiteOptions site_options() {
  const fs::path source_dir = core::source_dir();
  SiteOptions options;
  options.locales = {"en", "ar"};
  options.site_url = k_site_url + "/";
  options.templates_dir = source_dir / "templates";
  options.locales_dir = source_dir / "config" / "locales";
  options.art_dir = art_folder();
  return options;
}

Directory directory_of(std::vector<model::StoredShow> shows) {
  std::erase_if(shows, [](const auto& s) { return !s.active || s.show.title.empty(); });
  std::sort(shows.begin(), shows.end(),
            [](const auto& a, const auto& b) { return a.slug < b.slug; });
  Directory directory;
  model::HomePage& home = directory.home;
  home.show_count = static_cast<std::int64_t>(shows.size());
  std::map<std::string, std::vector<const model::StoredShow*>> by_category;
  std::map<std::string, model::CategoryEntry> categories;
  std::map<std::string, std::vector<const model::StoredShow*>> by_language;
  for (const auto& show : shows) {
    for (const auto& stored : show.episodes) {
      if (stored.episode.published) {
        home.latest.push_back(
            {show.slug, show.show.title, show.show.language, stored.slug, stored.episode});
      }
    }
    for (const auto& name : show.show.categories) {
      const std::string slug = l10n::slugify(name);
      categories.try_emplace(slug, model::CategoryEntry{slug, name, show.show.language, 0});
      by_category[slug].push_back(&show);
    }
    if (!show.show.language.empty()) {
      by_language[lower(show.show.language)].push_back(&show);
    }
  }
  std::stable_sort(home.latest.begin(), home.latest.end(), [](const auto& a, const auto& b) {
    return *a.episode.published > *b.episode.published;
  });
  home.latest.resize(std::min<std::size_t>(home.latest.size(), model::k_latest_episodes));
  for (auto& [slug, category] : categories) {
    category.show_count = static_cast<std::int64_t>(by_category[slug].size());
    home.categories.push_back(category);
    model::ShowListPage list;
    list.category = category;
    list.total = category.show_count;
    list.shows = summaries(by_category[slug]);
    directory.lists.push_back(std::move(list));
  }
  for (const auto& [tag, members] : by_language) {
    home.languages.push_back({tag, static_cast<std::int64_t>(members.size())});
    model::ShowListPage list;
    list.kind = model::ListKind::language;
    list.language = home.languages.back();
    list.total = list.language.show_count;
    list.shows = summaries(members);
    directory.lists.push_back(std::move(list));
  }
  for (const auto& show : shows) {
    directory.shows.push_back(whole_show_of(show, categories));
  }
  return directory;
}

std::map<std::string, std::string> every_file(Renderer& renderer, const Directory& directory,
                                              std::int64_t now) {
  using Kind = PagePath::Kind;
  std::map<std::string, std::string> files;
  files[file_of(PagePath(Kind::chooser))] = renderer.root_page();
  files[path_of(PagePath(Kind::stylesheet))] = renderer.stylesheet();
  files[path_of(PagePath(Kind::script))] = renderer.locale_script();
  for (const auto& show : directory.shows) {
    if (std::string opml = renderer.show_opml(show.show); !opml.empty()) {
      files[opml_path(show.show.slug)] = std::move(opml);
    }
  }
  for (const auto& locale : renderer.locales()) {
    files[path_of(PagePath(Kind::not_found, locale))] = renderer.not_found_page(locale);
    files[file_in_locale(locale, "")] = renderer.home_page(directory.home, locale, now).html;
    for (const auto& list : directory.lists) {
      files[file_in_locale(locale, list_path(list, list.page))] =
          renderer.list_page(list, locale, now).html;
    }
    for (const auto& show : directory.shows) {
      const std::string& slug = show.show.slug;
      const auto pages = model::page_count(static_cast<std::int64_t>(show.show.episodes.size()),
                                           model::k_episodes_per_page);
      for (std::int64_t page = 1; page <= pages; ++page) {
        files[file_in_locale(locale, show_path(slug, page))] =
            renderer.show_page(model::show_page_of(show, page), locale, now).html;
      }
      for (std::size_t i = 0; i < show.show.episodes.size(); ++i) {
        files[file_in_locale(locale, episode_path(slug, show.show.episodes[i].slug))] =
            renderer.episode_page(model::episode_page_of(show, i), locale, now).html;
      }
    }
  }
  return files;
}

std::string json_ld_of(const std::string& html) {
  const std::string open = "<script type=\"application/ld+json\">";
  const auto start = html.find(open);
  if (start == std::string::npos) {
    return {};
  }
  const auto end = html.find("</script>", start);
  return html.substr(start + open.size(), end - start - open.size());
}

const model::WholeShow& PageTest::whole_show(std::string_view slug) const {
  for (const auto& show : m_directory.shows) {
    if (show.show.slug == slug) {
      return show;
    }
  }
  throw std::out_of_range("no show " + std::string(slug));
}

const model::ShowListPage& PageTest::list_of(model::ListKind kind, std::string_view slug) const {
  for (const auto& list : m_directory.lists) {
    const std::string& name =
        kind == model::ListKind::category ? list.category.slug : list.language.tag;
    if (list.kind == kind && name == slug) {
      return list;
    }
  }
  throw std::out_of_range("no list " + std::string(slug));
}

std::string PageTest::home(std::string_view locale) {
  return m_renderer.home_page(m_directory.home, locale, k_now).html;
}

std::string PageTest::list(model::ListKind kind, std::string_view slug, std::string_view locale) {
  return m_renderer.list_page(list_of(kind, slug), locale, k_now).html;
}

std::string PageTest::show(std::string_view slug, std::string_view locale, std::int64_t page) {
  return m_renderer.show_page(model::show_page_of(whole_show(slug), page), locale, k_now).html;
}

std::string PageTest::episode(std::string_view slug, std::string_view episode_slug,
                              std::string_view locale) {
  const model::WholeShow& show = whole_show(slug);
  const auto& episodes = show.show.episodes;
  const auto at = std::find_if(episodes.begin(), episodes.end(),
                               [&](const auto& stored) { return stored.slug == episode_slug; });
  if (at == episodes.end()) {
    throw std::out_of_range("no episode " + std::string(episode_slug));
  }
  const auto index = static_cast<std::size_t>(at - episodes.begin());
  return m_renderer.episode_page(model::episode_page_of(show, index), locale, k_now).html;
}

} // namespace podcrawl::render

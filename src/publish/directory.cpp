#include "podcrawl/publish/directory.hpp"

#include <algorithm>
#include <chrono>
#include <iterator>
#include <set>

#include <spdlog/spdlog.h>

namespace podcrawl::publish {
namespace {

// Shows loaded per batch of a render: memory holds this many shows with their episodes (and
// the render threads' few), whatever the directory's size.
constexpr int k_render_batch_shows = 100;
// Categories and languages listed per query of a render's walk.
constexpr int k_render_batch_lists = 500;
// How often a long render says how far it got.
constexpr auto k_progress_interval = std::chrono::seconds(5);

// Every page of a list, from page 1 to its last.
template <typename Load>
void write_list_pages(SiteWriter& writer, std::int64_t shows, Load load) {
  const std::int64_t pages = model::page_count(shows, model::k_shows_per_page);
  for (std::int64_t page = 1; page <= pages; ++page) {
    if (const auto list = load(page)) {
      writer.write_list(*list);
    }
  }
}

// Says how far a long render got, every k_progress_interval.
class Progress {
public:
  void shows(std::int64_t done, std::size_t of = 0) {
    if (std::chrono::steady_clock::now() < m_next) {
      return;
    }
    if (of > 0) {
      spdlog::info("render: {} of {} shows so far", done, of);
    } else {
      spdlog::info("render: {} shows so far", done);
    }
    m_next += k_progress_interval;
  }

private:
  std::chrono::steady_clock::time_point m_next =
      std::chrono::steady_clock::now() + k_progress_interval;
};

// The home page and every category and language with its pages.
void write_lists(store::DirectoryPages& pages, SiteWriter& writer) {
  writer.write_home(pages.load_home_page());
  for (std::string after;;) {
    const auto categories = pages.load_categories(after, k_render_batch_lists);
    if (categories.empty()) {
      break;
    }
    for (const auto& category : categories) {
      write_list_pages(writer, category.show_count, [&](std::int64_t page) {
        return pages.load_category_page(category.slug, page);
      });
    }
    after = categories.back().slug;
  }
  for (std::string after;;) {
    const auto languages = pages.load_languages(after, k_render_batch_lists);
    if (languages.empty()) {
      break;
    }
    for (const auto& language : languages) {
      write_list_pages(writer, language.show_count, [&](std::int64_t page) {
        return pages.load_language_page(language.tag, page);
      });
    }
    after = languages.back().tag;
  }
}

// The walk over the whole directory: the lists, then the shows in slug order, a batch at a time.
std::int64_t write_directory(store::DirectoryPages& pages, SiteWriter& writer) {
  write_lists(pages, writer);
  std::int64_t shows = 0;
  Progress progress;
  for (std::string after;;) {
    const auto batch = pages.load_show_batch(after, k_render_batch_shows);
    if (batch.empty()) {
      break;
    }
    for (const auto& show : batch) {
      writer.write_show(show);
    }
    shows += static_cast<std::int64_t>(batch.size());
    after = batch.back().show.slug;
    progress.shows(shows);
  }
  return shows;
}

// An update of the published site: the shows changed since it was rendered or with a relative
// date that has changed by now, each again or removed, and the lists when any show changed or
// they expired. Returns the shows rendered or removed.
std::int64_t update_directory(store::DirectoryPages& pages, SiteWriter& writer,
                              const PreviousRender& previous) {
  std::vector<std::string> changed = pages.shows_changed_since(previous.snapshot);
  std::sort(changed.begin(), changed.end()); // the database's collation may order otherwise
  std::vector<std::string> slugs;
  std::set_union(changed.begin(), changed.end(), previous.expired_shows.begin(),
                 previous.expired_shows.end(), std::back_inserter(slugs));
  slugs.erase(std::unique(slugs.begin(), slugs.end()), slugs.end());
  Progress progress;
  std::int64_t done = 0;
  for (std::size_t first = 0; first < slugs.size(); first += k_render_batch_shows) {
    const std::vector<std::string> part(
        slugs.begin() + static_cast<std::ptrdiff_t>(first),
        slugs.begin() + static_cast<std::ptrdiff_t>(
                            std::min(slugs.size(), first + std::size_t{k_render_batch_shows})));
    std::set<std::string> listed;
    for (const auto& show : pages.load_show_pages(part)) {
      listed.insert(show.show.slug);
      writer.write_show(show);
    }
    for (const auto& slug : part) {
      if (!listed.contains(slug)) {
        writer.remove_show(slug); // it left the directory
      }
    }
    done += static_cast<std::int64_t>(part.size());
    progress.shows(done, slugs.size());
  }
  if (!changed.empty() || previous.lists_expired) {
    write_lists(pages, writer);
  }
  return done;
}

} // namespace

DirectoryRender render_directory(store::DirectoryPages& pages, const render::SiteOptions& options,
                                 const std::filesystem::path& out_dir, std::int64_t now,
                                 bool full) {
  // Taken before anything is read: every change it does not cover, the next render sees.
  const std::string snapshot = pages.directory_snapshot();
  SiteWriter writer(options, out_dir, now, full);
  const auto& previous = writer.previous();
  DirectoryRender result;
  result.shows =
      previous ? update_directory(pages, writer, *previous) : write_directory(pages, writer);
  result.summary = writer.publish(snapshot);
  return result;
}

} // namespace podcrawl::publish

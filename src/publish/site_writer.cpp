#include "podcrawl/publish/site.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "podcrawl/core/bounded_queue.hpp"
#include "podcrawl/core/error.hpp"
#include "podcrawl/core/files.hpp"
#include "podcrawl/model/artwork.hpp"
#include "podcrawl/render/layout.hpp"
#include "podcrawl/render/paths.hpp"
#include "publish_internal.hpp"

namespace podcrawl::publish {

namespace {

using render::episode_path;
using render::file_in;
using render::is_page_segment;
using render::list_path;
using render::opml_path;
using render::PagePath;
using render::path_of;
using render::Renderer;
using render::show_path;
using render::SiteOptions;

// Most page jobs waiting for a render thread: the loader blocks beyond this, so memory holds a
// bounded number of models whatever the directory's size.
constexpr std::size_t k_max_queued_jobs = 8;

// Render threads, each with its own Renderer, taking jobs from a bounded queue. The first error
// of any job stops them all; run() and drain() throw it.
class RenderPool {
public:
  using Job = std::function<void(Renderer&)>;

  RenderPool(const SiteOptions& options, std::size_t threads) : m_jobs(k_max_queued_jobs) {
    for (std::size_t i = 0; i < threads; ++i) {
      m_threads.emplace_back([this, options] { work(options); });
    }
  }

  ~RenderPool() { stop(); }

  // Queue a job, waiting while the queue is full. Throws the first error of any job.
  void run(Job job) { m_jobs.push(std::move(job)); }

  // Wait until every queued job is done; throws the first error of any job.
  void drain() { m_jobs.wait_until_done(); }

  // The jobs queued are done, then the threads end.
  void stop() {
    m_jobs.close();
    m_threads.clear();
  }

private:
  void work(const SiteOptions& options) {
    std::optional<Renderer> renderer;
    try {
      renderer.emplace(options);
    } catch (...) {
      m_jobs.fail(std::current_exception());
      return;
    }
    while (std::optional<Job> job = m_jobs.pop()) {
      try {
        (*job)(*renderer);
      } catch (...) {
        m_jobs.fail(std::current_exception());
      }
      m_jobs.done();
    }
  }

  core::BoundedQueue<Job> m_jobs;
  std::vector<std::jthread> m_threads; // last: joined before the rest is destroyed
};

std::size_t render_threads(std::size_t locales) {
  return std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1,
                                 std::max<std::size_t>(locales, 2));
}

// The state's files beside the site (staging.cpp).
constexpr const char* k_state_file = "state";
constexpr const char* k_shows_file = "shows";
constexpr const char* k_lists_file = "lists";
// This render's show records in the order handed over, before their expiry is known.
constexpr const char* k_pending_file = "shows.pending";

constexpr std::int64_t k_never = std::numeric_limits<std::int64_t>::max();

// Lines of a state file, one at a time; nothing when the file is missing.
class LineReader {
public:
  explicit LineReader(const std::filesystem::path& file) : m_in(file) {}
  std::optional<std::string> next() {
    std::string line;
    while (m_in && std::getline(m_in, line)) {
      if (!line.empty()) {
        return line;
      }
    }
    return std::nullopt;
  }

private:
  std::ifstream m_in;
};

// The records of a `shows` file in slug order; unreadable lines are skipped (their shows are
// rendered again when they next change).
class RecordReader {
public:
  explicit RecordReader(const std::filesystem::path& file) : m_lines(file) { advance(); }
  const std::optional<internal::ShowRecord>& current() const { return m_current; }
  void advance() {
    m_current.reset();
    while (const auto line = m_lines.next()) {
      if ((m_current = internal::parse_show_record(*line))) {
        return;
      }
    }
  }

private:
  LineReader m_lines;
  std::optional<internal::ShowRecord> m_current;
};

std::string folder_of(const std::string& locale, const std::string& path) {
  return locale + "/" + path;
}

// An exported page is rendered again when a relative date on it changes, not daily.
constexpr std::int64_t k_exported_page_lifetime = 366 * 86400;

SiteOptions exported(SiteOptions options) {
  options.max_page_lifetime = k_exported_page_lifetime;
  return options;
}

} // namespace

struct SiteWriter::Impl {
  SiteOptions options;
  Renderer renderer; // the loader thread's: root and 404 pages
  std::int64_t now;
  internal::SiteFiles files;
  std::string fingerprint;
  std::optional<internal::RenderState> published;
  std::optional<PreviousRender> previous;
  std::atomic<std::int64_t> pages{0};
  std::int64_t skipped_shows = 0;
  std::int64_t missing_art = 0;

  // Shows handed over by this render: their records in the pending file, their expiry here.
  std::ofstream pending;
  std::string last_pending;
  bool pending_sorted = true;
  std::mutex expiry_mutex;
  std::map<std::string, std::int64_t> show_expiry;
  std::set<std::string> removed_shows;
  // List pages rendered by this render (empty when it rendered none), in order.
  std::vector<std::string> list_paths;
  bool lists_rendered = false;
  std::atomic<std::int64_t> lists_expire_at{k_never};

  RenderPool pool; // last: its threads stop before the rest is destroyed

  Impl(const SiteOptions& site_options, const std::filesystem::path& out_dir, std::int64_t now_,
       bool full)
      : options(exported(site_options)),
        renderer(options),
        now(now_),
        files(out_dir),
        fingerprint(internal::render_fingerprint(options, renderer.site_url())),
        pool(options, render_threads(options.locales.size())) {
    published = read_published_state();
    if (!full && published) {
      previous = previous_render(*published);
    }
    files.begin(previous ? internal::SiteFiles::Mode::update : internal::SiteFiles::Mode::replace);
    pending.open(files.staged_state_file(k_pending_file), std::ios::binary | std::ios::trunc);
    if (!pending) {
      throw core::EnvironmentError("cannot write " +
                                   files.staged_state_file(k_pending_file).string());
    }
  }

  // The published site's state when this render may update it: the same fingerprint, a time
  // not before its own, its shows recorded, and the site still there (a folder deleted beside
  // its state is rendered whole again).
  std::optional<internal::RenderState> read_published_state() const {
    auto state = internal::read_render_state(files.state_file(k_state_file));
    std::error_code error;
    if (!state || state->fingerprint != fingerprint || state->rendered_at > now ||
        !std::filesystem::exists(files.state_file(k_shows_file), error) || !files.site_exists()) {
      return std::nullopt;
    }
    return state;
  }

  PreviousRender previous_render(const internal::RenderState& state) const {
    PreviousRender result;
    result.snapshot = state.snapshot;
    result.lists_expired = state.lists_expire_at <= now;
    for (RecordReader records(files.state_file(k_shows_file)); records.current();
         records.advance()) {
      if (records.current()->expires_at <= now) {
        result.expired_shows.push_back(records.current()->slug);
      }
    }
    return result;
  }

  bool updating() const { return previous.has_value(); }

  void write(const std::string& file, std::string_view content) { files.write(file, content); }

  // The cover art files a show's pages link, from the art folder into the site's art/.
  void place_artwork(const std::optional<model::StoredArtwork>& artwork) {
    if (options.art_dir.empty()) {
      return;
    }
    for (const std::string& name : render::art_files(artwork)) {
      const auto placed =
          files.place(path_of(PagePath(PagePath::Kind::art, {}, name)), options.art_dir / name);
      missing_art += placed == internal::SiteFiles::Placed::missing ? 1 : 0;
    }
  }

  void write_page(const std::string& locale, const std::string& path, const std::string& html) {
    files.write(file_in(locale + "/" + path), html);
    ++pages;
  }

  // Render a model in every locale on the pool; the model is shared by the jobs.
  template <typename Model, typename Render>
  void each_locale(std::shared_ptr<const Model> model, Render render) {
    for (const auto& locale : renderer.locales()) {
      pool.run([this, model, locale, render](Renderer& own) { render(own, *model, locale); });
    }
  }

  void lower_list_expiry(std::int64_t expires_at) {
    std::int64_t current = lists_expire_at.load();
    while (expires_at < current && !lists_expire_at.compare_exchange_weak(current, expires_at)) {
    }
  }

  void add_pending(const internal::ShowRecord& record) {
    if (!last_pending.empty() && record.slug <= last_pending) {
      pending_sorted = false;
    }
    last_pending = record.slug;
    pending << internal::show_record_line(record);
    std::lock_guard lock(expiry_mutex);
    show_expiry[record.slug] = k_never;
  }

  void lower_show_expiry(const std::string& slug, std::int64_t expires_at) {
    std::lock_guard lock(expiry_mutex);
    auto& current = show_expiry[slug];
    current = std::min(current, expires_at);
  }

  // This render's records with their expiry, in slug order.
  std::vector<internal::ShowRecord> pending_records() {
    pending.close();
    std::vector<internal::ShowRecord> records;
    LineReader lines(files.staged_state_file(k_pending_file));
    while (const auto line = lines.next()) {
      if (auto record = internal::parse_show_record(*line)) {
        record->expires_at = show_expiry.at(record->slug);
        records.push_back(std::move(*record));
      }
    }
    std::error_code error;
    std::filesystem::remove(files.staged_state_file(k_pending_file), error);
    if (!pending_sorted) {
      std::sort(records.begin(), records.end(),
                [](const auto& a, const auto& b) { return a.slug < b.slug; });
    }
    return records;
  }

  // An update: the published pages of a rewritten show that its new record does not have.
  void prune_show(const internal::ShowRecord& record) {
    std::set<std::string> expected;
    for (std::int64_t page = 1; page <= record.pages; ++page) {
      expected.insert(file_in(show_path(record.slug, page)));
    }
    for (const auto& episode : record.episodes) {
      expected.insert(file_in(episode_path(record.slug, episode)));
    }
    for (const auto& locale : renderer.locales()) {
      const std::string prefix = locale + "/";
      for (const auto& file : files.published_files(folder_of(locale, show_path(record.slug)))) {
        if (!expected.contains(file.substr(prefix.size()))) {
          files.remove(file);
        }
      }
    }
  }

  // An update that rendered the lists: the published list pages it did not render.
  void prune_lists() {
    std::set<std::string> expected;
    for (const auto& path : list_paths) {
      expected.insert(file_in(path));
    }
    for (const auto& locale : renderer.locales()) {
      const std::string prefix = locale + "/";
      for (const char* folder : {"categories", "languages"}) {
        for (const auto& file : files.published_files(prefix + folder)) {
          if (!expected.contains(file.substr(prefix.size()))) {
            files.remove(file);
          }
        }
      }
    }
  }

  // The new `shows` file (the published one merged with this render's records, less the
  // removed shows) and, from it, the sitemap.
  void write_shows_and_sitemap(std::vector<internal::ShowRecord> records) {
    std::ofstream shows(files.staged_state_file(k_shows_file), std::ios::binary | std::ios::trunc);
    internal::SitemapWriter sitemap(renderer.locales(), renderer.site_url(), files);
    if (lists_rendered) {
      for (const auto& path : list_paths) {
        sitemap.add(path);
      }
    } else {
      LineReader lists(files.state_file(k_lists_file));
      while (const auto path = lists.next()) {
        sitemap.add(*path == "/" ? "" : *path);
      }
    }
    const auto emit = [&](const internal::ShowRecord& record) {
      shows << internal::show_record_line(record);
      for (std::int64_t page = 1; page <= record.pages; ++page) {
        sitemap.add(show_path(record.slug, page));
      }
      for (const auto& episode : record.episodes) {
        sitemap.add(episode_path(record.slug, episode));
      }
    };
    auto next = records.begin();
    if (updating()) {
      for (RecordReader old(files.state_file(k_shows_file)); old.current(); old.advance()) {
        const auto& record = *old.current();
        for (; next != records.end() && next->slug < record.slug; ++next) {
          emit(*next);
        }
        if (next != records.end() && next->slug == record.slug) {
          continue; // rewritten by this render
        }
        if (!removed_shows.contains(record.slug)) {
          emit(record);
        }
      }
    }
    for (; next != records.end(); ++next) {
      emit(*next);
    }
    sitemap.finish();
    if (!shows.flush()) {
      throw core::EnvironmentError("cannot write " +
                                   files.staged_state_file(k_shows_file).string());
    }
  }

  void write_lists_file() {
    std::string text;
    for (const auto& path : list_paths) {
      text += (path.empty() ? "/" : path) + "\n";
    }
    core::write_file_atomically(files.staged_state_file(k_lists_file), text);
  }
};

SiteWriter::SiteWriter(const SiteOptions& options, const std::filesystem::path& out_dir,
                       std::int64_t now, bool full)
    : m_impl(std::make_unique<Impl>(options, out_dir, now, full)) {}

SiteWriter::~SiteWriter() = default;

const std::optional<PreviousRender>& SiteWriter::previous() const {
  return m_impl->previous;
}

void SiteWriter::write_home(const model::HomePage& home) {
  m_impl->lists_rendered = true;
  m_impl->list_paths.emplace_back("");
  m_impl->each_locale(std::make_shared<const model::HomePage>(home),
                      [this](Renderer& own, const model::HomePage& model, const std::string& tag) {
                        const auto page = own.home_page(model, tag, m_impl->now);
                        m_impl->lower_list_expiry(page.expires_at);
                        m_impl->write_page(tag, "", page.html);
                      });
}

void SiteWriter::write_list(const model::ShowListPage& list) {
  const std::string path = list_path(list, list.page);
  m_impl->lists_rendered = true;
  m_impl->list_paths.push_back(path);
  m_impl->each_locale(
      std::make_shared<const model::ShowListPage>(list),
      [this, path](Renderer& own, const model::ShowListPage& model, const std::string& tag) {
        const auto page = own.list_page(model, tag, m_impl->now);
        m_impl->lower_list_expiry(page.expires_at);
        m_impl->write_page(tag, path, page.html);
      });
}

void SiteWriter::write_show(const model::WholeShow& show) {
  const std::string& slug = show.show.slug;
  if (!is_page_segment(slug)) {
    ++m_impl->skipped_shows;
    return;
  }
  internal::ShowRecord record;
  record.slug = slug;
  record.pages = model::page_count(static_cast<std::int64_t>(show.show.episodes.size()),
                                   model::k_episodes_per_page);
  for (const auto& episode : show.show.episodes) {
    if (is_page_segment(episode.slug)) {
      record.episodes.push_back(episode.slug);
    }
  }
  m_impl->add_pending(record);
  if (const std::string opml = m_impl->renderer.show_opml(show.show); !opml.empty()) {
    m_impl->write(opml_path(slug), opml);
  }
  m_impl->place_artwork(show.show.artwork);
  for (const auto& episode : show.show.episodes) {
    m_impl->place_artwork(episode.artwork);
  }
  const std::int64_t pages = record.pages;
  m_impl->each_locale(
      std::make_shared<const model::WholeShow>(show),
      [this, pages](Renderer& own, const model::WholeShow& whole, const std::string& tag) {
        const std::string& show_slug = whole.show.slug;
        std::int64_t expires_at = k_never;
        for (std::int64_t page = 1; page <= pages; ++page) {
          const auto rendered = own.show_page(model::show_page_of(whole, page), tag, m_impl->now);
          expires_at = std::min(expires_at, rendered.expires_at);
          m_impl->write_page(tag, show_path(show_slug, page), rendered.html);
        }
        const auto& episodes = whole.show.episodes;
        for (std::size_t i = 0; i < episodes.size(); ++i) {
          if (is_page_segment(episodes[i].slug)) {
            const auto rendered =
                own.episode_page(model::episode_page_of(whole, i), tag, m_impl->now);
            expires_at = std::min(expires_at, rendered.expires_at);
            m_impl->write_page(tag, episode_path(show_slug, episodes[i].slug), rendered.html);
          }
        }
        m_impl->lower_show_expiry(show_slug, expires_at);
      });
}

void SiteWriter::remove_show(const std::string& slug) {
  if (!m_impl->updating() || !is_page_segment(slug)) {
    return;
  }
  m_impl->removed_shows.insert(slug);
  for (const auto& locale : m_impl->renderer.locales()) {
    m_impl->files.remove(folder_of(locale, show_path(slug)));
  }
  m_impl->files.remove(opml_path(slug));
}

Summary SiteWriter::publish(const std::string& snapshot) {
  auto& impl = *m_impl;
  impl.pool.drain();
  auto& renderer = impl.renderer;
  impl.write(path_of(PagePath(PagePath::Kind::stylesheet)), renderer.stylesheet());
  impl.write(path_of(PagePath(PagePath::Kind::script)), renderer.locale_script());
  impl.write(file_of(PagePath(PagePath::Kind::chooser)), renderer.root_page());
  for (const auto& locale : renderer.locales()) {
    impl.write(path_of(PagePath(PagePath::Kind::not_found, locale)),
               renderer.not_found_page(locale));
  }
  std::vector<internal::ShowRecord> records = impl.pending_records();
  if (impl.updating()) {
    for (const auto& record : records) {
      impl.prune_show(record);
    }
    if (impl.lists_rendered) {
      impl.prune_lists();
    }
  }
  const bool changed = !records.empty() || !impl.removed_shows.empty() || impl.lists_rendered;
  if (!impl.updating() || changed) {
    impl.write_shows_and_sitemap(std::move(records));
  }
  if (impl.lists_rendered) {
    impl.write_lists_file();
  }
  internal::RenderState state;
  state.fingerprint = impl.fingerprint;
  state.snapshot = snapshot;
  state.rendered_at = impl.now;
  state.lists_expire_at = impl.lists_rendered || !impl.published ? impl.lists_expire_at.load()
                                                                 : impl.published->lists_expire_at;
  core::write_file_atomically(impl.files.staged_state_file(k_state_file),
                              internal::render_state_text(state));
  impl.files.commit();
  Summary summary;
  summary.pages = impl.pages + 1 + static_cast<std::int64_t>(renderer.locales().size());
  summary.written = impl.files.written();
  summary.removed = impl.files.removed();
  summary.skipped_shows = impl.skipped_shows;
  summary.missing_art = impl.missing_art;
  summary.updated = impl.updating();
  return summary;
}

} // namespace podcrawl::publish

#include "podcrawl/render/site.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "podcrawl/core/error.hpp"
#include "podcrawl/core/files.hpp"
#include "podcrawl/render/report.hpp"
#include "render_internal.hpp"

namespace podcrawl::render {

namespace internal {

namespace {

std::string read_asset(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    throw core::EnvironmentError("cannot read template " + file.string());
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string read_template(const std::filesystem::path& dir, std::string_view name) {
  return read_asset(dir / (std::string(name) + ".mustache"));
}

// A partial is included by a tag on a line of its own, and that line's newline ends the partial's
// last line: its file's own final newline would leave a blank line behind.
std::string read_partial(const std::filesystem::path& dir, std::string_view name) {
  std::string text = read_template(dir, name);
  if (text.ends_with('\n')) {
    text.pop_back();
  }
  return text;
}

void compile_template(Template& target, const std::filesystem::path& dir, std::string_view name) {
  Template compiled{template_text(dir, name)};
  if (!compiled.is_valid()) {
    throw core::EnvironmentError("template " + std::string(name) + ": " + compiled.error_message());
  }
  target = std::move(compiled);
}

} // namespace

// The partials are expanded into each page template as it is read: a page is parsed once, not
// each partial again on every render. Including them as text renders the same bytes, since a
// partial shares its includer's context and line.
std::string template_text(const std::filesystem::path& dir, std::string_view name) {
  std::string text = read_template(dir, name);
  for (const char* partial_name : {"head", "foot", "show_list", "pagination", "art"}) {
    const std::string tag = "{{> " + std::string(partial_name) + "}}";
    const std::string partial = read_partial(dir, partial_name);
    for (std::size_t at = text.find(tag); at != std::string::npos;
         at = text.find(tag, at + partial.size())) {
      text.replace(at, tag.size(), partial);
    }
  }
  return text;
}

Templates load_templates(const std::filesystem::path& dir) {
  Templates templates;
  compile_template(templates.root, dir, "root");
  compile_template(templates.home, dir, "home");
  compile_template(templates.list, dir, "list");
  compile_template(templates.show, dir, "show");
  compile_template(templates.episode, dir, "episode");
  compile_template(templates.not_found, dir, "not_found");
  compile_template(templates.search, dir, "search");
  templates.stylesheet = read_asset(dir / k_stylesheet_file);
  templates.locale_script = read_asset(dir / k_locale_script_file);
  return templates;
}

// True when `file` already holds exactly `content`.
bool holds(const std::filesystem::path& file, std::string_view content) {
  std::error_code error;
  if (std::filesystem::file_size(file, error) != content.size() || error) {
    return false;
  }
  std::ifstream in(file, std::ios::binary);
  std::string existing(content.size(), '\0');
  in.read(existing.data(), static_cast<std::streamsize>(existing.size()));
  return in && existing == content;
}

} // namespace internal

namespace {

using internal::Data;

// The path of an absolute URL without a trailing '/': "https://a.example/dir/" -> "/dir".
std::string url_path(const std::string& url) {
  const auto authority = url.find("://");
  const auto path = url.find('/', authority == std::string::npos ? 0 : authority + 3);
  if (path == std::string::npos) {
    return {};
  }
  std::string result = url.substr(path, url.find_first_of("?#", path) - path);
  while (!result.empty() && result.back() == '/') {
    result.pop_back();
  }
  return result;
}

std::string normalized_site_url(std::string url) {
  if (internal::http_url_or_empty(url).empty()) {
    throw core::UsageError("the site URL must be an absolute http(s) URL, not \"" + url + "\"");
  }
  while (!url.empty() && url.back() == '/') {
    url.pop_back();
  }
  return url;
}

std::vector<l10n::Localizer> load_localizers(const SiteOptions& options) {
  if (options.locales.empty()) {
    throw core::UsageError("no locales to render");
  }
  std::vector<l10n::Localizer> localizers;
  for (const auto& tag : options.locales) {
    for (const auto& loaded : localizers) {
      if (loaded.tag() == tag) {
        throw core::UsageError("locale \"" + tag + "\" listed twice");
      }
    }
    localizers.emplace_back(options.locales_dir, tag);
  }
  return localizers;
}

} // namespace

struct Renderer::Impl {
  std::int64_t max_page_lifetime;
  std::vector<l10n::Localizer> localizers;
  std::vector<std::string> locales;
  internal::Templates templates;
  std::string site_url;
  std::string site_path;
  // Per localizer, what every page of its locale shares: {"t": its interface strings}.
  std::vector<Data> shared;

  explicit Impl(const SiteOptions& options)
      : max_page_lifetime(std::max<std::int64_t>(options.max_page_lifetime, 1)),
        localizers(load_localizers(options)),
        locales(options.locales),
        templates(internal::load_templates(options.templates_dir)),
        site_url(normalized_site_url(options.site_url)),
        site_path(url_path(site_url)) {
    for (const auto& loaded : localizers) {
      Data data;
      data.set("t", internal::interface_strings(loaded));
      shared.push_back(std::move(data));
    }
  }

  const l10n::Localizer& localizer(std::string_view tag) const {
    for (const auto& localizer : localizers) {
      if (localizer.tag() == tag) {
        return localizer;
      }
    }
    throw core::UsageError("no locale \"" + std::string(tag) + "\" in this render");
  }

  internal::Site site(std::int64_t now) const {
    return {localizers, site_url, site_path, now, now + max_page_lifetime};
  }

  // The page's bytes: its data over what its locale's pages share.
  std::string fill(const internal::Template& page, const l10n::Localizer& locale,
                   const Data& data) {
    return page.render({&shared.at(static_cast<std::size_t>(&locale - localizers.data())), &data});
  }

  // The 404 or 503 page of a locale (internal::notice_page).
  std::string notice(std::string_view locale, std::string_view notice) {
    const l10n::Localizer& chosen = localizer(locale);
    return fill(templates.not_found, chosen, internal::notice_page(site(0), chosen, notice));
  }

  template <typename Build>
  RenderedPage render(const internal::Template& page, std::string_view locale, std::int64_t now,
                      Build&& build) {
    const l10n::Localizer& chosen = localizer(locale);
    const internal::Site context = site(now);
    const Data data = build(context, chosen);
    return {fill(page, chosen, data), context.expires_at};
  }
};

Renderer::Renderer(const SiteOptions& options) : m_impl(std::make_unique<Impl>(options)) {}
Renderer::~Renderer() = default;

const std::vector<std::string>& Renderer::locales() const {
  return m_impl->locales;
}

bool Renderer::has_locale(std::string_view tag) const {
  return std::find(m_impl->locales.begin(), m_impl->locales.end(), tag) != m_impl->locales.end();
}

const std::string& Renderer::site_path() const {
  return m_impl->site_path;
}

std::string Renderer::root_page() {
  return m_impl->fill(m_impl->templates.root, m_impl->localizers.front(),
                      internal::root_page(m_impl->site(0)));
}

std::string Renderer::not_found_page(std::string_view locale) {
  return m_impl->notice(locale, "not_found");
}

std::string Renderer::unavailable_page(std::string_view locale) {
  return m_impl->notice(locale, "unavailable");
}

RenderedPage Renderer::home_page(const store::HomePage& home, std::string_view locale,
                                 std::int64_t now) {
  return m_impl->render(m_impl->templates.home, locale, now, [&](const auto& site, const auto& l) {
    return internal::home_page(site, l, home);
  });
}

RenderedPage Renderer::list_page(const store::ShowListPage& list, std::string_view locale,
                                 std::int64_t now) {
  return m_impl->render(m_impl->templates.list, locale, now, [&](const auto& site, const auto& l) {
    return internal::list_page(site, l, list);
  });
}

RenderedPage Renderer::show_page(const store::ShowPage& page, std::string_view locale,
                                 std::int64_t now) {
  return m_impl->render(m_impl->templates.show, locale, now, [&](const auto& site, const auto& l) {
    return internal::show_page(site, l, page);
  });
}

RenderedPage Renderer::episode_page(const store::EpisodePage& page, std::string_view locale,
                                    std::int64_t now) {
  return m_impl->render(
      m_impl->templates.episode, locale, now,
      [&](const auto& site, const auto& l) { return internal::episode_page(site, l, page); });
}

RenderedPage Renderer::search_page(const store::SearchPage& page, std::string_view locale,
                                   std::int64_t now) {
  return m_impl->render(
      m_impl->templates.search, locale, now,
      [&](const auto& site, const auto& l) { return internal::search_page(site, l, page); });
}

std::string Renderer::report_page(const store::CrawlReport& report, std::string_view locale) {
  return render::report_page(report, m_impl->localizer(locale));
}

std::string Renderer::show_opml(const store::StoredShow& show) const {
  return internal::show_opml(show);
}

const std::string& Renderer::stylesheet() const {
  return m_impl->templates.stylesheet;
}

const std::string& Renderer::locale_script() const {
  return m_impl->templates.locale_script;
}

namespace {

// Most page jobs waiting for a render thread: the loader blocks beyond this, so memory holds a
// bounded number of models whatever the directory's size.
constexpr std::size_t k_max_queued_jobs = 8;

// Render threads, each with its own Renderer, taking jobs from a bounded queue.
class RenderPool {
public:
  using Job = std::function<void(Renderer&)>;

  RenderPool(const SiteOptions& options, std::size_t threads) {
    for (std::size_t i = 0; i < threads; ++i) {
      m_threads.emplace_back([this, options] { work(options); });
    }
  }

  ~RenderPool() { stop(); }

  // Queue a job, waiting while the queue is full. Throws the first error of any job.
  void run(Job job) {
    std::unique_lock lock(m_mutex);
    m_space.wait(lock, [&] { return m_jobs.size() < k_max_queued_jobs || m_error; });
    rethrow_locked();
    m_jobs.push_back(std::move(job));
    m_ready.notify_one();
  }

  // Wait until every queued job is done; throws the first error of any job.
  void drain() {
    std::unique_lock lock(m_mutex);
    m_idle.wait(lock, [&] { return (m_jobs.empty() && m_busy == 0) || m_error; });
    rethrow_locked();
  }

  void stop() {
    {
      std::lock_guard lock(m_mutex);
      m_stopping = true;
    }
    m_ready.notify_all();
    m_threads.clear();
  }

private:
  void rethrow_locked() {
    if (m_error) {
      std::rethrow_exception(m_error);
    }
  }

  void work(const SiteOptions& options) {
    std::optional<Renderer> renderer;
    try {
      renderer.emplace(options);
    } catch (...) {
      fail(std::current_exception());
    }
    for (;;) {
      Job job;
      {
        std::unique_lock lock(m_mutex);
        m_ready.wait(lock, [&] { return !m_jobs.empty() || m_stopping; });
        if (m_jobs.empty()) {
          return;
        }
        job = std::move(m_jobs.front());
        m_jobs.pop_front();
        ++m_busy;
      }
      m_space.notify_one();
      try {
        if (renderer) {
          job(*renderer);
        }
      } catch (...) {
        fail(std::current_exception());
      }
      {
        std::lock_guard lock(m_mutex);
        --m_busy;
      }
      m_idle.notify_all();
    }
  }

  void fail(std::exception_ptr error) {
    {
      std::lock_guard lock(m_mutex);
      if (!m_error) {
        m_error = std::move(error);
      }
    }
    m_space.notify_all();
    m_idle.notify_all();
  }

  std::mutex m_mutex;
  std::condition_variable m_ready;
  std::condition_variable m_space;
  std::condition_variable m_idle;
  std::deque<Job> m_jobs;
  std::size_t m_busy = 0;
  bool m_stopping = false;
  std::exception_ptr m_error;
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
  Renderer renderer;                       // the loader thread's: root and 404 pages
  std::vector<l10n::Localizer> localizers; // the sitemap's alternates
  std::int64_t now;
  internal::SiteFiles files;
  internal::Site site;
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
        localizers(load_localizers(options)),
        now(now_),
        files(out_dir),
        site{localizers, normalized_site_url(options.site_url),
             url_path(normalized_site_url(options.site_url)), now_, 0},
        fingerprint(internal::render_fingerprint(options, site.site_url)),
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
  // not before its own, and its shows recorded.
  std::optional<internal::RenderState> read_published_state() const {
    auto state = internal::read_render_state(files.state_file(k_state_file));
    std::error_code error;
    if (!state || state->fingerprint != fingerprint || state->rendered_at > now ||
        !std::filesystem::exists(files.state_file(k_shows_file), error)) {
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
  void place_artwork(const std::optional<store::StoredArtwork>& artwork) {
    if (options.art_dir.empty() || !internal::has_artwork(artwork)) {
      return;
    }
    for (const store::ArtRendition& rendition : artwork->renditions) {
      const auto placed = files.place(
          internal::art_path(*artwork, rendition),
          options.art_dir / store::art_file_name(artwork->content_hash, rendition.width));
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
      expected.insert(file_in(internal::show_path(record.slug, page)));
    }
    for (const auto& episode : record.episodes) {
      expected.insert(file_in(internal::episode_path(record.slug, episode)));
    }
    for (const auto& locale : renderer.locales()) {
      const std::string prefix = locale + "/";
      for (const auto& file :
           files.published_files(folder_of(locale, internal::show_path(record.slug)))) {
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
    internal::SitemapWriter sitemap(site, files);
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
        sitemap.add(internal::show_path(record.slug, page));
      }
      for (const auto& episode : record.episodes) {
        sitemap.add(internal::episode_path(record.slug, episode));
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

void SiteWriter::write_home(const store::HomePage& home) {
  m_impl->lists_rendered = true;
  m_impl->list_paths.emplace_back("");
  m_impl->each_locale(std::make_shared<const store::HomePage>(home),
                      [this](Renderer& own, const store::HomePage& model, const std::string& tag) {
                        const auto page = own.home_page(model, tag, m_impl->now);
                        m_impl->lower_list_expiry(page.expires_at);
                        m_impl->write_page(tag, "", page.html);
                      });
}

void SiteWriter::write_list(const store::ShowListPage& list) {
  const std::string path = internal::list_path(list, list.page);
  m_impl->lists_rendered = true;
  m_impl->list_paths.push_back(path);
  m_impl->each_locale(
      std::make_shared<const store::ShowListPage>(list),
      [this, path](Renderer& own, const store::ShowListPage& model, const std::string& tag) {
        const auto page = own.list_page(model, tag, m_impl->now);
        m_impl->lower_list_expiry(page.expires_at);
        m_impl->write_page(tag, path, page.html);
      });
}

void SiteWriter::write_show(const store::ShowPages& show) {
  const std::string& slug = show.show.slug;
  if (!internal::is_safe_slug(slug)) {
    ++m_impl->skipped_shows;
    return;
  }
  internal::ShowRecord record;
  record.slug = slug;
  record.pages = store::page_count(static_cast<std::int64_t>(show.episodes.size()),
                                   store::k_episodes_per_page);
  for (const auto& episode_slug : show.episode_slugs) {
    if (internal::is_safe_slug(episode_slug)) {
      record.episodes.push_back(episode_slug);
    }
  }
  m_impl->add_pending(record);
  if (const std::string opml = internal::show_opml(show.show); !opml.empty()) {
    m_impl->write(internal::opml_path(slug), opml);
  }
  m_impl->place_artwork(show.show.artwork);
  for (const auto& artwork : show.episode_artwork) {
    m_impl->place_artwork(artwork);
  }
  const std::int64_t pages = record.pages;
  m_impl->each_locale(
      std::make_shared<const store::ShowPages>(show),
      [this, pages](Renderer& own, const store::ShowPages& model, const std::string& tag) {
        const std::string& show_slug = model.show.slug;
        std::int64_t expires_at = k_never;
        for (std::int64_t page = 1; page <= pages; ++page) {
          const auto rendered = own.show_page(store::show_page_of(model, page), tag, m_impl->now);
          expires_at = std::min(expires_at, rendered.expires_at);
          m_impl->write_page(tag, internal::show_path(show_slug, page), rendered.html);
        }
        for (std::size_t i = 0; i < model.episodes.size(); ++i) {
          if (internal::is_safe_slug(model.episode_slugs[i])) {
            const auto rendered =
                own.episode_page(store::episode_page_of(model, i), tag, m_impl->now);
            expires_at = std::min(expires_at, rendered.expires_at);
            m_impl->write_page(tag, internal::episode_path(show_slug, model.episode_slugs[i]),
                               rendered.html);
          }
        }
        m_impl->lower_show_expiry(show_slug, expires_at);
      });
}

void SiteWriter::remove_show(const std::string& slug) {
  if (!m_impl->updating() || !internal::is_safe_slug(slug)) {
    return;
  }
  m_impl->removed_shows.insert(slug);
  for (const auto& locale : m_impl->renderer.locales()) {
    m_impl->files.remove(folder_of(locale, internal::show_path(slug)));
  }
  m_impl->files.remove(internal::opml_path(slug));
}

RenderSummary SiteWriter::publish(const std::string& snapshot) {
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
  RenderSummary summary;
  summary.pages = impl.pages + 1 + static_cast<std::int64_t>(renderer.locales().size());
  summary.written = impl.files.written();
  summary.removed = impl.files.removed();
  summary.skipped_shows = impl.skipped_shows;
  summary.missing_art = impl.missing_art;
  summary.updated = impl.updating();
  return summary;
}

} // namespace podcrawl::render

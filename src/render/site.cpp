#include "podcrawl/render/site.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <fstream>
#include <functional>
#include <limits>
#include <mutex>
#include <sstream>
#include <thread>

#include "podcrawl/core/error.hpp"
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
  Template compiled{read_template(dir, name)};
  if (!compiled.is_valid()) {
    throw core::EnvironmentError("template " + std::string(name) + ": " + compiled.error_message());
  }
  target = std::move(compiled);
}

} // namespace

Templates load_templates(const std::filesystem::path& dir) {
  Templates templates;
  templates.head = read_partial(dir, "head");
  templates.foot = read_partial(dir, "foot");
  templates.show_list = read_partial(dir, "show_list");
  templates.pagination = read_partial(dir, "pagination");
  compile_template(templates.root, dir, "root");
  compile_template(templates.home, dir, "home");
  compile_template(templates.list, dir, "list");
  compile_template(templates.show, dir, "show");
  compile_template(templates.episode, dir, "episode");
  compile_template(templates.not_found, dir, "not_found");
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
  std::vector<l10n::Localizer> localizers;
  std::vector<std::string> locales;
  internal::Templates templates;
  std::string site_url;
  std::string site_path;

  explicit Impl(const SiteOptions& options)
      : localizers(load_localizers(options)),
        locales(options.locales),
        templates(internal::load_templates(options.templates_dir)),
        site_url(normalized_site_url(options.site_url)),
        site_path(url_path(site_url)) {}

  const l10n::Localizer& localizer(std::string_view tag) const {
    for (const auto& localizer : localizers) {
      if (localizer.tag() == tag) {
        return localizer;
      }
    }
    throw core::UsageError("no locale \"" + std::string(tag) + "\" in this render");
  }

  internal::Site site(std::int64_t now) const {
    return {localizers, site_url, site_path, now, now + internal::k_max_page_lifetime};
  }

  std::string fill(internal::Template& page, Data data) {
    data.set("head", templates.head);
    data.set("foot", templates.foot);
    data.set("show_list", templates.show_list);
    data.set("pagination", templates.pagination);
    std::string html = page.render(data);
    if (!page.is_valid()) {
      throw core::EnvironmentError("template error: " + page.error_message());
    }
    return html;
  }

  template <typename Build>
  RenderedPage render(internal::Template& page, std::string_view locale, std::int64_t now,
                      Build&& build) {
    const l10n::Localizer& chosen = localizer(locale);
    const internal::Site context = site(now);
    Data data = build(context, chosen);
    return {fill(page, std::move(data)), context.expires_at};
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
  return m_impl->fill(m_impl->templates.root, internal::root_page(m_impl->site(0)));
}

std::string Renderer::not_found_page(std::string_view locale) {
  return m_impl->fill(m_impl->templates.not_found,
                      internal::not_found_page(m_impl->site(0), m_impl->localizer(locale)));
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

std::string Renderer::show_opml(const store::StoredShow& show) const {
  return internal::show_opml(show);
}

const std::string& Renderer::stylesheet() const {
  return m_impl->templates.stylesheet;
}

const std::string& Renderer::locale_script() const {
  return m_impl->templates.locale_script;
}

std::string Renderer::category_path(std::string_view slug, std::int64_t page) {
  return internal::category_path(slug, page);
}

std::string Renderer::language_path(std::string_view tag, std::int64_t page) {
  return internal::language_path(tag, page);
}

std::string Renderer::show_path(std::string_view slug, std::int64_t page) {
  return internal::show_path(slug, page);
}

std::string Renderer::episode_path(std::string_view show_slug, std::string_view episode_slug) {
  return internal::episode_path(show_slug, episode_slug);
}

std::string Renderer::opml_path(std::string_view show_slug) {
  return internal::opml_path(show_slug);
}

bool Renderer::is_page_segment(std::string_view segment) {
  return internal::is_safe_slug(segment);
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

} // namespace

struct SiteWriter::Impl {
  Renderer renderer;                       // the loader thread's: root and 404 pages
  std::vector<l10n::Localizer> localizers; // the sitemap's alternates
  std::int64_t now;
  internal::StagedSite staged;
  internal::Site site;
  internal::SitemapWriter sitemap;
  std::atomic<std::int64_t> pages{0};
  std::int64_t skipped_shows = 0;
  RenderPool pool; // last: its threads stop before the rest is destroyed

  Impl(const SiteOptions& options, const std::filesystem::path& out_dir, std::int64_t now_)
      : renderer(options),
        localizers(load_localizers(options)),
        now(now_),
        staged(out_dir),
        site{localizers, normalized_site_url(options.site_url),
             url_path(normalized_site_url(options.site_url)), now_, 0},
        sitemap(site, staged.dir()),
        pool(options, render_threads(options.locales.size())) {}

  void write(const std::string& file, std::string_view content) {
    internal::write_file_atomically(staged.dir() / file, content);
  }

  void write_page(const std::string& locale, const std::string& path, const std::string& html) {
    write(locale + "/" + path + "index.html", html);
    ++pages;
  }

  // Render a model in every locale on the pool; the model is shared by the jobs.
  template <typename Model, typename Render>
  void each_locale(std::shared_ptr<const Model> model, Render render) {
    for (const auto& locale : renderer.locales()) {
      pool.run([this, model, locale, render](Renderer& own) { render(own, *model, locale); });
    }
  }
};

SiteWriter::SiteWriter(const SiteOptions& options, const std::filesystem::path& out_dir,
                       std::int64_t now)
    : m_impl(std::make_unique<Impl>(options, out_dir, now)) {}

SiteWriter::~SiteWriter() = default;

void SiteWriter::write_home(const store::HomePage& home) {
  m_impl->sitemap.add("");
  m_impl->each_locale(std::make_shared<const store::HomePage>(home),
                      [this](Renderer& own, const store::HomePage& model, const std::string& tag) {
                        m_impl->write_page(tag, "", own.home_page(model, tag, m_impl->now).html);
                      });
}

void SiteWriter::write_list(const store::ShowListPage& list) {
  const std::string path = internal::list_path(list, list.page);
  m_impl->sitemap.add(path);
  m_impl->each_locale(
      std::make_shared<const store::ShowListPage>(list),
      [this, path](Renderer& own, const store::ShowListPage& model, const std::string& tag) {
        m_impl->write_page(tag, path, own.list_page(model, tag, m_impl->now).html);
      });
}

void SiteWriter::write_show(const store::ShowPages& show) {
  const std::string& slug = show.show.slug;
  if (!internal::is_safe_slug(slug)) {
    ++m_impl->skipped_shows;
    return;
  }
  const auto pages = store::page_count(static_cast<std::int64_t>(show.episodes.size()),
                                       store::k_episodes_per_page);
  for (std::int64_t page = 1; page <= pages; ++page) {
    m_impl->sitemap.add(internal::show_path(slug, page));
  }
  for (const auto& episode_slug : show.episode_slugs) {
    if (internal::is_safe_slug(episode_slug)) {
      m_impl->sitemap.add(internal::episode_path(slug, episode_slug));
    }
  }
  if (const std::string opml = internal::show_opml(show.show); !opml.empty()) {
    m_impl->write(internal::opml_path(slug), opml);
  }
  m_impl->each_locale(
      std::make_shared<const store::ShowPages>(show),
      [this, pages](Renderer& own, const store::ShowPages& model, const std::string& tag) {
        const std::string& show_slug = model.show.slug;
        for (std::int64_t page = 1; page <= pages; ++page) {
          m_impl->write_page(
              tag, internal::show_path(show_slug, page),
              own.show_page(store::show_page_of(model, page), tag, m_impl->now).html);
        }
        for (std::size_t i = 0; i < model.episodes.size(); ++i) {
          if (internal::is_safe_slug(model.episode_slugs[i])) {
            m_impl->write_page(
                tag, internal::episode_path(show_slug, model.episode_slugs[i]),
                own.episode_page(store::episode_page_of(model, i), tag, m_impl->now).html);
          }
        }
      });
}

RenderSummary SiteWriter::publish() {
  m_impl->pool.drain();
  auto& renderer = m_impl->renderer;
  m_impl->write(std::string(internal::k_stylesheet_file), renderer.stylesheet());
  m_impl->write(std::string(internal::k_locale_script_file), renderer.locale_script());
  m_impl->write("index.html", renderer.root_page());
  for (const auto& locale : renderer.locales()) {
    m_impl->write(locale + "/404.html", renderer.not_found_page(locale));
  }
  m_impl->sitemap.finish();
  m_impl->staged.publish();
  RenderSummary summary;
  summary.pages = m_impl->pages + 1 + static_cast<std::int64_t>(renderer.locales().size());
  summary.skipped_shows = m_impl->skipped_shows;
  return summary;
}

} // namespace podcrawl::render

#include "podcrawl/render/site.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <fstream>
#include <sstream>
#include <thread>

#include <unistd.h>

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
  templates.head = read_template(dir, "head");
  templates.foot = read_template(dir, "foot");
  templates.show_list = read_template(dir, "show_list");
  compile_template(templates.root, dir, "root");
  compile_template(templates.home, dir, "home");
  compile_template(templates.category, dir, "category");
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

std::vector<l10n::Localizer> load_localizers(const RenderOptions& options) {
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

// Renders pages into the output folder and counts them.
class PageWriter {
public:
  PageWriter(internal::Templates& templates, const std::filesystem::path& out_dir)
      : m_templates(templates), m_out_dir(out_dir) {}

  // Write the page to <folder>/index.html.
  void write(internal::Template& page, Data data, const std::string& folder) {
    write_file(page, std::move(data), folder + "index.html");
  }

  // Write the page to a file named relative to the output folder.
  void write_file(internal::Template& page, Data data, const std::string& file) {
    data.set("head", m_templates.head);
    data.set("foot", m_templates.foot);
    data.set("show_list", m_templates.show_list);
    const std::string html = page.render(data);
    if (!page.is_valid()) {
      throw core::EnvironmentError("template error in " + file + ": " + page.error_message());
    }
    internal::write_file_atomically(m_out_dir / file, html);
    ++m_pages;
  }

  std::int64_t pages() const { return m_pages; }

private:
  internal::Templates& m_templates;
  std::filesystem::path m_out_dir;
  std::int64_t m_pages = 0;
};

void write_locale(PageWriter& writer, internal::Templates& templates, const internal::Site& site,
                  const l10n::Localizer& localizer) {
  const std::string root = localizer.tag() + "/";
  writer.write(templates.home, internal::home_page(site, localizer), root);
  writer.write_file(templates.not_found, internal::not_found_page(site, localizer),
                    root + "404.html");
  for (std::size_t i = 0; i < site.plan.categories.size(); ++i) {
    writer.write(templates.category, internal::category_page(site, localizer, i),
                 root + internal::category_path(site.plan.categories[i]));
  }
  for (std::size_t i = 0; i < site.plan.shows.size(); ++i) {
    const auto& show = site.plan.shows[i];
    for (std::size_t page = 1; page <= internal::page_count(show); ++page) {
      writer.write(templates.show, internal::show_page(site, localizer, i, page),
                   root + internal::show_page_path(show, page));
    }
    for (const std::size_t episode : show.episodes) {
      writer.write(templates.episode, internal::episode_page(site, localizer, i, episode),
                   root + internal::episode_path(show, episode));
    }
  }
}

// Write every locale's pages, locales spread over one thread per core; each thread has its own
// copy of the loaded templates (a template is not safe to render from two threads) and pages of
// different locales never share a file. Returns the number of pages; the first error of any thread
// is thrown.
std::int64_t write_locales(const internal::Templates& loaded, const internal::Site& site,
                           const std::filesystem::path& out_dir) {
  const std::size_t workers =
      std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, site.localizers.size());
  std::atomic<std::size_t> next{0};
  std::vector<std::int64_t> pages(workers, 0);
  std::vector<std::exception_ptr> errors(workers);
  const auto work = [&](std::size_t worker) {
    try {
      internal::Templates templates = loaded;
      PageWriter writer(templates, out_dir);
      for (std::size_t i = next++; i < site.localizers.size(); i = next++) {
        write_locale(writer, templates, site, site.localizers[i]);
      }
      pages[worker] = writer.pages();
    } catch (...) {
      errors[worker] = std::current_exception();
      next = site.localizers.size();
    }
  };
  {
    std::vector<std::jthread> threads;
    for (std::size_t worker = 1; worker < workers; ++worker) {
      threads.emplace_back(work, worker);
    }
    work(0);
  }
  for (const auto& error : errors) {
    if (error) {
      std::rethrow_exception(error);
    }
  }
  std::int64_t total = 0;
  for (const std::int64_t count : pages) {
    total += count;
  }
  return total;
}

} // namespace

RenderSummary render_site(const std::vector<store::StoredShow>& shows,
                          const RenderOptions& options) {
  const std::vector<l10n::Localizer> localizers = load_localizers(options);
  internal::Templates templates = internal::load_templates(options.templates_dir);
  const internal::SitePlan plan = internal::plan_site(shows);
  const std::string site_url = normalized_site_url(options.site_url);
  const internal::Site site{plan, localizers, site_url, url_path(site_url), options.now};
  internal::StagedSite staged(options.out_dir);
  const std::filesystem::path& out_dir = staged.dir();
  PageWriter writer(templates, out_dir);
  internal::write_file_atomically(out_dir / internal::k_stylesheet_file, templates.stylesheet);
  internal::write_file_atomically(out_dir / internal::k_locale_script_file,
                                  templates.locale_script);
  writer.write(templates.root, internal::root_page(site), "");
  const std::int64_t locale_pages = write_locales(templates, site, out_dir);
  for (const auto& file : internal::sitemap_files(site)) {
    internal::write_file_atomically(out_dir / file.name, file.content);
  }
  for (const auto& show : plan.shows) {
    if (const std::string opml = internal::show_opml(show); !opml.empty()) {
      internal::write_file_atomically(out_dir / internal::opml_path(show), opml);
    }
  }
  staged.publish();
  RenderSummary summary;
  summary.pages = writer.pages() + locale_pages;
  summary.skipped_shows = plan.skipped_shows;
  summary.skipped_episodes = plan.skipped_episodes;
  return summary;
}

} // namespace podcrawl::render

#include "podcrawl/render/site.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "podcrawl/core/error.hpp"
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
  compile_template(templates.submit, dir, "submit");
  templates.stylesheet = read_asset(dir / k_stylesheet_file);
  templates.locale_script = read_asset(dir / k_locale_script_file);
  templates.openapi = read_asset(dir / k_openapi_file);
  return templates;
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
  bool submissions;
  // Per localizer, what every page of its locale shares: {"t": its interface strings}.
  std::vector<Data> shared;

  explicit Impl(const SiteOptions& options)
      : max_page_lifetime(std::max<std::int64_t>(options.max_page_lifetime, 1)),
        localizers(load_localizers(options)),
        locales(options.locales),
        templates(internal::load_templates(options.templates_dir)),
        site_url(normalized_site_url(options.site_url)),
        site_path(url_path(site_url)),
        submissions(options.submissions) {
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
    return {localizers, site_url, site_path, now, now + max_page_lifetime, submissions};
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

const std::string& Renderer::site_url() const {
  return m_impl->site_url;
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

RenderedPage Renderer::home_page(const model::HomePage& home, std::string_view locale,
                                 std::int64_t now) {
  return m_impl->render(m_impl->templates.home, locale, now, [&](const auto& site, const auto& l) {
    return internal::home_page(site, l, home);
  });
}

RenderedPage Renderer::list_page(const model::ShowListPage& list, std::string_view locale,
                                 std::int64_t now) {
  return m_impl->render(m_impl->templates.list, locale, now, [&](const auto& site, const auto& l) {
    return internal::list_page(site, l, list);
  });
}

RenderedPage Renderer::show_page(const model::ShowPage& page, std::string_view locale,
                                 std::int64_t now) {
  return m_impl->render(m_impl->templates.show, locale, now, [&](const auto& site, const auto& l) {
    return internal::show_page(site, l, page);
  });
}

RenderedPage Renderer::episode_page(const model::EpisodePage& page, std::string_view locale,
                                    std::int64_t now) {
  return m_impl->render(
      m_impl->templates.episode, locale, now,
      [&](const auto& site, const auto& l) { return internal::episode_page(site, l, page); });
}

RenderedPage Renderer::search_page(const model::SearchPage& page, std::string_view locale,
                                   std::int64_t now) {
  return m_impl->render(
      m_impl->templates.search, locale, now,
      [&](const auto& site, const auto& l) { return internal::search_page(site, l, page); });
}

RenderedPage Renderer::submit_page(const model::SubmitPage& page, std::string_view locale,
                                   std::int64_t now) {
  return m_impl->render(
      m_impl->templates.submit, locale, now,
      [&](const auto& site, const auto& l) { return internal::submit_page(site, l, page); });
}

std::string Renderer::report_page(const model::CrawlReport& report, std::string_view locale) {
  return render::report_page(report, m_impl->localizer(locale));
}

std::string Renderer::show_opml(const model::StoredShow& show) const {
  return internal::show_opml(show);
}

const std::string& Renderer::openapi_document() const {
  return m_impl->templates.openapi;
}

const std::string& Renderer::stylesheet() const {
  return m_impl->templates.stylesheet;
}

const std::string& Renderer::locale_script() const {
  return m_impl->templates.locale_script;
}

} // namespace podcrawl::render

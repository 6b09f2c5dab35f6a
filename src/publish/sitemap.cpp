#include <cstdlib>

#include "podcrawl/html/escape.hpp"
#include "podcrawl/render/layout.hpp"

#include "publish_internal.hpp"

namespace podcrawl::publish::internal {

namespace {

// Search engines take at most 50,000 URLs and 50 MB per sitemap file; with an alternate link per
// locale on every URL, 10,000 URLs keeps a file well under the size limit.
constexpr std::size_t k_max_urls_per_sitemap = 10000;

constexpr std::string_view k_urlset_open =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" "
    "xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n";
constexpr std::string_view k_urlset_close = "</urlset>\n";

std::string alternate_links(const std::vector<std::string>& locales, const std::string& site_url,
                            std::string_view path) {
  std::string links;
  for (const auto& locale : locales) {
    links += "    <xhtml:link rel=\"alternate\" hreflang=\"" + html::escaped_xml(locale) +
             "\" href=\"" + html::escaped_xml(render::page_url(site_url, locale, path)) + "\"/>\n";
  }
  links += "    <xhtml:link rel=\"alternate\" hreflang=\"x-default\" href=\"" +
           html::escaped_xml(render::default_url(site_url, locales.front(), path)) + "\"/>\n";
  return links;
}

std::string url_entry(const std::string& location, const std::string& alternates) {
  return "  <url>\n    <loc>" + html::escaped_xml(location) + "</loc>\n" + alternates +
         "  </url>\n";
}

std::string sitemap_index(const std::string& site_url, std::size_t parts) {
  std::string index =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
  for (std::size_t part = 1; part <= parts; ++part) {
    index += "  <sitemap><loc>" + html::escaped_xml(site_url) + "/sitemap-" + std::to_string(part) +
             ".xml</loc></sitemap>\n";
  }
  return index + "</sitemapindex>\n";
}

std::string part_name(std::size_t part) {
  return "sitemap-" + std::to_string(part) + ".xml";
}

} // namespace

SitemapWriter::SitemapWriter(std::vector<std::string> locales, std::string site_url,
                             SiteFiles& files)
    : m_locales(std::move(locales)), m_site_url(std::move(site_url)), m_files(files) {
  m_part = k_urlset_open;
  // The language chooser first.
  m_part += url_entry(render::default_url(m_site_url, m_locales.front(), ""),
                      alternate_links(m_locales, m_site_url, ""));
  m_urls_in_part = 1;
}

void SitemapWriter::add(std::string_view path) {
  const std::string alternates = alternate_links(m_locales, m_site_url, path);
  for (const auto& locale : m_locales) {
    if (m_urls_in_part == k_max_urls_per_sitemap) {
      flush();
    }
    m_part += url_entry(render::page_url(m_site_url, locale, path), alternates);
    ++m_urls_in_part;
  }
}

void SitemapWriter::flush() {
  m_part += k_urlset_close;
  m_files.write(part_name(++m_parts), m_part);
  m_part = k_urlset_open;
  m_urls_in_part = 0;
}

std::size_t SitemapWriter::finish() {
  std::size_t files = 1;
  if (m_parts == 0) {
    m_part += k_urlset_close;
    m_files.write("sitemap.xml", m_part);
  } else {
    if (m_urls_in_part > 0) {
      flush();
    }
    m_files.write("sitemap.xml", sitemap_index(m_site_url, m_parts));
    files += m_parts;
  }
  // Parts a larger previous render left behind.
  for (const auto& published : m_files.published_files("", false)) {
    if (published.starts_with("sitemap-") && published.find('/') == std::string::npos) {
      const std::size_t part = std::strtoul(published.c_str() + 8, nullptr, 10);
      if (part == 0 || part > m_parts) {
        m_files.remove(published);
      }
    }
  }
  return files;
}

} // namespace podcrawl::publish::internal

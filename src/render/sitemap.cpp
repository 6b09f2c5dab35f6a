#include "render_internal.hpp"

namespace podcrawl::render::internal {

namespace {

// Search engines take at most 50,000 URLs and 50 MB per sitemap file; with an alternate link per
// locale on every URL, 10,000 URLs keeps a file well under the size limit.
constexpr std::size_t k_max_urls_per_sitemap = 10000;

constexpr std::string_view k_urlset_open =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" "
    "xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n";
constexpr std::string_view k_urlset_close = "</urlset>\n";

std::string alternate_links(const Site& site, std::string_view path) {
  std::string links;
  for (const auto& localizer : site.localizers) {
    links += "    <xhtml:link rel=\"alternate\" hreflang=\"" + escape_xml(localizer.tag()) +
             "\" href=\"" + escape_xml(page_url(site, localizer.tag(), path)) + "\"/>\n";
  }
  links += "    <xhtml:link rel=\"alternate\" hreflang=\"x-default\" href=\"" +
           escape_xml(default_url(site, path)) + "\"/>\n";
  return links;
}

std::string url_entry(const std::string& location, const std::string& alternates) {
  return "  <url>\n    <loc>" + escape_xml(location) + "</loc>\n" + alternates + "  </url>\n";
}

// One <url> per page and locale, the language chooser first; each lists all alternates.
std::vector<std::string> url_entries(const Site& site) {
  std::vector<std::string> entries;
  entries.push_back(url_entry(default_url(site, ""), alternate_links(site, "")));
  for (const auto& path : all_page_paths(site.plan)) {
    const std::string alternates = alternate_links(site, path);
    for (const auto& localizer : site.localizers) {
      entries.push_back(url_entry(page_url(site, localizer.tag(), path), alternates));
    }
  }
  return entries;
}

std::string sitemap_index(const Site& site, std::size_t parts) {
  std::string index =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
  for (std::size_t part = 1; part <= parts; ++part) {
    index += "  <sitemap><loc>" + escape_xml(site.site_url) + "/sitemap-" + std::to_string(part) +
             ".xml</loc></sitemap>\n";
  }
  return index + "</sitemapindex>\n";
}

} // namespace

std::vector<SitemapFile> sitemap_files(const Site& site) {
  const std::vector<std::string> entries = url_entries(site);
  std::vector<SitemapFile> files;
  for (std::size_t first = 0; first < entries.size(); first += k_max_urls_per_sitemap) {
    const std::size_t last = std::min(entries.size(), first + k_max_urls_per_sitemap);
    std::string content(k_urlset_open);
    for (std::size_t i = first; i < last; ++i) {
      content += entries[i];
    }
    content += k_urlset_close;
    files.push_back({"sitemap-" + std::to_string(files.size() + 1) + ".xml", std::move(content)});
  }
  if (files.size() == 1) {
    files.front().name = "sitemap.xml";
  } else {
    files.push_back({"sitemap.xml", sitemap_index(site, files.size())});
  }
  return files;
}

} // namespace podcrawl::render::internal

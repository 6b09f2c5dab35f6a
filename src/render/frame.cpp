#include <algorithm>

#include "podcrawl/html/sanitize.hpp"
#include "render_internal.hpp"

namespace podcrawl::render::internal {

namespace {

// Catalog strings the templates use as {{t.key}}.
constexpr const char* k_interface_keys[] = {
    "site_name",       "site_tagline",      "choose_language", "languages",
    "skip_to_content", "home_title",        "all_podcasts",    "categories",
    "episode_list",    "duration",          "listen",          "download_audio",
    "audio_fallback",  "website",           "episode_page",    "rss_feed",
    "explicit",        "no_podcasts",       "footer",          "latest_episodes",
    "pages",           "previous_page",     "next_page",       "opml",
    "back_home",       "content_languages", "transcript",      "chapters",
    "search",          "search_label",      "add_podcast",     "add_intro",
    "add_url_label",   "add_button",
};

Data alternates(const Site& site, std::string_view path) {
  Data list{Data::type::list};
  for (const auto& localizer : site.localizers) {
    Data link;
    link.set("hreflang", localizer.tag());
    link.set("href", page_url(site, localizer.tag(), path));
    list.push_back(std::move(link));
  }
  Data fallback;
  fallback.set("hreflang", "x-default");
  fallback.set("href", default_url(site, path));
  list.push_back(std::move(fallback));
  return list;
}

Data open_graph_alternates(const Site& site, const l10n::Localizer& current) {
  Data list{Data::type::list};
  for (const auto& localizer : site.localizers) {
    if (localizer.tag() != current.tag()) {
      Data item;
      item.set("locale", localizer.open_graph_locale());
      list.push_back(std::move(item));
    }
  }
  return list;
}

} // namespace

Data interface_strings(const l10n::Localizer& localizer) {
  Data strings;
  for (const char* key : k_interface_keys) {
    strings.set(key, localizer.text(key));
  }
  return strings;
}

Data language_links(const Site& site, const l10n::Localizer& current, std::string_view path,
                    std::string_view absolute_root, std::string_view suffix) {
  const std::string to_site_root =
      absolute_root.empty() ? relative_prefix(path) + "../" : std::string(absolute_root);
  Data list{Data::type::list};
  for (const auto& localizer : site.localizers) {
    Data link;
    link.set("href",
             to_site_root + localizer.tag() + "/" + std::string(path) + std::string(suffix));
    link.set("tag", localizer.tag());
    link.set("dir", localizer.right_to_left() ? "rtl" : "ltr");
    link.set("name", localizer.native_name());
    link.set("current", localizer.tag() == current.tag());
    list.push_back(std::move(link));
  }
  return list;
}

std::string relative_prefix(std::string_view path) {
  std::string prefix;
  for (std::size_t i = 0; i < static_cast<std::size_t>(std::count(path.begin(), path.end(), '/'));
       ++i) {
    prefix += "../";
  }
  return prefix;
}

std::string relative_link(std::string_view from_path, std::string_view to_path) {
  // Skip the folders both paths share, then climb out of the rest of from_path.
  std::size_t shared = 0;
  for (std::size_t i = 0; i < from_path.size() && i < to_path.size(); ++i) {
    if (from_path[i] != to_path[i]) {
      break;
    }
    if (from_path[i] == '/') {
      shared = i + 1;
    }
  }
  std::string link =
      relative_prefix(from_path.substr(shared)) + std::string(to_path.substr(shared));
  return link.empty() ? "./" : link;
}

std::string page_url(const Site& site, std::string_view tag, std::string_view path) {
  return render::page_url(site.site_url, tag, path);
}

std::string default_url(const Site& site, std::string_view path) {
  return render::default_url(site.site_url, site.localizers.front().tag(), path);
}

Data page_frame(const Site& site, const l10n::Localizer& localizer, std::string_view path,
                std::string_view page_title) {
  Data data;
  data.set("lang", localizer.tag());
  data.set("dir", localizer.right_to_left() ? "rtl" : "ltr");
  data.set("page_title", std::string(page_title));
  data.set("og_title", std::string(page_title));
  data.set("og_type", "website");
  data.set("og_locale", localizer.open_graph_locale());
  data.set("og_alternates", open_graph_alternates(site, localizer));
  data.set("has_og_image", false);
  data.set("has_json_ld", false);
  data.set("has_canonical", true);
  data.set("noindex", false);
  data.set("canonical", page_url(site, localizer.tag(), path));
  data.set("alternates", alternates(site, path));
  data.set("home_href", relative_link(path, ""));
  data.set("has_languages", site.localizers.size() > 1);
  data.set("languages", language_links(site, localizer, path));
  data.set("has_description", false);
  data.set("stylesheet_href", relative_link(path, "") + "../" + std::string(k_stylesheet_file));
  data.set("content_security_policy", std::string(k_content_security_policy));
  data.set("has_search", true);
  data.set("search_href", relative_link(path, search_path()));
  data.set("search_query", std::string());
  data.set("search_max_chars", std::to_string(model::k_max_search_query_chars));
  data.set("has_submit", site.submissions);
  data.set("submit_href", relative_link(path, submit_path()));
  return data;
}

void set_category_name(Data& data, const l10n::Localizer& localizer,
                       const model::CategoryEntry& category) {
  if (const auto name = localizer.category_name(category.slug)) {
    data.set("name", *name);
    data.set("name_lang", localizer.tag());
    return;
  }
  data.set("name", category.name);
  data.set("name_lang", language_tag_or_empty(category.language));
}

Data notice_page(const Site& site, const l10n::Localizer& localizer, std::string_view notice) {
  const std::string title = localizer.text(std::string(notice) + "_title");
  Data data = page_frame(site, localizer, "", title + " – " + localizer.text("site_name"));
  data.set("notice_title", title);
  data.set("notice_text", localizer.text(std::string(notice) + "_text"));
  // Served in place of any page, so links cannot be relative and nothing is canonical.
  const std::string site_root = site.site_path + "/";
  data.set("has_canonical", false);
  data.set("noindex", true);
  data.set("alternates", Data{Data::type::list});
  data.set("home_href", site_root + localizer.tag() + "/");
  data.set("languages", language_links(site, localizer, "", site_root));
  data.set("stylesheet_href", site_root + std::string(k_stylesheet_file));
  data.set("search_href", site_root + localizer.tag() + "/" + search_path());
  data.set("submit_href", site_root + localizer.tag() + "/" + submit_path());
  return data;
}

void set_meta_description(Data& data, std::string_view html) {
  const std::string text = html::plain_text(html, k_meta_description_chars);
  data.set("has_description", !text.empty());
  data.set("description", text);
}

Data root_page(const Site& site) {
  const auto& first = site.localizers.front();
  Data data = page_frame(site, first, "", first.text("site_name"));
  data.set("canonical", default_url(site, ""));
  data.set("home_href", "./");
  data.set("stylesheet_href", std::string(k_stylesheet_file));
  data.set("content_security_policy",
           std::string(k_content_security_policy) + "; script-src 'self'");
  data.set("has_languages", false);
  data.set("has_search", false); // the chooser has no locale to search in, or to add to
  data.set("has_submit", false);
  Data locales{Data::type::list};
  for (const auto& localizer : site.localizers) {
    Data locale;
    locale.set("href", localizer.tag() + "/");
    locale.set("tag", localizer.tag());
    locale.set("dir", localizer.right_to_left() ? "rtl" : "ltr");
    locale.set("name", localizer.native_name());
    locale.set("prompt", localizer.text("choose_language"));
    locales.push_back(std::move(locale));
  }
  data.set("locales", std::move(locales));
  return data;
}

} // namespace podcrawl::render::internal

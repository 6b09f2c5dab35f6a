#include <algorithm>

#include "podcrawl/core/ascii.hpp"
#include "podcrawl/core/time.hpp"
#include "podcrawl/html/sanitize.hpp"
#include "render_internal.hpp"

namespace podcrawl::render::internal {

namespace {

// Episode summaries in a show's list are plain text cut to this many characters.
constexpr std::size_t k_summary_chars = 280;
// Page links around the current page in a long episode list; the first and last page are
// always linked.
constexpr std::int64_t k_page_links_around = 2;

std::string feed_page_title(const l10n::Localizer& localizer, std::string_view feed_title) {
  return isolate(feed_title) + " – " + localizer.text("site_name");
}

void set_duration(Data& data, const l10n::Localizer& localizer,
                  std::optional<std::int64_t> seconds) {
  const bool known = seconds.has_value() && *seconds > 0;
  data.set("has_duration", known);
  if (known) {
    data.set("duration", localizer.duration(*seconds));
    data.set("duration_spoken", localizer.spoken_duration(*seconds));
    data.set("duration_iso", iso_duration(*seconds));
  }
}

// og:image: the site's own copy of the show's cover art, never the feed's image URL.
void set_image(Data& data, const Site& site, const std::optional<model::StoredArtwork>& artwork) {
  const std::string image = artwork_url(site, artwork);
  data.set("has_og_image", !image.empty());
  data.set("og_image", image);
}

// Sets has_<name> and <name> for an http(s) link; returns has_<name>.
bool set_link(Data& data, const std::string& name, std::string_view url) {
  const std::string safe = http_url_or_empty(url);
  data.set("has_" + name, !safe.empty());
  data.set(name, safe);
  return !safe.empty();
}

// "Season 2 · Episode 7", either part alone, or nothing.
std::string numbering(const l10n::Localizer& localizer, const feed::Episode& episode) {
  std::string text;
  if (episode.season) {
    text = localizer.count("season_number", *episode.season);
  }
  if (episode.episode) {
    text += (text.empty() ? "" : " · ") + localizer.count("episode_number", *episode.episode);
  }
  return text;
}

// A short name for a transcript's media type: "VTT" for text/vtt, "SRT" for
// application/x-subrip; empty when the feed gave no type.
std::string transcript_format(std::string_view type) {
  const std::size_t slash = type.find('/');
  if (slash == std::string_view::npos) {
    return {};
  }
  std::string_view subtype = type.substr(slash + 1);
  if (subtype.starts_with("x-")) {
    subtype.remove_prefix(2);
  }
  if (subtype == "subrip") {
    return "SRT";
  }
  if (subtype == "plain") {
    return "TXT";
  }
  std::string name;
  for (const char c : subtype.substr(0, subtype.find_first_of("+;"))) {
    name += core::ascii_upper(c);
  }
  return name;
}

// The episode's transcripts and chapters as links; sets has_resources when there is any.
void set_resources(Data& data, const feed::Episode& episode) {
  Data transcripts{Data::type::list};
  bool any = false;
  for (const auto& transcript : episode.transcripts) {
    const std::string href = http_url_or_empty(transcript.url);
    if (href.empty()) {
      continue;
    }
    const std::string format = transcript_format(transcript.type);
    Data item;
    item.set("href", href);
    item.set("has_format", !format.empty());
    item.set("format", format);
    transcripts.push_back(std::move(item));
    any = true;
  }
  data.set("transcripts", std::move(transcripts));
  const bool has_chapters = set_link(data, "chapters", episode.chapters_url);
  data.set("has_resources", any || has_chapters);
}

Data category_links(const l10n::Localizer& localizer,
                    const std::vector<model::CategoryEntry>& categories,
                    std::string_view from_path) {
  Data list{Data::type::list};
  for (const auto& category : categories) {
    if (!is_safe_slug(category.slug)) {
      continue;
    }
    Data item;
    set_category_name(item, localizer, category);
    item.set("href", relative_link(from_path, category_path(category.slug)));
    list.push_back(std::move(item));
  }
  return list;
}

Data page_link(const l10n::Localizer& localizer, const std::string& from, const std::string& to,
               std::int64_t page, bool current, std::string_view href_suffix) {
  Data link;
  link.set("label", localizer.number(page));
  link.set("href", relative_link(from, to) + std::string(href_suffix));
  link.set("current", current);
  link.set("gap", false);
  return link;
}

void set_show_byline(Data& data, const l10n::Localizer& localizer, const feed::Show& show) {
  data.set("has_author", !show.author.empty());
  data.set("author", show.author);
  const Around by = split_message(localizer, "by_author");
  data.set("by_before", by.before);
  data.set("by_after", by.after);
  const Around provided = split_message(localizer, "content_provided_by");
  data.set("provided_before", provided.before);
  data.set("provided_after", provided.after);
  data.set("provider", show.author.empty() ? show.title : show.author);
  data.set("explicit", show.explicit_content.value_or(false));
}

} // namespace

void set_time(Data& data, const Site& site, const l10n::Localizer& localizer,
              const std::string& name, std::string_view key, std::optional<std::int64_t> t) {
  const auto when = plausible_time(t);
  data.set("has_" + name, when.has_value());
  if (!when) {
    return;
  }
  const Around around = split_message(localizer, key);
  data.set(name + "_before", around.before);
  data.set(name + "_after", around.after);
  data.set(name + "_datetime", core::format_iso8601(*when));
  data.set(name + "_phrase", localizer.relative_time(*when, site.now));
  data.set(name + "_date", localizer.date(*when));
  site.expires_at = std::min(
      site.expires_at, localizer.relative_time_changes_at(
                           *when, site.now, std::max<std::int64_t>(site.expires_at - site.now, 1)));
}

void set_pagination(Data& data, const l10n::Localizer& localizer, std::int64_t pages,
                    std::int64_t page, const std::function<std::string(std::int64_t)>& path_of,
                    std::string_view href_suffix) {
  data.set("has_pagination", pages > 1);
  data.set("has_previous", page > 1);
  data.set("has_next", page < pages);
  if (pages <= 1) {
    return;
  }
  const std::string from = path_of(page);
  if (page > 1) {
    data.set("previous_href", relative_link(from, path_of(page - 1)) + std::string(href_suffix));
  }
  if (page < pages) {
    data.set("next_href", relative_link(from, path_of(page + 1)) + std::string(href_suffix));
  }
  Data links{Data::type::list};
  bool gap = false;
  for (std::int64_t to = 1; to <= pages; ++to) {
    const bool near = to + k_page_links_around >= page && to <= page + k_page_links_around;
    if (to == 1 || to == pages || near) {
      links.push_back(page_link(localizer, from, path_of(to), to, to == page, href_suffix));
      gap = false;
    } else if (!gap) {
      Data ellipsis;
      ellipsis.set("gap", true);
      ellipsis.set("current", false);
      links.push_back(std::move(ellipsis));
      gap = true;
    }
  }
  data.set("page_links", std::move(links));
}

Data episode_item(const Site& site, const l10n::Localizer& localizer, std::string_view show_slug,
                  const std::string& show_language, const feed::Episode& episode,
                  std::string_view episode_slug, std::string_view from_path) {
  Data item;
  item.set("title", episode.title.empty() ? localizer.text("untitled_episode") : episode.title);
  item.set("feed_lang", episode.title.empty() ? localizer.tag() : show_language);
  item.set("href", relative_link(from_path, episode_path(show_slug, episode_slug)));
  set_time(item, site, localizer, "published", "published_ago", episode.published);
  set_duration(item, localizer, episode.duration_seconds);
  const std::string summary = html::plain_text(episode.description, k_summary_chars);
  item.set("has_summary", !summary.empty());
  item.set("summary", summary);
  return item;
}

Data show_page(const Site& site, const l10n::Localizer& localizer, const model::ShowPage& model) {
  const auto& stored = model.show;
  const auto& show = stored.show;
  const std::int64_t page = model.page;
  const std::string language = language_tag_or_empty(show.effective_language);
  const std::string path = show_path(stored.slug, page);
  const std::string page_name = page > 1 ? localizer.count("page_number", page) : "";
  const std::string title =
      page > 1 ? isolate(show.title) + " – " + page_name + " – " + localizer.text("site_name")
               : feed_page_title(localizer, show.title);
  Data data = page_frame(site, localizer, path, title);
  data.set("og_title", show.title);
  set_image(data, site, stored.artwork);
  set_artwork(data, localizer, stored.artwork, show.title, path, ArtPlace::page);
  data.set("has_json_ld", true);
  data.set("json_ld", show_json_ld(site, localizer, model));
  data.set("has_page_name", page > 1);
  data.set("page_name", page_name);
  set_pagination(data, localizer,
                 model::page_count(model.episode_count, model::k_episodes_per_page), page,
                 [&](std::int64_t n) { return show_path(stored.slug, n); });
  set_meta_description(data, show.description);
  data.set("title", show.title);
  data.set("feed_lang", language);
  set_show_byline(data, localizer, show);
  set_time(data, site, localizer, "added", "added_ago", stored.added_at);
  data.set("episode_count", localizer.count("episodes", model.episode_count));
  data.set("has_show_description", !show.description.empty());
  data.set("show_description", show.description);
  Data categories = category_links(localizer, model.categories, path);
  data.set("has_categories", !categories.is_empty_list());
  data.set("categories", std::move(categories));
  const bool has_website = set_link(data, "website", show.link);
  const bool has_feed_url = set_link(data, "feed_url", stored.feed_url);
  const bool has_opml = !show_opml(stored).empty();
  data.set("has_opml", has_opml);
  data.set("has_show_links", has_website || has_feed_url || has_opml);
  data.set("opml_href", relative_prefix(path) + "../" + opml_path(stored.slug));
  Data episodes{Data::type::list};
  for (const auto& listed : stored.episodes) {
    if (is_safe_slug(listed.slug)) {
      episodes.push_back(
          episode_item(site, localizer, stored.slug, language, listed.episode, listed.slug, path));
    }
  }
  data.set("has_episodes", !episodes.is_empty_list());
  data.set("episodes", std::move(episodes));
  return data;
}

Data episode_page(const Site& site, const l10n::Localizer& localizer,
                  const model::EpisodePage& model) {
  const auto& stored = model.show;
  const auto& episode = stored.episodes.at(0).episode;
  const std::string language = language_tag_or_empty(stored.show.effective_language);
  const std::string path = episode_path(stored.slug, stored.episodes.at(0).slug);
  const std::string title =
      episode.title.empty() ? localizer.text("untitled_episode") : episode.title;
  Data data = page_frame(site, localizer, path, feed_page_title(localizer, title));
  data.set("og_title", title);
  data.set("og_type", "article");
  // The episode's own picture when the store has one, else the show's.
  const bool own_art = has_artwork(stored.episodes.at(0).artwork);
  const auto& artwork = own_art ? stored.episodes.at(0).artwork : stored.artwork;
  set_image(data, site, artwork);
  set_artwork(data, localizer, artwork, own_art ? title : stored.show.title, path, ArtPlace::page);
  data.set("has_json_ld", true);
  data.set("json_ld", episode_json_ld(site, localizer, model));
  set_meta_description(data, episode.description);
  data.set("title", title);
  data.set("title_lang", episode.title.empty() ? localizer.tag() : language);
  data.set("feed_lang", language);
  data.set("show_title", stored.show.title);
  data.set("show_href", relative_link(path, show_path(stored.slug)));
  const Around of = split_message(localizer, "episode_of");
  data.set("of_before", of.before);
  data.set("of_after", of.after);
  set_time(data, site, localizer, "published", "published_ago", episode.published);
  set_duration(data, localizer, episode.duration_seconds);
  set_link(data, "audio_url", episode.enclosure_url);
  set_link(data, "episode_link", episode.link);
  data.set("explicit", episode.explicit_content.value_or(false));
  const std::string numbers = numbering(localizer, episode);
  data.set("has_numbering", !numbers.empty());
  data.set("numbering", numbers);
  set_resources(data, episode);
  data.set("episode_description", episode.description);
  return data;
}

} // namespace podcrawl::render::internal

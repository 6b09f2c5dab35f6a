#include <algorithm>

#include "podcrawl/core/time.hpp"
#include "podcrawl/html/sanitize.hpp"
#include "render_internal.hpp"

namespace podcrawl::render::internal {

namespace {

// Episode summaries in a show's list are plain text cut to this many characters.
constexpr std::size_t k_summary_chars = 280;
// Page links around the current page in a long episode list; the first and last page are
// always linked.
constexpr std::size_t k_page_links_around = 2;

std::string feed_page_title(const l10n::Localizer& localizer, std::string_view feed_title) {
  return isolate(feed_title) + " – " + localizer.text("site_name");
}

// Sets has_<name>, <name>_before/_after (the catalog message around the phrase),
// <name>_datetime and <name>_phrase for a relative time inside <time>.
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

void set_image(Data& data, std::string_view url) {
  const std::string image = http_url_or_empty(url);
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
    name += static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
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
    transcripts.push_back(item);
    any = true;
  }
  data.set("transcripts", transcripts);
  const bool has_chapters = set_link(data, "chapters", episode.chapters_url);
  data.set("has_resources", any || has_chapters);
}

Data category_links(const Site& site, const l10n::Localizer& localizer, const PlannedShow& planned,
                    std::string_view from_path) {
  Data list{Data::type::list};
  for (const std::size_t index : planned.categories) {
    const auto& category = site.plan.categories[index];
    Data item;
    set_category_name(item, localizer, category);
    item.set("href", relative_link(from_path, category_path(category)));
    list.push_back(item);
  }
  return list;
}

Data episode_items(const Site& site, const l10n::Localizer& localizer, const PlannedShow& planned,
                   std::size_t page) {
  const std::string from_path = show_page_path(planned, page);
  const std::size_t first = (page - 1) * k_episodes_per_page;
  const std::size_t last = std::min(planned.episodes.size(), first + k_episodes_per_page);
  Data list{Data::type::list};
  for (std::size_t i = first; i < last; ++i) {
    list.push_back(episode_item(site, localizer, planned, planned.episodes[i], from_path));
  }
  return list;
}

Data page_link(const l10n::Localizer& localizer, const PlannedShow& planned, std::size_t from,
               std::size_t to) {
  Data link;
  link.set("label", localizer.number(static_cast<std::int64_t>(to)));
  link.set("href", relative_link(show_page_path(planned, from), show_page_path(planned, to)));
  link.set("current", from == to);
  link.set("gap", false);
  return link;
}

// The page navigation of a long episode list: previous, first, a window around the current
// page, last, next; a gap marks left-out pages.
void set_pagination(Data& data, const l10n::Localizer& localizer, const PlannedShow& planned,
                    std::size_t page) {
  const std::size_t pages = page_count(planned);
  data.set("has_pagination", pages > 1);
  data.set("has_previous", page > 1);
  data.set("has_next", page < pages);
  if (pages <= 1) {
    return;
  }
  const std::string from = show_page_path(planned, page);
  if (page > 1) {
    data.set("previous_href", relative_link(from, show_page_path(planned, page - 1)));
  }
  if (page < pages) {
    data.set("next_href", relative_link(from, show_page_path(planned, page + 1)));
  }
  Data links{Data::type::list};
  bool gap = false;
  for (std::size_t to = 1; to <= pages; ++to) {
    const bool near = to + k_page_links_around >= page && to <= page + k_page_links_around;
    if (to == 1 || to == pages || near) {
      links.push_back(page_link(localizer, planned, page, to));
      gap = false;
    } else if (!gap) {
      Data ellipsis;
      ellipsis.set("gap", true);
      ellipsis.set("current", false);
      links.push_back(ellipsis);
      gap = true;
    }
  }
  data.set("pagination", links);
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

Data episode_item(const Site& site, const l10n::Localizer& localizer, const PlannedShow& planned,
                  std::size_t index, std::string_view from_path) {
  const auto& episode = planned.stored->show.episodes[index];
  Data item;
  item.set("title", episode.title.empty() ? localizer.text("untitled_episode") : episode.title);
  item.set("feed_lang", episode.title.empty() ? localizer.tag() : planned.language);
  item.set("href", relative_link(from_path, episode_path(planned, index)));
  set_time(item, site, localizer, "published", "published_ago", episode.published);
  set_duration(item, localizer, episode.duration_seconds);
  const std::string summary = html::plain_text(episode.description, k_summary_chars);
  item.set("has_summary", !summary.empty());
  item.set("summary", summary);
  return item;
}

Data show_page(const Site& site, const l10n::Localizer& localizer, std::size_t index,
               std::size_t page) {
  const auto& planned = site.plan.shows[index];
  const auto& show = planned.stored->show;
  page = std::clamp<std::size_t>(page, 1, page_count(planned));
  const std::string path = show_page_path(planned, page);
  const std::string page_name =
      page > 1 ? localizer.count("page_number", static_cast<std::int64_t>(page)) : "";
  const std::string title =
      page > 1 ? isolate(show.title) + " – " + page_name + " – " + localizer.text("site_name")
               : feed_page_title(localizer, show.title);
  Data data = page_frame(site, localizer, path, title);
  data.set("og_title", show.title);
  set_image(data, show.image);
  data.set("has_json_ld", true);
  data.set("json_ld", show_json_ld(site, localizer, index));
  data.set("has_page_name", page > 1);
  data.set("page_name", page_name);
  set_pagination(data, localizer, planned, page);
  set_meta_description(data, show.description);
  data.set("title", show.title);
  data.set("feed_lang", planned.language);
  set_show_byline(data, localizer, show);
  set_time(data, site, localizer, "added", "added_ago", planned.stored->added_at);
  data.set("episode_count",
           localizer.count("episodes", static_cast<std::int64_t>(planned.episodes.size())));
  data.set("has_show_description", !show.description.empty());
  data.set("show_description", show.description);
  data.set("has_categories", !planned.categories.empty());
  data.set("categories", category_links(site, localizer, planned, path));
  const bool has_website = set_link(data, "website", show.link);
  const bool has_feed_url = set_link(data, "feed_url", planned.stored->feed_url);
  const bool has_opml = !show_opml(planned).empty();
  data.set("has_opml", has_opml);
  data.set("has_show_links", has_website || has_feed_url || has_opml);
  data.set("opml_href", relative_prefix(path) + "../" + opml_path(planned));
  data.set("has_episodes", !planned.episodes.empty());
  data.set("episodes", episode_items(site, localizer, planned, page));
  return data;
}

Data episode_page(const Site& site, const l10n::Localizer& localizer, std::size_t show_index,
                  std::size_t episode_index) {
  const auto& planned = site.plan.shows[show_index];
  const auto& episode = planned.stored->show.episodes[episode_index];
  const std::string path = episode_path(planned, episode_index);
  const std::string title =
      episode.title.empty() ? localizer.text("untitled_episode") : episode.title;
  Data data = page_frame(site, localizer, path, feed_page_title(localizer, title));
  data.set("og_title", title);
  data.set("og_type", "article");
  set_image(data, episode.image.empty() ? planned.stored->show.image : episode.image);
  data.set("has_json_ld", true);
  data.set("json_ld", episode_json_ld(site, localizer, show_index, episode_index));
  set_meta_description(data, episode.description);
  data.set("title", title);
  data.set("title_lang", episode.title.empty() ? localizer.tag() : planned.language);
  data.set("feed_lang", planned.language);
  data.set("show_title", planned.stored->show.title);
  data.set("show_href", relative_link(path, show_path(planned)));
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

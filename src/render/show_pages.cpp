#include "podcrawl/core/time.hpp"
#include "podcrawl/html/sanitize.hpp"
#include "render_internal.hpp"

namespace podcrawl::render::internal {

namespace {

// Episode summaries in a show's list are plain text cut to this many characters.
constexpr std::size_t k_summary_chars = 280;

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
    data.set("duration_iso", iso_duration(*seconds));
  }
}

void set_link(Data& data, const std::string& name, std::string_view url) {
  const std::string safe = http_url_or_empty(url);
  data.set("has_" + name, !safe.empty());
  data.set(name, safe);
}

Data category_links(const Site& site, const PlannedShow& planned, std::string_view from_path) {
  Data list{Data::type::list};
  for (const std::size_t index : planned.categories) {
    const auto& category = site.plan.categories[index];
    Data item;
    item.set("name", category.name);
    item.set("href", relative_link(from_path, category_path(category)));
    list.push_back(item);
  }
  return list;
}

Data episode_items(const Site& site, const l10n::Localizer& localizer, const PlannedShow& planned) {
  const std::string from_path = show_path(planned);
  Data list{Data::type::list};
  for (const std::size_t index : planned.episodes) {
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
    list.push_back(item);
  }
  return list;
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

Data show_page(const Site& site, const l10n::Localizer& localizer, std::size_t index) {
  const auto& planned = site.plan.shows[index];
  const auto& show = planned.stored->show;
  const std::string path = show_path(planned);
  Data data = page_frame(site, localizer, path, feed_page_title(localizer, show.title));
  set_meta_description(data, show.description);
  data.set("title", show.title);
  data.set("feed_lang", planned.language);
  set_show_byline(data, localizer, show);
  set_time(data, site, localizer, "added", "added_ago", planned.stored->added_at);
  data.set("episode_count",
           localizer.count("episodes", static_cast<std::int64_t>(planned.episodes.size())));
  data.set("show_description", show.description);
  data.set("has_categories", !planned.categories.empty());
  data.set("categories", category_links(site, planned, path));
  set_link(data, "website", show.link);
  set_link(data, "feed_url", planned.stored->feed_url);
  data.set("has_episodes", !planned.episodes.empty());
  data.set("episodes", episode_items(site, localizer, planned));
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
  data.set("episode_description", episode.description);
  return data;
}

} // namespace podcrawl::render::internal

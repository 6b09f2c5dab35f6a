#include "render_internal.hpp"

namespace podcrawl::render::internal {

namespace {

using Outcome = model::SubmitPage::Outcome;

// The catalog's message for what became of a URL sent; "" for the empty form.
std::string outcome_message(const l10n::Localizer& localizer, const model::SubmitPage& page) {
  switch (page.outcome) {
    case Outcome::form:
      return {};
    case Outcome::added:
      return localizer.text("add_added");
    case Outcome::exists:
      return localizer.text("add_exists");
    case Outcome::queued:
      return localizer.text("add_queued");
    case Outcome::too_many:
      return localizer.text("add_too_many");
    case Outcome::cross_site:
      return localizer.text("add_cross_site");
    case Outcome::refused:
      break;
  }
  switch (page.refusal) {
    case model::FeedRefusal::refused_address:
      return localizer.text("add_refused_address");
    case model::FeedRefusal::unreachable:
      return localizer.text("add_unreachable");
    case model::FeedRefusal::no_feed_advertised:
      return localizer.text("add_no_feed");
    case model::FeedRefusal::not_a_feed:
      return localizer.text("add_not_a_feed");
    case model::FeedRefusal::not_a_url:
    case model::FeedRefusal::none:
      break;
  }
  return localizer.text("add_not_a_url");
}

bool succeeded(Outcome outcome) {
  return outcome == Outcome::added || outcome == Outcome::exists || outcome == Outcome::queued;
}

} // namespace

Data submit_page(const Site& site, const l10n::Localizer& localizer,
                 const model::SubmitPage& page) {
  const std::string path = submit_path();
  Data data = page_frame(site, localizer, path,
                         localizer.text("add_podcast") + " – " + localizer.text("site_name"));
  // A form and its answers: nothing to index, nothing canonical.
  data.set("has_canonical", false);
  data.set("noindex", true);
  data.set("alternates", Data{Data::type::list});
  data.set("token", page.token);
  // What was sent comes back in the form only when it was not taken.
  data.set("url", succeeded(page.outcome) ? std::string() : page.url);
  const std::string message = outcome_message(localizer, page);
  data.set("has_message", !message.empty());
  data.set("message", message);
  data.set("message_class", succeeded(page.outcome) ? "notice" : "problem");
  const bool has_show = page.show && is_safe_slug(page.show->slug) &&
                        (page.outcome == Outcome::added || page.outcome == Outcome::exists);
  data.set("has_show", has_show);
  if (has_show) {
    const Around around = split_message(localizer, "add_see_show");
    data.set("show_before", around.before);
    data.set("show_after", around.after);
    data.set("show_title", page.show->title);
    data.set("show_lang", language_tag_or_empty(page.show->language));
    data.set("show_href", relative_link(path, show_path(page.show->slug)));
  }
  return data;
}

} // namespace podcrawl::render::internal

#include <string>

#include "podcrawl/model/artwork.hpp"
#include "render_internal.hpp"

// Cover art on pages: the renditions the crawler made, published by the site itself under
// art/ (SiteWriter places the files, the live directory answers them). A page never links an
// image on another host: the feed's image URL reaches no page.

namespace podcrawl::render::internal {

namespace {

// The CSS width cover art is shown at (site.css), and the `sizes` attribute that says so.
struct ArtDisplay {
  int css_width;
  const char* sizes;
};

ArtDisplay display(ArtPlace place) {
  switch (place) {
    case ArtPlace::page:
      return {200, "200px"};
    case ArtPlace::list:
      return {64, "64px"};
  }
  return {64, "64px"};
}

} // namespace

std::string art_path(const model::StoredArtwork& artwork, const model::ArtRendition& rendition) {
  return "art/" + model::art_file_name(artwork.content_hash, rendition.width);
}

bool has_artwork(const std::optional<model::StoredArtwork>& artwork) {
  return artwork && !artwork->renditions.empty() && artwork->content_hash.size() == 40;
}

void set_artwork(Data& data, const l10n::Localizer& localizer,
                 const std::optional<model::StoredArtwork>& artwork, std::string_view title,
                 std::string_view from_path, ArtPlace place) {
  if (!has_artwork(artwork)) {
    data.set("art", false);
    return;
  }
  const ArtDisplay shown = display(place);
  const std::string root = relative_prefix(from_path) + "../";
  // src: the narrowest rendition that fills the box on a screen of two pixels a CSS pixel;
  // browsers that read srcset choose for themselves.
  const model::ArtRendition* chosen = &artwork->renditions.back();
  std::string srcset;
  for (const model::ArtRendition& rendition : artwork->renditions) {
    if (rendition.width >= 2 * shown.css_width && chosen == &artwork->renditions.back()) {
      chosen = &rendition;
    }
    srcset += (srcset.empty() ? "" : ", ") + root + art_path(*artwork, rendition) + " " +
              std::to_string(rendition.width) + "w";
  }
  Data art;
  art.set("src", root + art_path(*artwork, *chosen));
  art.set("srcset", srcset);
  art.set("sizes", shown.sizes);
  art.set("width", std::to_string(chosen->width));
  art.set("height", std::to_string(chosen->height));
  art.set("alt", localizer.format("cover_art_of", isolate(title)));
  data.set("art", std::move(art));
}

std::string artwork_url(const Site& site, const std::optional<model::StoredArtwork>& artwork) {
  if (!has_artwork(artwork)) {
    return {};
  }
  return site.site_url + "/" + art_path(*artwork, artwork->renditions.back());
}

} // namespace podcrawl::render::internal

namespace podcrawl::render {

std::vector<std::string> art_files(const std::optional<model::StoredArtwork>& artwork) {
  std::vector<std::string> files;
  if (internal::has_artwork(artwork)) {
    for (const model::ArtRendition& rendition : artwork->renditions) {
      files.push_back(model::art_file_name(artwork->content_hash, rendition.width));
    }
  }
  return files;
}

} // namespace podcrawl::render

#pragma once

#include <cstdint>
#include <filesystem>

#include "podcrawl/publish/site.hpp"
#include "podcrawl/render/site.hpp"
#include "podcrawl/store/directory_pages.hpp"

namespace podcrawl::publish {

struct DirectoryRender {
  Summary summary;
  std::int64_t shows = 0; // shows rendered (or, in an update, rendered again or removed)
};

// Render the directory the database holds into the site at out_dir, as at `now`: an update of
// the published site (the shows changed since its snapshot or with a relative date that reads
// otherwise by now, each again or removed; the lists when any show changed or they expired)
// when SiteWriter can make one and `full` is false, else every page. Memory holds a batch of
// shows at a time, whatever the directory's size; a long render logs how far it got. Throws as
// SiteWriter does, and store's errors.
DirectoryRender render_directory(store::DirectoryPages& pages, const render::SiteOptions& options,
                                 const std::filesystem::path& out_dir, std::int64_t now, bool full);

} // namespace podcrawl::publish

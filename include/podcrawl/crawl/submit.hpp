#pragma once

#include <optional>
#include <string>

#include "podcrawl/core/config.hpp"
#include "podcrawl/feed/model.hpp"
#include "podcrawl/fetch/fetcher.hpp"
#include "podcrawl/model/pages.hpp"
#include "podcrawl/store/database.hpp"

// Feeds given from outside the crawl list: a URL someone types into `podcrawl add`, the site's
// form or the API's add/byfeedurl, resolved to the feed it names and stored at once.

namespace podcrawl::crawl {

// Why a URL given to be added is not: each one a person can act on.
using Refusal = model::FeedRefusal;

struct Resolution {
  // The feed's normalized URL: the one given, or the feed the HTML page there advertises.
  std::string url;
  Refusal refusal = Refusal::none;
  std::string error;                         // one line, when refused
  std::optional<fetch::FetchResult> fetched; // the feed's own answer, when it arrived (2xx)
  std::optional<feed::Show> show;            // when parsing was asked for and it parsed
};

struct ResolveOptions {
  bool discover = true; // follow an HTML page to the first feed it advertises
  bool parse = true;    // parse what arrives, refusing what is not a feed
};

// Normalize a URL someone gave, fetch it under the fetch module's address policy and bounds,
// follow an HTML page to the feed it advertises (when options.discover) and parse the feed
// (when options.parse). Touches no database. With neither option, nothing is fetched.
Resolution resolve_feed(const std::string& given, const core::FetchConfig& config,
                        const ResolveOptions& options = {});

struct Submitted {
  bool existed = false;  // the URL was listed already
  std::string show_slug; // the show stored; "" when nothing was (a removed feed kept removed)
};

// Whether a feed the operator removed comes back when it is given again: yes from the
// operator's own commands, never from the site's form or the API.
enum class Removed { revive, keep };

// List a resolved feed (resolution.show set) and store its show at once, as a crawl that had
// fetched it would: its fetch state, its show and episodes, the next fetch when a crawl would
// schedule it. The show's pages are announced as any crawl's are. A feed listed already is
// stored again the same way (existed); one the operator removed stays removed, unstored, unless
// `removed` says to revive it. Throws core::UsageError when the resolution holds no show, and
// the store's errors.
Submitted store_resolved(store::Database& database, const Resolution& resolution,
                         const core::CrawlConfig& config, Removed removed);

} // namespace podcrawl::crawl

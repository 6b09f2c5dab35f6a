#include "podcrawl/serve/live.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <ctime>
#include <limits>
#include <mutex>
#include <thread>
#include <unordered_map>

#include <spdlog/spdlog.h>

#include "admin_internal.hpp"
#include "api_internal.hpp"
#include "metrics_internal.hpp"
#include "podcrawl/core/ascii.hpp"
#include "podcrawl/core/error.hpp"
#include "podcrawl/core/text.hpp"
#include "podcrawl/crawl/submit.hpp"
#include "podcrawl/http/cache.hpp"
#include "podcrawl/http/conditional.hpp"
#include "podcrawl/http/encoding.hpp"
#include "podcrawl/net/url.hpp"
#include "podcrawl/render/api.hpp"
#include "podcrawl/serve/answer.hpp"
#include "podcrawl/serve/api_auth.hpp"
#include "podcrawl/serve/fresh_cache.hpp"
#include "podcrawl/serve/negotiate.hpp"
#include "podcrawl/serve/route.hpp"
#include "podcrawl/serve/websub.hpp"
#include "podcrawl/store/api_keys.hpp"
#include "podcrawl/store/changes.hpp"
#include "podcrawl/store/crawl_history.hpp"
#include "podcrawl/store/crawl_list.hpp"
#include "podcrawl/store/database.hpp"
#include "podcrawl/store/directory_api.hpp"
#include "podcrawl/store/directory_pages.hpp"
#include "podcrawl/store/directory_search.hpp"
#include "podcrawl/store/submissions.hpp"
#include "podcrawl/store/websub.hpp"
#include "pool_internal.hpp"
#include "submit_internal.hpp"

namespace podcrawl::serve {

namespace {

using Kind = Route::Kind;
// How long the change listener waits per call, and before it reconnects after a failure.
constexpr auto k_listen_interval = std::chrono::milliseconds(500);
constexpr auto k_reconnect_delay = std::chrono::seconds(2);
// How long a starting server waits for the listener before it serves without a cache.
constexpr auto k_listen_start_wait = std::chrono::seconds(5);
// How often a server that cannot hear announcements (on a replica) asks what changed.
constexpr auto k_poll_interval = std::chrono::seconds(2);
// While the database is unreachable, how long a request is answered from memory (or with the
// 503 page) at once after the last failure, before a load is tried again; and the Retry-After
// of the 503 page.
constexpr auto k_database_retry = std::chrono::seconds(2);
constexpr const char* k_unavailable_retry_after = "5";
// Largest art file answered; the crawler's renditions are far smaller.
constexpr std::uintmax_t k_max_art_file_bytes = 16 * 1024 * 1024;

// How often the API's keys are read again while the store's announcements of their changes
// cannot be heard.
constexpr auto k_keys_reload_interval = std::chrono::seconds(2);
// The API's answers for a client over its budget and for a request it has no key for.
constexpr const char* k_too_many_requests =
    "{\"status\":\"false\",\"description\":\"Too many requests: wait as Retry-After says.\"}\n";
// URLs given to be added that are fetched at once, each holding a worker until it is resolved:
// more wait (503 with Retry-After), so that slow hosts given on purpose cannot hold every worker.
constexpr int k_max_resolving = 1;
constexpr const char* k_resolving_retry_after = "10";
// The longest a URL given to be added may take to arrive, each fetch of it (the page, then the
// feed it advertises).
constexpr long k_submission_fetch_seconds = 15;

// One of the k_max_resolving slots, held for as long as it lives; taken() is false when all were.
class ResolvingSlot {
public:
  explicit ResolvingSlot(std::atomic<int>& in_use) : m_in_use(in_use) {
    int now = m_in_use.load();
    while (now < k_max_resolving) {
      if (m_in_use.compare_exchange_weak(now, now + 1)) {
        m_taken = true;
        break;
      }
    }
  }
  ~ResolvingSlot() {
    if (m_taken) {
      m_in_use.fetch_sub(1);
    }
  }
  ResolvingSlot(const ResolvingSlot&) = delete;
  ResolvingSlot& operator=(const ResolvingSlot&) = delete;

  bool taken() const { return m_taken; }

private:
  std::atomic<int>& m_in_use;
  bool m_taken = false;
};

// The longest URL the form takes back into its field; a longer one is cut (and refused).
constexpr std::size_t k_max_form_url_bytes = 4096;
// A signed request to add a feed with a key that may only read: a bare string, as every 401.
constexpr const char* k_no_write_permission = "\"This key has no write permission.\"\n";
constexpr const char* k_api_json = "application/json; charset=utf-8";
// The API's answer while the database cannot be reached.
constexpr const char* k_api_unavailable =
    "{\"status\":\"false\",\"description\":\"The directory is unavailable; try again soon.\"}\n";

// The active keys of the API by key, as a server holds them.
using Keyring = std::unordered_map<std::string, store::ApiKey>;

// Thrown instead of trying the database again moments after it could not be reached.
struct DatabaseResting : store::ConnectionLost {
  DatabaseResting() : store::ConnectionLost("the database was unreachable moments ago") {}
};

std::int64_t wall_clock() {
  return static_cast<std::int64_t>(std::time(nullptr));
}

} // namespace

struct LiveDirectory::Impl {
  LiveOptions options;
  std::vector<std::string> locales;
  std::string site_path;
  internal::Pool<store::Database> databases;
  internal::Pool<render::Renderer> renderers;
  FreshCache cache;
  internal::Metrics metrics;
  // Pages that never change while the server runs: the language chooser, assets, 404 pages.
  Page root;
  Page stylesheet;
  Page script;
  std::map<std::string, Page> not_found;
  std::map<std::string, Page> unavailable; // the 503 page of each locale

  // When the database last could not be reached (steady clock, nanoseconds since its epoch);
  // k_reached: not since it was last reached.
  static constexpr std::int64_t k_reached = std::numeric_limits<std::int64_t>::min();
  std::atomic<std::int64_t> database_failed_at{k_reached};

  internal::StatsCache stats;

  // The API: its description (never changes), its keys (read again when the store announces
  // a change of them, or every k_keys_reload_interval while announcements go unheard) and each
  // client's budget of requests.
  Page openapi;
  std::mutex keys_mutex;
  std::shared_ptr<const Keyring> keys = std::make_shared<Keyring>();
  std::chrono::steady_clock::time_point keys_loaded;
  RequestBudget budget;
  RequestBudget pubnotify_budget{1.0 / 60, 1}; // each feed may be marked once a minute
  RequestBudget websub_budget{1.0 / k_websub_mark_seconds, k_websub_mark_burst}; // and pushed
  // The form that adds a podcast: its tokens, and how many submissions it takes an hour from
  // one client address and from everyone.
  internal::FormTokens form_tokens;
  RequestBudget submissions_by_address;
  RequestBudget submissions_overall;
  // URLs given to be added (the form, add/byfeedurl) being fetched now, on workers.
  std::atomic<int> resolving{0};

  std::jthread listener; // last: stopped before the rest is destroyed

  explicit Impl(LiveOptions live_options)
      : options(std::move(live_options)),
        locales(options.site.locales),
        databases(static_cast<std::size_t>(options.config.database_connections),
                  [url = options.database_url] {
                    auto database = std::make_unique<store::Database>(url);
                    store::DirectoryPages(*database).prepare_pages();
                    return database;
                  }),
        renderers(static_cast<std::size_t>(options.config.database_connections),
                  [site = options.site] { return std::make_unique<render::Renderer>(site); }),
        cache(static_cast<std::size_t>(options.config.cache_bytes)),
        budget(options.api.requests_per_second, options.api.burst),
        submissions_by_address(static_cast<double>(options.submit.per_address_per_hour) / 3600,
                               static_cast<double>(options.submit.per_address_per_hour)),
        submissions_overall(static_cast<double>(options.submit.per_hour) / 3600,
                            static_cast<double>(options.submit.per_hour)) {
    // Connect and load every locale now: a wrong URL fails at start, and no request waits
    // while a connection or a renderer is made.
    renderers.fill();
    databases.fill();
    auto renderer = renderers.take();
    site_path = renderer->site_path();
    root = make_lasting_page(renderer->root_page(), k_html);
    stylesheet = make_lasting_page(renderer->stylesheet(), k_css);
    script = make_lasting_page(renderer->locale_script(), k_javascript);
    openapi = make_lasting_page(renderer->openapi_document(), k_api_json);
    load_keys();
    for (const auto& locale : locales) {
      not_found.emplace(locale, make_lasting_page(renderer->not_found_page(locale), k_html));
      unavailable.emplace(locale, make_lasting_page(renderer->unavailable_page(locale), k_html));
    }
    listener = std::jthread([this](std::stop_token stop) { listen(stop); });
    // Until the listener hears the database, nothing can be cached; wait for it a little so
    // that the first requests are cached (and keep their validators), but do not fail a start
    // that cannot hear the database: the listener keeps trying, and pages are rendered anyway.
    if (!cache.wait_until_listening(k_listen_start_wait)) {
      spdlog::warn(
          "serve: the database's changes are not heard yet; pages are not cached until "
          "they are");
    }
  }

  std::int64_t now() const { return options.now ? *options.now : wall_clock(); }

  // ---- the store's announcements ----

  void listen(std::stop_token stop) {
    std::mutex sleeping;
    std::condition_variable_any woken;
    const auto pause = [&](auto duration) {
      std::unique_lock lock(sleeping);
      woken.wait_for(lock, stop, duration, [] { return false; });
    };
    while (!stop.stop_requested()) {
      try {
        store::Database database(options.database_url);
        if (options.config.changes == "poll" ||
            (options.config.changes == "auto" && database.in_recovery())) {
          poll(database, stop, pause);
        } else {
          hear(stop);
        }
      } catch (const std::exception& error) {
        spdlog::warn(
            "serve: not hearing the database's changes ({}); caching stops until it is "
            "back",
            error.what());
        databases.discard_idle(); // a restart broke them too: the next load connects anew
      }
      cache.set_listening(false);
      pause(k_reconnect_delay);
    }
  }

  // The primary announces each changed show (LISTEN/NOTIFY).
  void hear(std::stop_token stop) {
    store::DirectoryChanges changes(options.database_url);
    cache.set_listening(true);
    load_keys(); // changes made while nobody listened
    while (!stop.stop_requested()) {
      const auto heard = changes.wait(k_listen_interval);
      if (!heard.slugs.empty()) {
        cache.invalidate(heard.slugs);
      }
      if (heard.api_keys) {
        load_keys();
      }
    }
  }

  // A replica announces nothing: ask it which shows changed since the last look. The next
  // snapshot is taken before asking, so a change committed meanwhile is found by the next look.
  template <typename Pause>
  void poll(store::Database& database, std::stop_token stop, Pause pause) {
    store::DirectoryPages pages(database);
    std::string snapshot = pages.directory_snapshot();
    cache.set_listening(true);
    while (!stop.stop_requested()) {
      pause(k_poll_interval);
      std::string next = pages.directory_snapshot();
      const auto slugs = pages.shows_changed_since(snapshot);
      if (!slugs.empty()) {
        cache.invalidate(slugs);
      }
      snapshot = std::move(next);
      load_keys(database);
    }
  }

  // Whether the cache may answer the route: a cover art file always (its name is its bytes),
  // a page only while changes are heard.
  bool answerable_from_memory(const Route& route) {
    if (route.kind == Kind::art) {
      return true;
    }
    return cache.listening();
  }

  static std::int64_t steady_now() {
    return std::chrono::steady_clock::now().time_since_epoch().count();
  }

  // True when the database could not be reached so recently that a request is not worth a load.
  bool database_recently_failed() const {
    const std::int64_t failed = database_failed_at.load(std::memory_order_relaxed);
    return failed != k_reached &&
           steady_now() - failed <
               std::chrono::duration_cast<std::chrono::steady_clock::duration>(k_database_retry)
                   .count();
  }

  // The database could not be reached: the connections not in use are likely broken too
  // (dropped, so that the next load connects anew), and loads rest for k_database_retry.
  void database_lost() {
    database_failed_at.store(steady_now(), std::memory_order_relaxed);
    databases.discard_idle();
  }

  // ---- loading and rendering a page ----

  // The page of a route that never changes while the server runs; null for other routes.
  Page lasting_page(const Route& route) const {
    switch (route.kind) {
      case Kind::root:
        return root;
      case Kind::stylesheet:
        return stylesheet;
      case Kind::script:
        return script;
      case Kind::not_found_page:
        return not_found.at(route.path.locale);
      default:
        return nullptr;
    }
  }

  // The page a route names when memory holds it with `coding` made (or not worth making); null
  // otherwise. This is the request's counted cache lookup.
  Page ready_page(const Route& route, std::int64_t at, http::ContentCoding coding) {
    if (Page lasting = lasting_page(route)) {
      return lasting;
    }
    if (!answerable_from_memory(route)) {
      return nullptr;
    }
    Page cached = cache.pages().find(route.key, at);
    return cached && !http::coding_pending(*cached, coding) ? cached : nullptr;
  }

  // The page a route names, from the cache or rendered now, with coding made if it was not
  // yet (each coding is compressed once, when a request first asks for it); null when the
  // database holds no such page. Throws core::EnvironmentError when the database fails.
  // Reached only after ready_page, which counted this request's cache lookup.
  Page page(const Route& route, std::int64_t at, http::ContentCoding coding) {
    if (Page lasting = lasting_page(route)) {
      return lasting;
    }
    const auto started = cache.generation();
    if (auto cached =
            answerable_from_memory(route) ? cache.pages().find(route.key, at, false) : nullptr) {
      if (!http::coding_pending(*cached, coding)) {
        return cached;
      }
      Page coded = http::with_coding(*cached, coding);
      cache.pages().replace(route.key, cached.get(), coded);
      return coded;
    }
    Page rendered = render_page(route, at);
    if (rendered && http::coding_pending(*rendered, coding)) {
      rendered = http::with_coding(*rendered, coding);
    }
    if (rendered) {
      cache.cache_if_current(route.key, rendered, started);
    }
    return rendered;
  }

  Page render_page(const Route& route, std::int64_t at) {
    if (route.kind == Kind::art) {
      return art_page(route);
    }
    return with_database([&](store::Database& database, render::Renderer& renderer) {
      return load_and_render(database, renderer, route, at);
    });
  }

  // A cover art file from the art folder, as the crawler wrote it; null when there is none.
  // Its name is its content's hash, so it is cached for good and never compressed (WebP is).
  Page art_page(const Route& route) const {
    if (options.site.art_dir.empty()) {
      return nullptr;
    }
    auto page = file_page(options.site.art_dir / route.path.slug, k_webp, k_max_art_file_bytes);
    if (page) {
      page->gzip_pending = false;
      page->brotli_pending = false;
      page->immutable = true;
    }
    return page;
  }

  template <typename Work>
  Page with_database(Work&& work) {
    if (database_recently_failed()) {
      throw DatabaseResting();
    }
    try {
      auto database = databases.take();
      auto renderer = renderers.take();
      try {
        Page page = work(*database, *renderer);
        database_failed_at.store(k_reached, std::memory_order_relaxed);
        return page;
      } catch (const core::EnvironmentError&) {
        database.discard();
        throw;
      }
    } catch (const store::ConnectionLost&) {
      database_lost();
      throw;
    }
  }

  // Last-Modified is when the page was built from the database (the wall clock, whatever
  // --now says): a later change of its data is always a later time.
  static std::shared_ptr<http::CachedPage> html_page(render::RenderedPage rendered,
                                                     std::vector<std::string> tags) {
    return make_page(std::move(rendered.html), k_html, wall_clock(), rendered.expires_at,
                     std::move(tags));
  }

  Page load_and_render(store::Database& database, render::Renderer& renderer, const Route& route,
                       std::int64_t at) {
    store::DirectoryPages pages(database);
    switch (route.kind) {
      case Kind::home:
        return html_page(renderer.home_page(pages.load_home_page(), route.path.locale, at),
                         {std::string(k_lists_tag)});
      case Kind::category:
      case Kind::language: {
        const auto list = route.kind == Kind::category
                              ? pages.load_category_page(route.path.slug, route.path.page)
                              : pages.load_language_page(route.path.slug, route.path.page);
        return list ? html_page(renderer.list_page(*list, route.path.locale, at),
                                {std::string(k_lists_tag)})
                    : nullptr;
      }
      case Kind::show: {
        const auto show = pages.load_show_page(route.path.slug, route.path.page);
        return show ? html_page(renderer.show_page(*show, route.path.locale, at),
                                {show_tag(route.path.slug)})
                    : nullptr;
      }
      case Kind::episode: {
        const auto episode = pages.load_episode_page(route.path.slug, route.path.episode);
        return episode ? html_page(renderer.episode_page(*episode, route.path.locale, at),
                                   {show_tag(route.path.slug)})
                       : nullptr;
      }
      case Kind::search: {
        // Any show's change may change the results (k_lists_tag). A client asks again each
        // time (max-age=0) and is answered from memory, 304 when nothing changed.
        const auto results =
            store::DirectorySearch(database).load_search_page(route.words, route.path.page);
        if (!results) {
          return nullptr;
        }
        auto page = html_page(renderer.search_page(*results, route.path.locale, at),
                              {std::string(k_lists_tag)});
        page->revalidate = true;
        return page;
      }
      case Kind::opml: {
        const auto show = pages.load_show_page(route.path.slug, 1);
        std::string opml = show ? renderer.show_opml(show->show) : std::string();
        return opml.empty()
                   ? nullptr
                   : make_page(std::move(opml), k_opml, wall_clock(),
                               at + render::Renderer::k_max_lifetime, {show_tag(route.path.slug)});
      }
      default:
        return nullptr;
    }
  }

  // ---- the APIs ----

  // Read the active keys of the API into memory (on a connection of the pool, or `database`).
  void load_keys(store::Database& database) {
    auto loaded = std::make_shared<Keyring>();
    for (auto& key : store::ApiKeys(database).active()) {
      std::string name = key.key;
      loaded->emplace(std::move(name), std::move(key));
    }
    std::lock_guard lock(keys_mutex);
    keys = std::move(loaded);
    keys_loaded = std::chrono::steady_clock::now();
  }
  void load_keys() {
    with_database([&](store::Database& database, render::Renderer&) -> Page {
      load_keys(database);
      return nullptr;
    });
  }

  // The keys as memory holds them; read again first when announcements go unheard and they
  // are older than k_keys_reload_interval, if `may_load`.
  std::shared_ptr<const Keyring> current_keys(bool may_load) {
    {
      std::lock_guard lock(keys_mutex);
      if (cache.listening() || !may_load ||
          std::chrono::steady_clock::now() - keys_loaded < k_keys_reload_interval) {
        return keys;
      }
    }
    load_keys();
    std::lock_guard lock(keys_mutex);
    return keys;
  }

  static http::Response json_answer(int status, std::string body) {
    http::Response response;
    response.status = status;
    response.headers.emplace_back("Content-Type", k_api_json);
    response.headers.emplace_back("Cache-Control", "no-store");
    add_security_headers(response);
    response.body = std::make_shared<const std::string>(std::move(body));
    return response;
  }

  // Who a request's budget is counted for: its key, else its client's address; or the 401
  // answer when the endpoint needs a key the request does not hold.
  std::variant<std::string, http::Response> requester(const http::Request& request,
                                                      internal::Endpoint endpoint, bool may_load) {
    if (answered_without_key(endpoint)) {
      return "address " + request.client_address;
    }
    const Credentials credentials{request.header("X-Auth-Key"), request.header("X-Auth-Date"),
                                  request.header("Authorization")};
    const auto known = current_keys(may_load);
    const auto found = known->find(credentials.key);
    const std::string secret = found == known->end() ? std::string() : found->second.secret;
    if (const auto failure = check_credentials(credentials, secret, wall_clock())) {
      return json_answer(401, auth_failure_body(*failure));
    }
    if (internal::writes(endpoint) && !found->second.write) {
      return json_answer(401, k_no_write_permission);
    }
    return "key " + credentials.key;
  }

  // The 429 answer when `who` has spent its budget; nullopt when it may go on.
  std::optional<http::Response> over_budget(const std::string& who) {
    const auto wait = budget.take(who, steady_milliseconds());
    if (!wait) {
      return std::nullopt;
    }
    http::Response response = json_answer(429, k_too_many_requests);
    response.headers.emplace_back("Retry-After", std::to_string(*wait));
    return response;
  }

  http::Response api_page_answer(const http::Request& request, const http::CachedPage& page,
                                 internal::Endpoint endpoint, std::int64_t at) const {
    return with_cors(answer_page(request, page, at, 200), endpoint);
  }

  // Whether the endpoint answers requests without a key: it needs none, or the operator opened
  // the API.
  bool answered_without_key(internal::Endpoint endpoint) const {
    return !internal::needs_key(endpoint) || (options.api.open && !internal::writes(endpoint));
  }

  // An answer of the endpoint, which web apps may read when it needs no key.
  http::Response with_cors(http::Response response, internal::Endpoint endpoint) const {
    if (answered_without_key(endpoint)) {
      response.headers.emplace_back("Access-Control-Allow-Origin", "*");
    }
    return response;
  }

  // The answer of an API request. From the quick path (`loading` false): only what memory
  // holds, nullopt when a load is needed (the budget is then taken by the load's call).
  std::optional<http::Response> api_answer(const http::Request& request, const Route& route,
                                           std::int64_t at, bool loading) {
    if (!loading && !cache.listening()) {
      return std::nullopt; // the keys memory holds may be stale, and nothing is cached
    }
    const auto endpoint = *internal::endpoint_of(route.key);
    auto who = requester(request, endpoint, loading);
    if (auto* refusal = std::get_if<http::Response>(&who)) {
      return std::move(*refusal);
    }
    if (endpoint == internal::Endpoint::openapi) {
      return api_page_answer(request, *openapi, endpoint, at);
    }
    if (endpoint == internal::Endpoint::hub_pubnotify) {
      return loading ? std::optional(pubnotify_answer(request, std::get<std::string>(who)))
                     : std::nullopt;
    }
    if (endpoint == internal::Endpoint::add_byfeedurl) {
      return loading ? std::optional(add_answer(request, std::get<std::string>(who)))
                     : std::nullopt;
    }
    const auto asked = internal::read_api_request(endpoint, request.query, wall_clock());
    if (!asked) {
      return with_cors(json_answer(400, render::api::invalid_parameters_answer()), endpoint);
    }
    const std::string key = internal::cache_key(*asked);
    const auto coding = wanted_coding(request);
    Page cached = answerable_from_memory(route) ? cache.pages().find(key, at, !loading) : nullptr;
    if (!loading && (!cached || http::coding_pending(*cached, coding))) {
      return std::nullopt;
    }
    if (auto refusal = over_budget(std::get<std::string>(who))) {
      return refusal;
    }
    if (!cached) {
      const auto started = cache.generation();
      with_database([&](store::Database& database, render::Renderer&) -> Page {
        auto page = make_page(load_api_answer(database, *asked),
                              internal::content_type_of(endpoint), wall_clock(),
                              at + render::Renderer::k_max_lifetime, {std::string(k_lists_tag)});
        page->revalidate = true;
        cached = page;
        return nullptr;
      });
      cache.cache_if_current(key, cached, started);
    }
    if (http::coding_pending(*cached, coding)) {
      Page coded = http::with_coding(*cached, coding);
      cache.pages().replace(key, cached.get(), coded);
      cached = coded;
    }
    return api_page_answer(request, *cached, endpoint, at);
  }

  // hub/pubnotify: a publisher (or anyone: nothing in the request is trusted) asks for a feed
  // the directory knows to be fetched now. It is marked urgent (a watching crawler fetches it at
  // once, a cron run first), at most once a minute per feed; an unknown feed is not added.
  http::Response pubnotify_answer(const http::Request& request, const std::string& who) {
    constexpr auto k_pubnotify = internal::Endpoint::hub_pubnotify;
    const auto asked =
        internal::read_api_request(k_pubnotify, internal::parameters_of(request), wall_clock());
    if (!asked) {
      return with_cors(json_answer(400, render::api::invalid_parameters_answer()), k_pubnotify);
    }
    if (auto refusal = over_budget(who)) {
      return with_cors(std::move(*refusal), k_pubnotify);
    }
    const std::string feed =
        asked->ids.empty() ? "url " + asked->text : "id " + asked->id_texts.front();
    if (const auto wait = pubnotify_budget.take(feed, steady_milliseconds())) {
      http::Response response = json_answer(429, render::api::pubnotify_answer(false, true));
      response.headers.emplace_back("Retry-After", std::to_string(*wait));
      return with_cors(std::move(response), k_pubnotify);
    }
    std::optional<std::int64_t> marked;
    with_database([&](store::Database& database, render::Renderer&) -> Page {
      store::CrawlList list(database);
      if (!asked->ids.empty()) {
        marked = list.mark_urgent_by_show(asked->ids.front());
      } else if (!(marked = list.mark_urgent_by_url(asked->text))) {
        const auto normalized = net::normalize_feed_url(asked->text);
        if (normalized && *normalized != asked->text) {
          marked = list.mark_urgent_by_url(*normalized);
        }
      }
      return nullptr;
    });
    return with_cors(json_answer(200, render::api::pubnotify_answer(marked.has_value(), false)),
                     k_pubnotify);
  }

  // add/byfeedurl: a key with write permission adds a feed (or the web page of one) as
  // `podcrawl add --check` does, and its show is stored at once, so that its id is answered and
  // its page is live. A feed listed already is answered with its id, unfetched.
  http::Response add_answer(const http::Request& request, const std::string& who) {
    constexpr auto k_add = internal::Endpoint::add_byfeedurl;
    const auto asked =
        internal::read_api_request(k_add, internal::parameters_of(request), wall_clock());
    if (!asked) {
      return json_answer(400, render::api::invalid_parameters_answer());
    }
    if (auto refusal = over_budget(who)) {
      return std::move(*refusal);
    }
    std::optional<std::int64_t> known;
    with_database([&](store::Database& database, render::Renderer&) -> Page {
      store::DirectoryApi api(database);
      if (const auto feed = feed_by_url(api, asked->text)) {
        known = feed->id;
      }
      return nullptr;
    });
    if (known) {
      return json_answer(200, render::api::added_answer(*known, true));
    }
    const ResolvingSlot slot(resolving);
    if (!slot.taken()) {
      http::Response busy = json_answer(503, k_api_unavailable);
      busy.headers.emplace_back("Retry-After", k_resolving_retry_after);
      return busy;
    }
    const auto resolution = crawl::resolve_feed(asked->text, submission_fetch());
    if (resolution.refusal != crawl::Refusal::none) {
      return json_answer(400, render::api::not_added_answer(resolution.error));
    }
    bool existed = false;
    with_database([&](store::Database& database, render::Renderer&) -> Page {
      existed =
          crawl::store_resolved(database, resolution, options.crawl, crawl::Removed::keep).existed;
      if (const auto feed = store::DirectoryApi(database).feed_by_url(resolution.url)) {
        known = feed->id;
      }
      return nullptr;
    });
    if (!known) { // listed under a URL it moved to since: the crawl stores it there
      return json_answer(
          202, render::api::not_added_answer("Feed listed; its show comes with the next crawl."));
    }
    return json_answer(200, render::api::added_answer(*known, existed));
  }

  // The form that adds a podcast (/<locale>/add/). A GET is the form with a fresh token. A POST
  // must come from this site's page (internal::same_origin) with a token this server made, and
  // within the rate limits; its URL is then resolved on this worker as `podcrawl add --check`
  // resolves it, and listed and stored at once (or queued for review, [submit] review). The
  // answer is the form again, saying what became of it; it is never cached.
  http::Response submit_answer(const http::Request& request, const Route& route, std::int64_t at) {
    if (!options.submit.enabled) {
      return not_found_answer(request, at);
    }
    model::SubmitPage page;
    int status = 200;
    std::string retry_after;
    if (request.method == "POST") {
      status = take_submission(request, page, retry_after);
    }
    page.token = form_tokens.issue(wall_clock());
    const auto renderer = renderers.take();
    http::Response response;
    response.status = status;
    response.headers.emplace_back("Content-Type", k_html);
    response.headers.emplace_back("Cache-Control", "no-store");
    if (!retry_after.empty()) {
      response.headers.emplace_back("Retry-After", retry_after);
    }
    add_security_headers(response);
    response.body = std::make_shared<const std::string>(
        renderer->submit_page(page, route.path.locale, at).html);
    return response;
  }

  // A URL sent with the form: what became of it in `page`, and the answer's status (with the
  // seconds to wait in `retry_after` when it is 429 or 503).
  int take_submission(const http::Request& request, model::SubmitPage& page,
                      std::string& retry_after) {
    using Outcome = model::SubmitPage::Outcome;
    const std::string form = internal::parameters_of(request);
    const std::string sent = query_value(form, "url");
    page.url = core::utf8_prefix(core::trim(sent), k_max_form_url_bytes);
    if (!core::is_valid_utf8(page.url)) {
      page.url.clear(); // refused as not a URL, and not written back into the page
    }
    if (!internal::same_origin(request) ||
        !form_tokens.valid(query_value(form, "token"), wall_clock())) {
      page.outcome = Outcome::cross_site;
      return 403;
    }
    const std::string client = submitter(request);
    const auto now_ms = steady_milliseconds();
    auto wait = submissions_by_address.take(client, now_ms);
    if (!wait) {
      wait = submissions_overall.take("everyone", now_ms);
    }
    if (wait) {
      page.outcome = Outcome::too_many;
      retry_after = std::to_string(*wait);
      return 429;
    }
    if (const auto known = listing(page.url); known.listed) {
      page.outcome = Outcome::exists;
      page.show = known.show;
      return 200;
    }
    const ResolvingSlot slot(resolving);
    if (!slot.taken()) {
      page.outcome = Outcome::too_many;
      retry_after = k_resolving_retry_after;
      return 503;
    }
    const auto resolution = crawl::resolve_feed(page.url, submission_fetch());
    if (resolution.refusal != crawl::Refusal::none) {
      page.outcome = Outcome::refused;
      page.refusal = resolution.refusal;
      return 400;
    }
    if (options.submit.review) {
      with_database([&](store::Database& database, render::Renderer&) -> Page {
        store::Submissions(database).queue(resolution.url, page.url, client);
        return nullptr;
      });
      page.outcome = Outcome::queued;
      return 202;
    }
    bool existed = false;
    with_database([&](store::Database& database, render::Renderer&) -> Page {
      existed =
          crawl::store_resolved(database, resolution, options.crawl, crawl::Removed::keep).existed;
      return nullptr;
    });
    page.outcome = existed ? Outcome::exists : Outcome::added;
    page.show = listing(resolution.url).show;
    return 200;
  }

  // Who sent a submission, for its rate limit and the review queue: the client address, or
  // behind a proxy on this machine the address it says it forwarded for (X-Real-IP, else the
  // last X-Forwarded-For); a proxy elsewhere is counted as one client.
  static std::string submitter(const http::Request& request) {
    const bool local_peer =
        request.client_address.starts_with("127.") || request.client_address == "::1";
    if (!local_peer) {
      return request.client_address;
    }
    if (const std::string real = std::string(core::trim(request.header("X-Real-IP")));
        !real.empty()) {
      return real;
    }
    const std::string forwarded = request.header("X-Forwarded-For");
    const auto comma = forwarded.rfind(',');
    const std::string last(
        core::trim(comma == std::string::npos ? forwarded : forwarded.substr(comma + 1)));
    return last.empty() ? request.client_address : last;
  }

  // The fetch bounds of a URL given to be added: the crawl's, with a shorter overall time, for
  // a worker waits on it.
  core::FetchConfig submission_fetch() const {
    core::FetchConfig fetch = options.fetch;
    fetch.total_timeout_seconds = std::min(fetch.total_timeout_seconds, k_submission_fetch_seconds);
    return fetch;
  }

  // Whether the directory lists a feed URL as given (or normalized), and its show when it is to
  // be seen: not for a feed the operator removed.
  struct Listing {
    bool listed = false;
    std::optional<model::ShowSummary> show;
  };
  Listing listing(const std::string& url) {
    Listing found;
    with_database([&](store::Database& database, render::Renderer&) -> Page {
      store::DirectoryApi api(database);
      if (const auto feed = feed_by_url(api, url)) {
        found.listed = true;
        if (feed->status == "removed") {
          return nullptr;
        }
        found.show.emplace();
        found.show->slug = feed->show.slug;
        found.show->title = feed->show.show.title;
        found.show->language = feed->show.show.language;
      }
      return nullptr;
    });
    return found;
  }

  static std::int64_t steady_milliseconds() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }

  // The shows a search finds, best first: the directory's one search, of shows' own title,
  // author and notes as Podcast Index's byterm (episodes are not looked in); for search/bytitle
  // only those whose title matched, with `clean` only those not marked explicit. The feeds are
  // read from the cache's, the others from the store (and kept there).
  std::vector<model::DirectoryFeed> search_feeds(store::Database& database,
                                                 const internal::ApiRequest& asked) {
    if (asked.needs_unknown) {
      return {};
    }
    model::SearchRequest search;
    search.query = asked.text;
    search.limit = asked.max;
    search.episodes = false;
    search.candidates = std::max(asked.max, model::k_api_search_candidates);
    const bool title_only = asked.endpoint == internal::Endpoint::search_bytitle;
    const auto started = cache.generation();
    std::vector<std::int64_t> ids;
    for (const auto& hit : store::DirectorySearch(database).find_shows(search)) {
      if (hit.title_matched || !title_only) {
        ids.push_back(hit.show_id);
      }
    }
    auto found = cache.find_feeds(ids, std::chrono::steady_clock::now());
    std::vector<std::int64_t> missing;
    for (std::size_t i = 0; i < ids.size(); ++i) {
      if (!found[i]) {
        missing.push_back(ids[i]);
      }
    }
    // In the order of `missing`, without those gone since the search.
    auto loaded = store::DirectoryApi(database).feeds_by_ids(missing);
    cache.cache_feeds_if_current(loaded, started, std::chrono::steady_clock::now());
    std::vector<model::DirectoryFeed> feeds;
    auto next = loaded.begin();
    for (std::size_t i = 0; i < ids.size(); ++i) {
      if (found[i]) {
        feeds.push_back(std::move(*found[i]));
      } else if (next != loaded.end() && next->id == ids[i]) {
        feeds.push_back(std::move(*next++));
      }
    }
    if (asked.clean) {
      std::erase_if(feeds, [](const model::DirectoryFeed& feed) {
        return feed.show.show.explicit_content.value_or(false);
      });
    }
    return feeds;
  }

  // The show of a feed URL as a client sends it: as stored, else normalized as `add` does.
  static std::optional<model::DirectoryFeed> feed_by_url(store::DirectoryApi& api,
                                                         const std::string& url) {
    if (auto found = api.feed_by_url(url)) {
      return found;
    }
    const auto normalized = net::normalize_feed_url(url);
    return normalized && *normalized != url ? api.feed_by_url(*normalized) : std::nullopt;
  }

  static std::optional<model::DirectoryFeed> first(std::vector<model::DirectoryFeed> feeds) {
    return feeds.empty() ? std::nullopt : std::optional(std::move(feeds.front()));
  }

  render::api::SiteLinks site_links() const {
    return {options.site.site_url, locales.front(), !options.site.art_dir.empty()};
  }

  std::string load_api_answer(store::Database& database, const internal::ApiRequest& asked) {
    namespace api = render::api;
    using internal::Endpoint;
    store::DirectoryApi directory(database);
    const auto& style = asked.style;
    switch (asked.endpoint) {
      case Endpoint::search_byterm:
      case Endpoint::search_bytitle:
        return api::search_answer(search_feeds(database, asked), asked.text, style);
      case Endpoint::podcasts_byfeedid:
        return api::feed_answer(first(directory.feeds_by_ids(asked.ids)),
                                {{"id", asked.id_texts.front()}}, style);
      case Endpoint::podcasts_byfeedurl:
        return api::feed_answer(feed_by_url(directory, asked.text), {{"url", asked.text}}, style);
      case Endpoint::podcasts_byguid: {
        const auto feed = directory.feed_by_guid(asked.text);
        return api::feed_answer(
            feed, {{"guid", asked.text}, {"id", feed ? std::to_string(feed->id) : ""}}, style);
      }
      case Endpoint::episodes_byfeedid: {
        auto episodes =
            asked.newest ? directory.newest_episode_of(asked.ids)
            : asked.enclosure.empty()
                ? directory.episodes_of(asked.ids, asked.since, asked.max)
                : directory.episodes_of(asked.ids, asked.since, model::k_api_max_results);
        if (!asked.enclosure.empty()) {
          std::erase_if(episodes, [&](const model::DirectoryEpisode& episode) {
            return episode.episode.episode.enclosure_url != asked.enclosure;
          });
        }
        return api::episodes_answer(episodes, {asked.id_texts, {}}, style);
      }
      case Endpoint::episodes_byfeedurl: {
        const auto feed = feed_by_url(directory, asked.text);
        return api::episodes_answer(feed ? directory.episodes_of({feed->id}, asked.since, asked.max)
                                         : std::vector<model::DirectoryEpisode>(),
                                    {{}, {{"url", asked.text}}}, style);
      }
      case Endpoint::episodes_byid:
        return api::episode_answer(directory.episode_by_id(asked.ids.front()),
                                   asked.id_texts.front(), style);
      case Endpoint::recent_episodes:
        return api::recent_episodes_answer(
            directory.recent_episodes(asked.max, asked.before, asked.text), asked.max, style);
      case Endpoint::recent_feeds:
        return api::recent_feeds_answer(directory.recent_feeds(asked.recent), asked.max,
                                        asked.since, style);
      case Endpoint::categories_list:
        return api::categories_answer(directory.categories(), style);
      case Endpoint::stats_current:
        return api::stats_answer(directory.counts(), style);
      case Endpoint::itunes_search:
        return api::itunes_answer(
            asked.podcasts ? search_feeds(database, asked) : std::vector<model::DirectoryFeed>(),
            site_links());
      case Endpoint::itunes_lookup:
        return api::itunes_answer(directory.feeds_by_ids(asked.ids), site_links());
      case Endpoint::gpodder_json:
        return api::gpodder_json(search_feeds(database, asked), site_links(), asked.scale_logo);
      case Endpoint::gpodder_opml:
        return api::gpodder_opml(search_feeds(database, asked), asked.text);
      case Endpoint::gpodder_txt:
        return api::gpodder_txt(search_feeds(database, asked));
      case Endpoint::openapi:
      case Endpoint::hub_pubnotify:
      case Endpoint::add_byfeedurl:
        break;
    }
    return {};
  }

  // ---- WebSub: the callbacks of the crawler's subscriptions ----

  // A hub's verification of intent (W3C WebSub section 5.3): the challenge echoed when the
  // subscription `token` names has a request of that mode and topic pending, else 404.
  http::Response websub_verification_answer(const http::Request& request,
                                            const std::string& token) {
    const std::string mode = query_value(request.query, "hub.mode");
    const std::string topic = query_value(request.query, "hub.topic");
    const std::string challenge = query_value(request.query, "hub.challenge");
    const auto lease = websub_lease_seconds(query_value(request.query, "hub.lease_seconds"));
    const bool challenged = !challenge.empty() && challenge.size() <= k_max_websub_challenge_bytes;
    if (request.method != "GET" || (mode != "denied" && !challenged)) {
      return plain_answer(404, "No such request is pending.\n");
    }
    bool verified = false;
    with_database([&](store::Database& database, render::Renderer&) -> Page {
      verified = store::WebSubSubscriptions(database).verify(token, mode, topic, lease);
      return nullptr;
    });
    if (!verified) {
      return plain_answer(404, "No such request is pending.\n");
    }
    return plain_answer(200, mode == "denied" ? std::string() : challenge);
  }

  // A hub's delivery (W3C WebSub section 8): 410 for a subscription that is not active (the
  // hub may end it); otherwise 202 at once, whether or not the signature holds (section 8.1:
  // an invalid one is ignored, and the same answer gives nothing to a forger), and the feed is
  // marked urgent only when it holds. Its own fetch brings the news: hubs may deliver only what
  // changed, and the body is never read as the feed.
  http::Response websub_delivery_answer(const http::Request& request, const std::string& token) {
    std::optional<store::WebSubDelivery> subscription;
    with_database([&](store::Database& database, render::Renderer&) -> Page {
      store::WebSubSubscriptions subscriptions(database);
      subscription = subscriptions.delivery(token);
      if (!subscription) {
        return nullptr;
      }
      const auto signature = check_hub_signature(request.header("X-Hub-Signature"), request.body,
                                                 subscription->secret);
      if (signature != HubSignature::valid) {
        spdlog::warn("serve: a WebSub delivery for feed {} from {} ignored: {}",
                     subscription->feed_id, request.client_address,
                     signature == HubSignature::mismatch         ? "its signature does not hold"
                     : signature == HubSignature::unknown_method ? "an unknown signature method"
                                                                 : "no signature");
        return nullptr;
      }
      if (websub_budget.take("feed " + std::to_string(subscription->feed_id),
                             steady_milliseconds())) {
        spdlog::debug("serve: a WebSub delivery for feed {} past its budget",
                      subscription->feed_id);
        return nullptr;
      }
      subscriptions.record_push(subscription->feed_id, subscription->hub);
      store::CrawlList(database).mark_urgent_by_feed(subscription->feed_id);
      return nullptr;
    });
    if (!subscription) {
      return plain_answer(410, "No such subscription.\n");
    }
    return plain_answer(202, "Accepted.\n");
  }

  // ---- writing the answer ----

  http::Response answer_page(const http::Request& request, const http::CachedPage& page,
                             std::int64_t at, int status) const {
    return page_answer(request, page, at, status, options.config.max_age_seconds);
  }

  http::Response not_found_answer(const http::Request& request, std::int64_t at) const {
    return notice_answer(request, not_found, locales, site_path, at, 404,
                         options.config.max_age_seconds);
  }

  http::Response metrics_answer(const http::Request& request, std::int64_t at) {
    if (!request.loopback_client && !options.config.metrics_from_anywhere) {
      return not_found_answer(request, at);
    }
    const model::Stats figures = stats.get(wall_clock(), [&] {
      model::Stats read;
      with_database([&](store::Database& database, render::Renderer&) -> Page {
        read = store::CrawlHistory(database).stats();
        return nullptr;
      });
      return read;
    });
    return internal::metrics_response(metrics.text(cache.pages(), cache.feed_figures(), figures));
  }

  // The crawl health report: for loopback clients (unless configured), never cached, in the
  // locale the query names or Accept-Language prefers.
  http::Response report_answer(const http::Request& request, std::int64_t at) {
    if (!request.loopback_client && !options.config.report_from_anywhere) {
      return not_found_answer(request, at);
    }
    auto asked = internal::read_report_request(request, locales);
    if (auto* refusal = std::get_if<http::Response>(&asked)) {
      return std::move(*refusal);
    }
    const auto& report = std::get<internal::ReportRequest>(asked);
    std::string html;
    with_database([&](store::Database& database, render::Renderer& renderer) -> Page {
      html = renderer.report_page(
          store::CrawlHistory(database).crawl_report(at, static_cast<int>(report.days)),
          report.locale);
      return nullptr;
    });
    return internal::report_response(std::move(html));
  }

  // The answer when it needs neither the database nor a compression; nullopt otherwise.
  // The 405 answer to a POST to anything but an endpoint that takes one; nullopt otherwise.
  static std::optional<http::Response> refused_method(const http::Request& request,
                                                      const Route& route) {
    if (request.method != "POST" || route.kind == Kind::submit || route.kind == Kind::websub ||
        (route.kind == Kind::api && internal::takes_post(*internal::endpoint_of(route.key)))) {
      return std::nullopt;
    }
    http::Response response = plain_answer(405, "Method Not Allowed\n");
    response.headers.emplace_back("Allow", "GET, HEAD");
    return response;
  }

  std::optional<http::Response> answer_at_once(const http::Request& request, const Route& route,
                                               std::int64_t at) {
    if (auto refusal = refused_method(request, route)) {
      return refusal;
    }
    switch (route.kind) {
      case Kind::metrics:
      case Kind::report:
      case Kind::submit:
      case Kind::websub:
        return std::nullopt;
      case Kind::api:
        return api_answer(request, route, at, false);
      case Kind::root:
      case Kind::redirect:
      case Kind::not_found:
        return answer(request, route, at);
      default:
        break;
    }
    const Page found = ready_page(route, at, wanted_coding(request));
    if (!found) {
      return std::nullopt;
    }
    return answer_page(request, *found, at, 200);
  }

  http::Response answer(const http::Request& request, const Route& route, std::int64_t at) {
    if (auto refusal = refused_method(request, route)) {
      return std::move(*refusal);
    }
    switch (route.kind) {
      case Kind::root:
        return root_answer(request, *root, locales, site_path, at, options.config.max_age_seconds);
      case Kind::metrics:
        return metrics_answer(request, at);
      case Kind::report:
        return report_answer(request, at);
      case Kind::websub:
        return request.method == "POST" ? websub_delivery_answer(request, route.key)
                                        : websub_verification_answer(request, route.key);
      case Kind::api:
        return *api_answer(request, route, at, true);
      case Kind::submit:
        return submit_answer(request, route, at);
      case Kind::redirect:
        return moved_answer(request, route.location);
      case Kind::not_found:
        return not_found_answer(request, at);
      default:
        break;
    }
    const Page found = page(route, at, wanted_coding(request));
    return found ? answer_page(request, *found, at, 200) : not_found_answer(request, at);
  }

  // The answer while the database cannot be reached: the page memory holds, however old, with
  // its Age (stale-if-error, RFC 5861); else the locale's 503 page with Retry-After.
  http::Response unreachable_answer(const http::Request& request, const Route& route,
                                    std::int64_t at) {
    if (route.kind == Kind::api) {
      http::Response response = json_answer(503, k_api_unavailable);
      response.headers.emplace_back("Retry-After", k_unavailable_retry_after);
      return response;
    }
    const Page stale = route.key.empty() ? nullptr : cache.pages().find_stale(route.key);
    if (stale && stale->status == 200) {
      http::Response response = answer_page(request, *stale, at, 200);
      for (auto& [name, value] : response.headers) {
        if (name == "Cache-Control") {
          value = "no-cache"; // a cache downstream asks again rather than keep it
        }
      }
      if (stale->last_modified > 0) {
        response.headers.emplace_back(
            "Age", std::to_string(std::max<std::int64_t>(0, wall_clock() - stale->last_modified)));
      }
      metrics.count_stale();
      return response;
    }
    http::Response response = notice_answer(request, unavailable, locales, site_path, at, 503,
                                            options.config.max_age_seconds);
    response.headers.emplace_back("Retry-After", k_unavailable_retry_after);
    return response;
  }

  // Counts and logs an answer, its latency from when the request came in whole.
  void observe(const http::Request& request, const Route& route, const http::Response& response) {
    const auto latency = std::chrono::steady_clock::now() - request.received;
    metrics.observe(to_string(route.kind), response.status, latency);
    if (route.kind == Kind::api) {
      const auto endpoint = *internal::endpoint_of(route.key);
      const bool keyed = !answered_without_key(endpoint) && response.status != 401;
      metrics.observe_api(internal::to_string(endpoint),
                          keyed ? request.header("X-Auth-Key") : std::string(), response.status);
    }
    if (options.config.access_log) {
      spdlog::info("{} \"{} {}\" {} {:.3f} ms", request.client_address, request.method,
                   request.path, response.status,
                   std::chrono::duration<double, std::milli>(latency).count());
    }
  }
};

LiveDirectory::LiveDirectory(LiveOptions options)
    : m_impl(std::make_unique<Impl>(std::move(options))) {}

LiveDirectory::~LiveDirectory() = default;

std::optional<http::Response> LiveDirectory::answer_from_memory(const http::Request& request) {
  const Route route =
      request_route(request.path, request.query, m_impl->locales, m_impl->site_path);
  auto response = m_impl->answer_at_once(request, route, m_impl->now());
  if (response) {
    m_impl->observe(request, route, *response);
  }
  return response;
}

http::Response LiveDirectory::answer_by_loading(const http::Request& request) {
  const Route route =
      request_route(request.path, request.query, m_impl->locales, m_impl->site_path);
  http::Response response;
  try {
    response = m_impl->answer(request, route, m_impl->now());
  } catch (const DatabaseResting&) {
    response = m_impl->unreachable_answer(request, route, m_impl->now());
  } catch (const store::ConnectionLost& error) {
    spdlog::warn("serve: {} {}: {}", request.method, request.path, error.what());
    response = m_impl->unreachable_answer(request, route, m_impl->now());
  } catch (const std::exception& error) {
    // The database answered, but not this request (a search past its statement timeout).
    spdlog::warn("serve: {} {}: {}", request.method, request.path, error.what());
    response =
        route.kind == Kind::api
            ? Impl::json_answer(503, k_api_unavailable)
            : plain_answer(503, "The directory could not answer this request; try again soon.\n");
    response.headers.emplace_back("Retry-After", k_unavailable_retry_after);
  }
  m_impl->observe(request, route, response);
  return response;
}

} // namespace podcrawl::serve

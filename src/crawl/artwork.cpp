#include "podcrawl/crawl/artwork.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <unordered_map>
#include <vector>

#include <spdlog/spdlog.h>

#include "podcrawl/art/helper.hpp"
#include "podcrawl/core/bounded_queue.hpp"
#include "podcrawl/core/error.hpp"
#include "podcrawl/core/files.hpp"
#include "podcrawl/core/hash.hpp"
#include "podcrawl/core/time.hpp"
#include "podcrawl/fetch/pool.hpp"
#include "podcrawl/net/url.hpp"
#include "podcrawl/store/cover_art.hpp"
#include "podcrawl/store/database.hpp"

namespace podcrawl::crawl {
namespace {

// How long a claim holds before another crawler may take the row.
constexpr std::int64_t k_claim_lease_seconds = 600;
constexpr int k_poll_ms = 100;
// Helpers at once: one a core, this many at most; and image files waiting for each.
constexpr std::size_t k_max_lanes = 8;
constexpr std::size_t k_lane_queue = 2;

// Write a rendition's file; one already there with the same size is left alone (its name is
// its content's hash).
void write_rendition(const std::filesystem::path& path, std::string_view bytes) {
  std::error_code error;
  if (std::filesystem::file_size(path, error) == bytes.size() && !error) {
    return;
  }
  core::write_file_atomically(path, bytes);
}

// A fetched image file on its way to a lane.
struct ArtJob {
  store::ArtworkRecord record;
  fetch::FetchResult result;
  std::string content_hash;
};

class ArtRun {
public:
  ArtRun(const std::string& database_url, const core::Config& config, const ArtOptions& options)
      : m_database_url(database_url),
        m_config(config),
        m_options(options),
        m_database(database_url),
        m_folder(core::art_dir(config)) {}

  ArtSummary execute() {
    std::error_code error;
    std::filesystem::create_directories(m_folder, error);
    if (error) {
      throw core::EnvironmentError("cannot create the art folder " + m_folder.string() + ": " +
                                   error.message());
    }
    store::CoverArt(m_database).enlist_artwork();
    start_lanes();
    try {
      fetch_all();
    } catch (...) {
      remember(std::current_exception());
    }
    for (auto& lane : m_lanes) {
      lane->queue.close();
    }
    for (auto& lane : m_lanes) {
      lane->thread.join();
    }
    if (m_error) {
      release_open(m_error);
      std::rethrow_exception(m_error);
    }
    return m_summary;
  }

private:
  // One podcrawl-art helper, its database connection and the thread that feeds it. Image files
  // go to lane (content hash mod lanes), so that the same bytes under two URLs meet in one lane
  // one after the other, and the second finds the first's renditions.
  struct Lane {
    Lane(const std::string& database_url, const std::filesystem::path& program,
         art::ImageLimits limits)
        : database(database_url), helper(program, limits) {}
    store::Database database;
    art::ArtHelper helper;
    core::BoundedQueue<ArtJob> queue{k_lane_queue};
    std::thread thread;
  };

  void start_lanes() {
    const std::filesystem::path program =
        m_config.art.helper.empty() ? art::default_helper_program() : m_config.art.helper;
    const auto lanes = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, k_max_lanes);
    for (std::size_t i = 0; i < lanes; ++i) {
      m_lanes.push_back(std::make_unique<Lane>(m_database_url, program, limits(m_config)));
    }
    for (auto& lane : m_lanes) {
      lane->thread = std::thread([this, &lane = *lane] {
        while (std::optional<ArtJob> job = lane.queue.pop()) {
          if (m_failed) {
            continue; // drain
          }
          try {
            make(lane, std::move(*job));
          } catch (...) {
            remember(std::current_exception());
          }
        }
      });
    }
  }

  void fetch_all() {
    core::FetchConfig fetch_config = m_config.fetch;
    fetch_config.max_body_bytes = m_config.art.max_bytes;
    const auto concurrency = static_cast<std::size_t>(std::max(1, m_options.concurrency));
    fetch::TransferPool pool(fetch_config, static_cast<int>(concurrency), m_config.crawl.per_host);
    bool more = true;
    bool interrupted = false;
    while (!m_failed) {
      if (!interrupted && m_options.keep_claiming && !m_options.keep_claiming()) {
        // The images not asked yet are handed back, due at once; those in flight end.
        interrupted = true;
        pool.stop_starting("not asked: the crawler had feeds to fetch, or stopped");
      }
      // Claim only what the pool has room for: a claimed row waits for nobody. Images waiting
      // for a full lane count against the room, which bounds the bodies held in memory.
      const std::size_t busy = pool.pending() + m_staged.size();
      if (more && busy < concurrency && !interrupted && !past_deadline()) {
        const std::size_t wanted = concurrency - busy;
        const auto claimed = store::CoverArt(m_database)
                                 .claim_due_artwork(wanted, core::now(), k_claim_lease_seconds);
        more = claimed.size() == wanted;
        for (const store::ArtworkRecord& record : claimed) {
          if (!m_claimed.emplace(record.id, record).second) {
            continue; // still in flight from a claim whose lease ran out
          }
          count(&ArtSummary::claimed);
          open(record.id);
          pool.add(static_cast<std::uint64_t>(record.id),
                   {record.url, record.etag, record.last_modified});
        }
      }
      if (pool.pending() == 0 && m_staged.empty()) {
        return;
      }
      if (pool.pending() > 0) {
        pool.perform(
            [this](std::uint64_t tag, fetch::FetchResult result) {
              const auto found = m_claimed.find(static_cast<std::int64_t>(tag));
              if (found != m_claimed.end()) {
                take(found->second, std::move(result));
                m_claimed.erase(found);
              }
            },
            k_poll_ms);
      }
      // Hand fetched images to their lanes without stopping the transfers in flight; wait for
      // a lane only when nothing else is left to do.
      hand_over(/*wait=*/pool.pending() == 0);
    }
  }

  void hand_over(bool wait) {
    std::erase_if(m_staged, [this, wait](ArtJob& job) {
      Lane& lane =
          *m_lanes[static_cast<std::size_t>(core::fnv1a_64(job.content_hash) % m_lanes.size())];
      if (wait) {
        lane.queue.push(std::move(job));
        return true;
      }
      return lane.queue.try_push(job);
    });
  }

  static art::ImageLimits limits(const core::Config& config) {
    art::ImageLimits limits;
    limits.max_bytes = static_cast<std::size_t>(config.art.max_bytes);
    limits.max_pixels = config.art.max_pixels;
    return limits;
  }

  bool past_deadline() const {
    return m_options.deadline && std::chrono::steady_clock::now() >= *m_options.deadline;
  }

  void count(std::int64_t ArtSummary::*field) {
    std::lock_guard lock(m_mutex);
    ++(m_summary.*field);
  }

  void remember(std::exception_ptr error) {
    std::lock_guard lock(m_mutex);
    m_error = m_error ? m_error : error;
    m_failed = true;
  }

  // A claimed image is open until its outcome is recorded.
  void open(std::int64_t id) {
    std::lock_guard lock(m_mutex);
    m_open.insert(id);
  }
  void close(std::int64_t id) {
    std::lock_guard lock(m_mutex);
    m_open.erase(id);
  }

  // After a failure of the run: every image still open is handed back, due at once, with the
  // failure as its error, so that none waits out its lease unexplained.
  void release_open(const std::exception_ptr& error) {
    if (m_open.empty()) {
      return;
    }
    std::string reason = "the cover art pass stopped";
    try {
      std::rethrow_exception(error);
    } catch (const std::exception& failure) {
      reason += ": " + std::string(failure.what());
    } catch (...) {
    }
    const std::vector<std::int64_t> ids(m_open.begin(), m_open.end());
    try {
      store::Database database(m_database_url);
      store::CoverArt(database).release_artwork(ids, reason, core::now());
    } catch (const core::EnvironmentError& failure) {
      spdlog::warn("{} claimed images wait for their lease to end: {}", ids.size(), failure.what());
    }
  }

  // On the fetching thread: a 304 or a failure is recorded here, an image file is staged for its
  // lane.
  void take(const store::ArtworkRecord& record, fetch::FetchResult result) {
    const std::int64_t now = core::now();
    if (result.outcome == fetch::FetchOutcome::not_modified) {
      count(&ArtSummary::not_modified);
      store::CoverArt(m_database)
          .record_artwork(record.id, unchanged(record, result), now,
                          now + m_config.art.refresh_seconds);
      close(record.id);
      return;
    }
    if (result.outcome == fetch::FetchOutcome::deferred) {
      // Not asked: no failure of the image's.
      count(&ArtSummary::deferred);
      store::CoverArt(m_database)
          .release_artwork({record.id}, result.error,
                           now + std::max<std::int64_t>(0, result.retry_after_seconds.value_or(0)));
      close(record.id);
      return;
    }
    if (result.outcome != fetch::FetchOutcome::ok) {
      count(&ArtSummary::failed);
      spdlog::debug("cover art {}: {}", net::redact(record.url), result.error);
      store::CoverArt(m_database)
          .record_artwork_failure(record.id, result.error, false, now,
                                  now + m_config.art.retry_seconds);
      close(record.id);
      return;
    }
    count(&ArtSummary::downloaded);
    std::string hash = core::sha1_hex(result.body);
    m_staged.push_back({record, std::move(result), std::move(hash)});
  }

  // On a lane's thread: an image file made into renditions, or matched to ones already made.
  void make(Lane& lane, ArtJob job) {
    const std::int64_t now = core::now();
    store::ArtworkUpdate update;
    update.etag = job.result.etag;
    update.last_modified = job.result.last_modified;
    update.content_hash = job.content_hash;
    if (take_known(lane.database, update)) {
      // The same bytes as last time, or as another URL's: the files made then serve.
      count(update.content_hash == job.record.content_hash ? &ArtSummary::not_modified
                                                           : &ArtSummary::reused);
      store::CoverArt(lane.database)
          .record_artwork(job.record.id, update, now, now + m_config.art.refresh_seconds);
      close(job.record.id);
      return;
    }
    const art::PreparedArt prepared = lane.helper.prepare(job.result.body);
    if (prepared.refusal != art::Refusal::none || prepared.renditions.empty()) {
      count(&ArtSummary::refused);
      const std::string error = prepared.error.empty() ? "no rendition" : prepared.error;
      spdlog::debug("cover art {}: {}", net::redact(job.record.url), error);
      store::CoverArt(lane.database)
          .record_artwork_failure(job.record.id, error, true, now,
                                  now + m_config.art.retry_seconds);
      close(job.record.id);
      return;
    }
    for (const art::Rendition& rendition : prepared.renditions) {
      write_rendition(m_folder / model::art_file_name(update.content_hash, rendition.width),
                      rendition.webp);
      update.renditions.push_back(
          {rendition.width, rendition.height, static_cast<std::int64_t>(rendition.webp.size())});
    }
    update.width = prepared.width;
    update.height = prepared.height;
    count(&ArtSummary::made);
    store::CoverArt(lane.database)
        .record_artwork(job.record.id, update, now, now + m_config.art.refresh_seconds);
    close(job.record.id);
  }

  // A 304: the validators the answer brought, else the ones sent, and the image as it was.
  store::ArtworkUpdate unchanged(const store::ArtworkRecord& record,
                                 const fetch::FetchResult& result) {
    store::ArtworkUpdate update;
    update.etag = result.etag.empty() ? record.etag : result.etag;
    update.last_modified =
        result.last_modified.empty() ? record.last_modified : result.last_modified;
    update.content_hash = record.content_hash;
    update.downloaded = false;
    take_known(m_database, update);
    return update;
  }

  // Fill `update` with the size and renditions already made of its content hash; false when
  // none were.
  static bool take_known(store::Database& database, store::ArtworkUpdate& update) {
    auto known = store::CoverArt(database).artwork_with_hash(update.content_hash);
    if (!known) {
      return false;
    }
    update.width = known->width;
    update.height = known->height;
    update.renditions = std::move(known->renditions);
    return true;
  }

  const std::string& m_database_url;
  const core::Config& m_config;
  const ArtOptions& m_options;
  store::Database m_database; // the fetching thread's
  std::filesystem::path m_folder;
  std::vector<std::unique_ptr<Lane>> m_lanes;
  std::unordered_map<std::int64_t, store::ArtworkRecord> m_claimed;
  std::vector<ArtJob> m_staged;  // fetched, waiting for room in their lane
  std::mutex m_mutex;            // guards the members below
  std::set<std::int64_t> m_open; // claimed, outcome not recorded yet
  ArtSummary m_summary;
  std::exception_ptr m_error;
  std::atomic<bool> m_failed{false};
};

} // namespace

ArtSummary refresh_artwork(const std::string& database_url, const core::Config& config,
                           const ArtOptions& options) {
  ArtRun run(database_url, config, options);
  return run.execute();
}

} // namespace podcrawl::crawl

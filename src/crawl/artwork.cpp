#include "podcrawl/crawl/artwork.hpp"

#include <unistd.h>

#include <fstream>
#include <unordered_map>

#include <spdlog/spdlog.h>

#include "podcrawl/art/helper.hpp"
#include "podcrawl/core/error.hpp"
#include "podcrawl/core/hash.hpp"
#include "podcrawl/core/time.hpp"
#include "podcrawl/fetch/pool.hpp"
#include "podcrawl/net/url.hpp"
#include "podcrawl/store/database.hpp"

namespace podcrawl::crawl {
namespace {

// Rows claimed at a time, and how long a claim holds before another crawler may take the row.
constexpr std::size_t k_claim_batch = 64;
constexpr std::int64_t k_claim_lease_seconds = 600;
constexpr int k_poll_ms = 100;

std::string sha1_hex(std::string_view bytes) {
  constexpr std::string_view k_hex = "0123456789abcdef";
  std::string hex;
  for (std::uint8_t byte : core::sha1(bytes)) {
    hex += k_hex[byte >> 4];
    hex += k_hex[byte & 0xf];
  }
  return hex;
}

// Write `bytes` to `path` through a temporary file beside it, so that a reader never sees half
// a file; a file already there with the same size is left alone (the name is its content's).
void write_file(const std::filesystem::path& path, std::string_view bytes) {
  std::error_code error;
  if (std::filesystem::file_size(path, error) == bytes.size() && !error) {
    return;
  }
  const std::filesystem::path temporary =
      path.string() + ".tmp-" + std::to_string(static_cast<long>(getpid()));
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out.flush()) {
      throw core::EnvironmentError("cannot write " + temporary.string());
    }
  }
  std::filesystem::rename(temporary, path, error);
  if (error) {
    std::filesystem::remove(temporary, error);
    throw core::EnvironmentError("cannot write " + path.string());
  }
}

class ArtRun {
public:
  ArtRun(const std::string& database_url, const core::Config& config, const ArtOptions& options)
      : m_config(config),
        m_options(options),
        m_database(database_url),
        m_folder(art_folder(config)),
        m_helper(config.art.helper.empty() ? art::default_helper_program() : config.art.helper,
                 limits(config)) {}

  ArtSummary execute() {
    std::error_code error;
    std::filesystem::create_directories(m_folder, error);
    if (error) {
      throw core::EnvironmentError("cannot create the art folder " + m_folder.string() + ": " +
                                   error.message());
    }
    m_database.enlist_artwork();
    core::FetchConfig fetch_config = m_config.fetch;
    fetch_config.max_body_bytes = m_config.art.max_bytes;
    fetch::TransferPool pool(fetch_config, std::max(1, m_options.concurrency),
                             m_config.crawl.per_host);
    bool more = true;
    while (true) {
      while (more && pool.pending() < static_cast<std::size_t>(m_options.concurrency) &&
             !past_deadline()) {
        const auto claimed =
            m_database.claim_due_artwork(k_claim_batch, core::now(), k_claim_lease_seconds);
        more = claimed.size() == k_claim_batch;
        for (const store::ArtworkRecord& record : claimed) {
          ++m_summary.claimed;
          m_claimed.emplace(record.id, record);
          pool.add(static_cast<std::uint64_t>(record.id),
                   {record.url, record.etag, record.last_modified});
        }
        if (claimed.empty()) {
          more = false;
        }
      }
      if (pool.pending() == 0) {
        break;
      }
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
    return m_summary;
  }

private:
  static art::ImageLimits limits(const core::Config& config) {
    art::ImageLimits limits;
    limits.max_bytes = static_cast<std::size_t>(config.art.max_bytes);
    limits.max_pixels = config.art.max_pixels;
    return limits;
  }

  bool past_deadline() const {
    return m_options.deadline && std::chrono::steady_clock::now() >= *m_options.deadline;
  }

  void take(const store::ArtworkRecord& record, fetch::FetchResult result) {
    const std::int64_t now = core::now();
    const std::int64_t refresh = now + m_config.art.refresh_seconds;
    const std::int64_t retry = now + m_config.art.retry_seconds;
    if (result.outcome == fetch::FetchOutcome::not_modified) {
      ++m_summary.not_modified;
      m_database.record_artwork(record.id, unchanged(record, result), now, refresh);
      return;
    }
    if (result.outcome != fetch::FetchOutcome::ok) {
      ++m_summary.failed;
      spdlog::debug("cover art {}: {}", net::redact(record.url), result.error);
      m_database.record_artwork_failure(record.id, result.error, false, now, retry);
      return;
    }
    ++m_summary.downloaded;
    store::ArtworkUpdate update;
    update.etag = result.etag;
    update.last_modified = result.last_modified;
    update.content_hash = sha1_hex(result.body);
    if (auto known = m_database.artwork_with_hash(update.content_hash)) {
      // The same bytes as last time, or as another URL's: the files made then serve.
      ++(update.content_hash == record.content_hash ? m_summary.not_modified : m_summary.reused);
      update.width = known->width;
      update.height = known->height;
      update.renditions = std::move(known->renditions);
      m_database.record_artwork(record.id, update, now, refresh);
      return;
    }
    const art::PreparedArt prepared = m_helper.prepare(result.body);
    if (prepared.refusal != art::Refusal::none || prepared.renditions.empty()) {
      ++m_summary.refused;
      const std::string error = prepared.error.empty() ? "no rendition" : prepared.error;
      spdlog::debug("cover art {}: {}", net::redact(record.url), error);
      m_database.record_artwork_failure(record.id, error, true, now, retry);
      return;
    }
    for (const art::Rendition& rendition : prepared.renditions) {
      write_file(m_folder / store::art_file_name(update.content_hash, rendition.width),
                 rendition.webp);
      update.renditions.push_back(
          {rendition.width, rendition.height, static_cast<std::int64_t>(rendition.webp.size())});
    }
    update.width = prepared.width;
    update.height = prepared.height;
    ++m_summary.made;
    m_database.record_artwork(record.id, update, now, refresh);
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
    if (auto known = m_database.artwork_with_hash(record.content_hash)) {
      update.width = known->width;
      update.height = known->height;
      update.renditions = std::move(known->renditions);
    }
    return update;
  }

  const core::Config& m_config;
  const ArtOptions& m_options;
  store::Database m_database;
  std::filesystem::path m_folder;
  art::ArtHelper m_helper;
  std::unordered_map<std::int64_t, store::ArtworkRecord> m_claimed;
  ArtSummary m_summary;
};

} // namespace

std::filesystem::path art_folder(const core::Config& config) {
  return config.art.dir.is_absolute() ? config.art.dir : config.source_dir / config.art.dir;
}

ArtSummary refresh_artwork(const std::string& database_url, const core::Config& config,
                           const ArtOptions& options) {
  ArtRun run(database_url, config, options);
  return run.execute();
}

} // namespace podcrawl::crawl

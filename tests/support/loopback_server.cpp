#include "support/loopback_server.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include <brotli/encode.h>
#include <httplib.h>
#include <zstd.h>

namespace podcrawl::testing {

LoopbackServer::LoopbackServer(std::string address, int threads)
    : m_server(std::make_unique<httplib::Server>()), m_address(std::move(address)) {
  if (threads > 0) {
    m_server->new_task_queue = [threads] {
      return new httplib::ThreadPool(static_cast<std::size_t>(threads));
    };
  }
  // Recorded before routing, so a request is visible to the test before its response is sent.
  m_server->set_pre_routing_handler([this](const httplib::Request& request, httplib::Response&) {
    SeenRequest seen;
    seen.path = request.path;
    for (const auto& [name, value] : request.headers) {
      std::string lower = name;
      std::transform(lower.begin(), lower.end(), lower.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      seen.headers[lower] = value;
    }
    std::lock_guard lock(m_mutex);
    m_requests.push_back(std::move(seen));
    return httplib::Server::HandlerResponse::Unhandled;
  });
  m_port = m_server->bind_to_any_port(m_address);
  if (m_port <= 0) {
    throw std::runtime_error("loopback server: cannot bind " + m_address);
  }
  // The socket listens from bind on, so clients connect (queued) before the thread accepts.
  m_thread = std::thread([this] { m_server->listen_after_bind(); });
}

LoopbackServer::~LoopbackServer() {
  // stop() only acts on a running server: wait for the accept loop to have started.
  while (!m_server->is_running()) {
    std::this_thread::yield();
  }
  m_server->stop();
  if (m_thread.joinable()) {
    m_thread.join();
  }
}

void LoopbackServer::on_get(const std::string& path, Handler handler) {
  m_server->Get(path, std::move(handler));
}

void LoopbackServer::serve_feed(const std::string& path, std::string body, std::string content_type,
                                std::string etag) {
  static const std::string k_last_modified = "Tue, 01 Dec 2026 10:00:00 GMT";
  on_get(
      path, [body = std::move(body), content_type = std::move(content_type),
             etag = std::move(etag)](const httplib::Request& request, httplib::Response& response) {
        response.set_header("ETag", etag);
        response.set_header("Last-Modified", k_last_modified);
        const bool etag_matches = request.get_header_value("If-None-Match") == etag;
        const bool date_matches = request.get_header_value("If-Modified-Since") == k_last_modified;
        if (etag_matches || (!request.has_header("If-None-Match") && date_matches)) {
          response.status = 304;
          return;
        }
        response.set_content(body, content_type);
      });
}

std::string LoopbackServer::url(const std::string& path) const {
  return "http://" + m_address + ":" + std::to_string(m_port) + path;
}

std::vector<SeenRequest> LoopbackServer::requests() const {
  std::lock_guard lock(m_mutex);
  return m_requests;
}

int LoopbackServer::count(const std::string& path) const {
  std::lock_guard lock(m_mutex);
  return static_cast<int>(std::count_if(m_requests.begin(), m_requests.end(),
                                        [&](const SeenRequest& r) { return r.path == path; }));
}

std::string gzip(const std::string& body) {
  std::string compressed;
  httplib::detail::gzip_compressor compressor;
  compressor.compress(body.data(), body.size(), true,
                      [&compressed](const char* data, std::size_t size) {
                        compressed.append(data, size);
                        return true;
                      });
  return compressed;
}

std::string brotli(const std::string& body) {
  std::string compressed(BrotliEncoderMaxCompressedSize(body.size()), '\0');
  std::size_t size = compressed.size();
  if (BrotliEncoderCompress(BROTLI_DEFAULT_QUALITY, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_TEXT,
                            body.size(), reinterpret_cast<const std::uint8_t*>(body.data()), &size,
                            reinterpret_cast<std::uint8_t*>(compressed.data())) != BROTLI_TRUE) {
    throw std::runtime_error("brotli: cannot compress");
  }
  compressed.resize(size);
  return compressed;
}

std::string zstd(const std::string& body) {
  std::string compressed(ZSTD_compressBound(body.size()), '\0');
  const std::size_t size =
      ZSTD_compress(compressed.data(), compressed.size(), body.data(), body.size(), 3);
  if (ZSTD_isError(size) != 0) {
    throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(size));
  }
  compressed.resize(size);
  return compressed;
}

} // namespace podcrawl::testing

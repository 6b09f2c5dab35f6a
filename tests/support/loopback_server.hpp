#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace httplib {
class Server;
struct Request;
struct Response;
} // namespace httplib

namespace podcrawl::testing {

// A request as the server saw it, for assertions on headers (If-None-Match, User-Agent...).
struct SeenRequest {
  std::string path;
  std::map<std::string, std::string> headers; // names lower case
};

// A real HTTP server on a loopback address (127.0.0.1 unless another of 127.0.0.0/8 is given)
// and an ephemeral port, running on its own thread until the destructor. Handlers are registered
// before or after start; the constructor returns only once the server accepts connections (no
// sleeps).
class LoopbackServer {
public:
  using Handler = std::function<void(const httplib::Request&, httplib::Response&)>;

  // `threads`: requests answered at once (more wait for a thread); 0 keeps cpp-httplib's default.
  explicit LoopbackServer(std::string address = "127.0.0.1", int threads = 0);
  ~LoopbackServer();
  LoopbackServer(const LoopbackServer&) = delete;
  LoopbackServer& operator=(const LoopbackServer&) = delete;

  // Answer GET path with a handler.
  void on_get(const std::string& path, Handler handler);
  // Answer GET path with a fixed body, an ETag and Last-Modified; conditional requests that
  // match get 304.
  void serve_feed(const std::string& path, std::string body, std::string content_type,
                  std::string etag);

  int port() const { return m_port; }
  // "http://<address>:<port><path>"
  std::string url(const std::string& path) const;
  // Every request received so far, in order.
  std::vector<SeenRequest> requests() const;
  int count(const std::string& path) const;

private:
  std::unique_ptr<httplib::Server> m_server;
  std::string m_address;
  std::thread m_thread;
  int m_port = 0;
  mutable std::mutex m_mutex;
  std::vector<SeenRequest> m_requests;
};

// The body compressed as a gzip stream (for Content-Encoding: gzip responses).
std::string gzip(const std::string& body);
// The body compressed as a brotli stream (Content-Encoding: br).
std::string brotli(const std::string& body);
// The body compressed as one zstd frame (Content-Encoding: zstd).
std::string zstd(const std::string& body);

} // namespace podcrawl::testing

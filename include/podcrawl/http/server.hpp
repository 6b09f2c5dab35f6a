#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace podcrawl::http {

// The limits of one server. Each is a bound on what clients can make it hold.
struct ServerOptions {
  std::string bind = "127.0.0.1"; // numeric IPv4 or IPv6 address to listen on
  int port = 8080;                // 0: the kernel picks a free port (see Server::port)
  int threads = 4;                // event loops
  // Threads that run the handler for the requests the quick handler leaves, oldest first; 0: the
  // handler runs on the event loop of the request's connection.
  int workers = 0;
  int max_connections = 1024;           // open connections at once; more are closed at accept
  int connection_timeout_seconds = 30;  // an idle or stalled connection is closed after this
  std::size_t max_header_bytes = 16384; // request line and header fields; more is a 431
  int drain_timeout_seconds = 10;       // how long wait() lets requests in flight finish
  // The largest POST body read, in bytes; 0: POST is refused (405) like any method but GET and
  // HEAD. A body declared larger is answered 413; one that grows past it as it comes (chunked)
  // has its connection closed.
  std::size_t max_body_bytes = 0;
};

struct Request {
  std::string method; // "GET", "HEAD", and "POST" when the server reads bodies
  // The path exactly as the client sent it, before the '?': still percent-encoded, never
  // decoded or normalized ("/a%20b/../c" stays so). Always starts with '/': an absolute-form
  // target ("http://host/p") is reduced to its path.
  std::string path;
  std::string query; // the raw query string without the '?', as sent; "" when none
  std::vector<std::pair<std::string, std::string>> headers; // in order received, names as sent
  std::string body;           // a POST's body, at most ServerOptions::max_body_bytes
  std::string client_address; // numeric address of the peer, "" when unknown
  // The peer is 127.0.0.0/8 or ::1 and the request names no client a proxy forwarded it for
  // (Forwarded, X-Forwarded-For, X-Real-IP).
  bool loopback_client = false;
  // When the request had come in whole: its wait for a worker counts in its latency.
  std::chrono::steady_clock::time_point received;

  // Return the value of the header field `name` (compared case-insensitively); when the field
  // occurs more than once, its values joined with ", " (RFC 9110 section 5.3). "" when absent.
  std::string header(std::string_view name) const;
};

struct Response {
  int status = 200;
  // Sent as given, except Content-Length, Date and Connection, which the server writes itself.
  std::vector<std::pair<std::string, std::string>> headers;
  // The body, handed to libmicrohttpd without a copy: it may be shared with a cache and is kept
  // alive until the last byte is sent. Null for an empty body.
  std::shared_ptr<const std::string> body;
};

// Called on a server thread for each well-formed GET or HEAD request (and POST, with its whole
// body, when the server reads bodies), possibly on several
// threads at once. Without workers, a slow handler delays the other connections of its event
// loop. It answers HEAD as it would GET: the server sends the headers and Content-Length of
// that body and no body. An exception from it becomes a bare 500.
using Handler = std::function<Response(const Request&)>;
// Called on the event loop first when the server has workers: the answer when it is ready at
// once (a page in memory), else nullopt, and the request waits, its connection suspended, for
// a worker to run the handler. It must not block. An exception from it becomes a bare 500.
using QuickHandler = std::function<std::optional<Response>(const Request&)>;

// An HTTP/1.1 server (libmicrohttpd, poll, a pool of `threads` event loops) that knows nothing
// of what it serves. Before the handler sees a request the server answers itself:
//   - 400 for a malformed request line, header field or method token, or an HTTP/1.1 request
//     without Host (libmicrohttpd closes the connection without an answer when the request
//     line has no space at all);
//   - 414 for a request target that alone fills max_header_bytes, 431 for a request line and
//     header fields over max_header_bytes (our check up to about max_header_bytes + 16 KiB,
//     libmicrohttpd's own 431 beyond, when the connection's memory pool is full); either way
//     the connection is closed after the answer;
//   - 405 with "Allow: GET, HEAD" for any other method, without reading a request body (POST
//     too, unless max_body_bytes is set: then "Allow: GET, HEAD, POST" for the others, and 413
//     for a POST whose Content-Length is over the bound);
//   - 505 for an HTTP version other than 1.0 and 1.1.
class Server {
public:
  // Listen on options.bind:options.port and start serving at once. Throws core::EnvironmentError
  // naming the address and port when the socket cannot be bound or libmicrohttpd cannot start,
  // core::UsageError when options.bind is not a numeric address or a limit is not positive.
  // `quick` needs options.workers of at least 1, and workers need `quick`.
  Server(ServerOptions options, Handler handler, QuickHandler quick = {});
  // Stop (as stop() and wait() do) and release every connection.
  ~Server();

  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Return the port bound: options.port, or the one the kernel picked for port 0.
  int port() const;

  // Return the number of connections open now, idle keep-alive ones included.
  std::size_t open_connections() const;

  // Stop accepting connections: new ones are refused at once, and every answer from now on
  // closes its connection. Requests in flight go on. Returns at once; idempotent; thread-safe.
  void stop();

  // Block until stop() has been called (by any thread) and every request in flight has been
  // answered, or drain_timeout_seconds have passed since stop(); then close every connection.
  // Returns true when nothing was cut short. The timeout bounds answers still being sent (slow
  // readers), not handlers: one still running is waited for, as libmicrohttpd joins its threads,
  // and so are the requests waiting for a worker.
  // Call from one thread at a time.
  bool wait();

private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

// Block until the process receives SIGTERM or SIGINT, then stop the server, let the requests in
// flight finish (wait(), bounded by drain_timeout_seconds) and return normally, so that the
// command can exit 0. The signals' previous dispositions come back as soon as the first one
// arrives, so a second signal during the drain ends the process as it would have. Throws
// core::EnvironmentError when the handlers cannot be installed. One call at a time per process.
void serve_until_signal(Server& server);

} // namespace podcrawl::http

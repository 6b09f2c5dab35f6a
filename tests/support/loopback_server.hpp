#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

struct MHD_Daemon;

namespace podcrawl::testing {

// A request as the loopback server received it, for handlers and for assertions on headers
// (If-None-Match, User-Agent...).
struct Request {
  std::string method;
  std::string path;                           // decoded, without the query
  std::map<std::string, std::string> query;   // decoded parameters; the last of a repeated name
  std::map<std::string, std::string> headers; // names lower case; the last of a repeated name
  std::string body; // a POST's body as sent (its first MiB); "" in the recorded requests
  // The route's pattern matched against the path: [0] the whole path, then each group. Empty in
  // the requests recorded before routing (LoopbackServer::requests).
  std::vector<std::string> matches;

  // The header's value, whatever the case of `name`; "" when it was not sent.
  std::string header(const std::string& name) const;
  bool has_header(const std::string& name) const;
};

// The next bytes of a streamed body, given how many it has produced so far: more bytes, an empty
// string when the body is complete, or nullopt to cut the connection there. Called on the
// connection's own thread as the client reads, so it may wait (a slow host) but must return
// once the test ends.
using BodySource = std::function<std::optional<std::string>(std::uint64_t produced)>;

// What a handler answers: 200 with an empty body unless it says otherwise.
struct Response {
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers; // sent in this order
  std::string body;
  // When set, the body comes from here instead of `body`, with `length` as its Content-Length
  // (a source may stop short of it, or cut, as a lying host does) or chunked without one.
  BodySource source;
  std::optional<std::uint64_t> length;

  // Set a header, replacing one of the same name in any case.
  void set_header(const std::string& name, std::string value);
  void set_content(std::string content, const std::string& content_type);
  // A redirect to `location` (absolute, or a path on this server) with a 3xx `status`.
  void set_redirect(std::string location, int redirect_status);
  // A body produced while it is sent: see BodySource. Without `length` it goes chunked.
  void set_stream(const std::string& content_type, std::optional<std::uint64_t> content_length,
                  BodySource body_source);
};

// A real HTTP/1.1 server (libmicrohttpd, one thread per connection) on a loopback address
// (127.0.0.1 unless another of 127.0.0.0/8 is given) and an ephemeral port, until the
// destructor. The constructor returns once the port listens, so clients may connect at once (no
// sleeps). GET and HEAD are routed to the on_get handlers, POST to the on_post ones; a path no
// route matches gets 404, another method 405. Connections stay open between requests as the client
// wishes.
class LoopbackServer {
public:
  using Handler = std::function<void(const Request&, Response&)>;

  // `threads`: connections answered at once (more wait to be accepted); 0 for a thousand. Throws
  // std::runtime_error when it cannot listen.
  explicit LoopbackServer(std::string address = "127.0.0.1", int threads = 0);
  // Waits for every handler and body source still running, then closes every connection.
  ~LoopbackServer();
  LoopbackServer(const LoopbackServer&) = delete;
  LoopbackServer& operator=(const LoopbackServer&) = delete;

  // Answer GET (and HEAD) of the paths the ECMAScript regular expression `pattern` matches whole
  // with a handler, run on the connection's thread. The first route registered that matches
  // answers; routes may be added while the server runs.
  void on_get(const std::string& pattern, Handler handler);
  // Answer POST of the paths `pattern` matches whole, as on_get answers GET; the handler sees the
  // request's body.
  void on_post(const std::string& pattern, Handler handler);
  // Answer GET path with a fixed body, an ETag and Last-Modified; conditional requests that
  // match get 304.
  void serve_feed(const std::string& path, std::string body, std::string content_type,
                  std::string etag);

  int port() const { return m_port; }
  // "http://<address>:<port><path>"
  std::string url(const std::string& path) const;
  // Every request received so far, in order; each is recorded once its head has arrived,
  // before its handler runs.
  std::vector<Request> requests() const;
  int count(const std::string& path) const;

private:
  struct Route;
  struct Callbacks; // libmicrohttpd's entry points
  struct StopDaemon {
    void operator()(MHD_Daemon* daemon) const;
  };

  void record(Request request);
  // The handler of the first route whose pattern matches `request.path`, with its matches
  // filled in; nullptr when none does.
  std::shared_ptr<const Route> route(Request& request) const;
  Response answer(Request request) const;

  std::string m_address;
  int m_port = 0;
  mutable std::mutex m_mutex;
  std::vector<std::shared_ptr<const Route>> m_routes;
  std::vector<Request> m_requests;
  std::unique_ptr<MHD_Daemon, StopDaemon> m_daemon; // last: stopped before what its threads use
};

// The body compressed as a gzip stream (for Content-Encoding: gzip responses).
std::string gzip(const std::string& body);
// The body compressed as a brotli stream (Content-Encoding: br).
std::string brotli(const std::string& body);
// The body compressed as one zstd frame (Content-Encoding: zstd).
std::string zstd(const std::string& body);

} // namespace podcrawl::testing

#include "support/loopback_server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <exception>
#include <regex>
#include <stdexcept>

#include <brotli/encode.h>
#include <microhttpd.h>
#include <zlib.h>
#include <zstd.h>

namespace podcrawl::testing {
namespace {

// The most bytes of a streamed body asked of its source at once: libmicrohttpd's buffer for it.
constexpr std::size_t k_stream_block_bytes = 16 * 1024;
// gzip's window (15, the largest) plus 16: deflate writes a gzip header and trailer.
constexpr int k_gzip_window_bits = 15 + 16;
constexpr int k_zlib_memory_level = 8; // zlib's default
constexpr int k_zstd_level = 3;
// Connections at once when the test names no limit: more than any test opens, and below
// libmicrohttpd's own default (FD_SETSIZE - 4).
constexpr unsigned int k_default_connections = 1000;
// Each connection's memory, the response head included: libmicrohttpd's 32 KiB default cannot hold
// the 100 kB of headers a test of the client's header bound sends.
constexpr std::size_t k_connection_memory_bytes = 1024 * 1024;

std::string lower_case(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

enum MHD_Result collect_value(void* cls, enum MHD_ValueKind kind, const char* key,
                              const char* value) {
  auto& values = *static_cast<std::map<std::string, std::string>*>(cls);
  const std::string name = kind == MHD_HEADER_KIND ? lower_case(key) : std::string(key);
  values[name] = value == nullptr ? "" : value;
  return MHD_YES;
}

Request read_request(MHD_Connection* connection, const char* method, const char* path) {
  Request request;
  request.method = method;
  request.path = path;
  MHD_get_connection_values(connection, MHD_HEADER_KIND, collect_value, &request.headers);
  MHD_get_connection_values(connection, MHD_GET_ARGUMENT_KIND, collect_value, &request.query);
  return request;
}

// A streamed body on its way out: what its source gave that libmicrohttpd has not taken yet.
struct Stream {
  BodySource source;
  std::uint64_t produced = 0;
  std::string pending;
};

ssize_t read_stream(void* cls, std::uint64_t /*position*/, char* buffer, std::size_t max) {
  auto& stream = *static_cast<Stream*>(cls);
  if (stream.pending.empty()) {
    std::optional<std::string> next;
    try {
      next = stream.source(stream.produced);
    } catch (const std::exception&) {
      return MHD_CONTENT_READER_END_WITH_ERROR; // nothing may unwind through libmicrohttpd
    }
    if (!next) {
      return MHD_CONTENT_READER_END_WITH_ERROR; // closes the connection where it is
    }
    if (next->empty()) {
      return MHD_CONTENT_READER_END_OF_STREAM;
    }
    stream.produced += next->size();
    stream.pending = std::move(*next);
  }
  const std::size_t size = std::min(max, stream.pending.size());
  std::memcpy(buffer, stream.pending.data(), size);
  stream.pending.erase(0, size);
  return static_cast<ssize_t>(size);
}

void free_stream(void* cls) {
  delete static_cast<Stream*>(cls);
}

struct DestroyResponse {
  void operator()(MHD_Response* response) const { MHD_destroy_response(response); }
};
using ResponsePtr = std::unique_ptr<MHD_Response, DestroyResponse>;

ResponsePtr make_response(Response& answer) {
  if (!answer.source) {
    return ResponsePtr(MHD_create_response_from_buffer(answer.body.size(), answer.body.data(),
                                                       MHD_RESPMEM_MUST_COPY));
  }
  auto stream = std::make_unique<Stream>();
  stream->source = std::move(answer.source);
  ResponsePtr response(MHD_create_response_from_callback(answer.length.value_or(MHD_SIZE_UNKNOWN),
                                                         k_stream_block_bytes, read_stream,
                                                         stream.get(), free_stream));
  if (response) {
    stream.release(); // the response's now: free_stream deletes it
  }
  return response;
}

// Queue `answer`; a header libmicrohttpd refuses (it writes Content-Length and
// Transfer-Encoding itself) turns the answer into a 500 naming it, so the test sees its mistake.
enum MHD_Result send(MHD_Connection* connection, Response answer) {
  ResponsePtr response = make_response(answer);
  if (!response) {
    return MHD_NO;
  }
  for (const auto& [name, value] : answer.headers) {
    if (MHD_add_response_header(response.get(), name.c_str(), value.c_str()) != MHD_YES) {
      Response refused;
      refused.status = 500;
      refused.body = "loopback server: libmicrohttpd refuses the header " + name;
      return send(connection, std::move(refused));
    }
  }
  return MHD_queue_response(connection, static_cast<unsigned int>(answer.status), response.get());
}

sockaddr_in loopback_address(const std::string& address) {
  sockaddr_in socket_address{};
  socket_address.sin_family = AF_INET;
  socket_address.sin_port = 0; // ephemeral
  if (::inet_pton(AF_INET, address.c_str(), &socket_address.sin_addr) != 1 ||
      (ntohl(socket_address.sin_addr.s_addr) >> 24) != 127) {
    throw std::invalid_argument("loopback server: not an address of 127.0.0.0/8: " + address);
  }
  return socket_address;
}

} // namespace

std::string Request::header(const std::string& name) const {
  const auto found = headers.find(lower_case(name));
  return found == headers.end() ? "" : found->second;
}

bool Request::has_header(const std::string& name) const {
  return headers.contains(lower_case(name));
}

void Response::set_header(const std::string& name, std::string value) {
  const std::string lower = lower_case(name);
  const auto same = std::find_if(headers.begin(), headers.end(), [&](const auto& header) {
    return lower_case(header.first) == lower;
  });
  if (same != headers.end()) {
    same->second = std::move(value);
  } else {
    headers.emplace_back(name, std::move(value));
  }
}

void Response::set_content(std::string content, const std::string& content_type) {
  body = std::move(content);
  set_header("Content-Type", content_type);
}

void Response::set_redirect(std::string location, int redirect_status) {
  status = redirect_status;
  set_header("Location", std::move(location));
}

void Response::set_stream(const std::string& content_type,
                          std::optional<std::uint64_t> content_length, BodySource body_source) {
  source = std::move(body_source);
  length = content_length;
  set_header("Content-Type", content_type);
}

struct LoopbackServer::Route {
  std::regex pattern;
  Handler handler;
  bool post = false; // answers POST; otherwise GET and HEAD
};

namespace {

// A request on its way in: its body as it arrives, for a POST.
struct RequestState {
  std::string body;
};

// The most bytes of a POST body kept; the rest is read and dropped.
constexpr std::size_t k_max_post_bytes = 1024 * 1024;

} // namespace

struct LoopbackServer::Callbacks {
  // libmicrohttpd calls this once the request's head has arrived (recorded then), then for each
  // piece of a request body (ignored), then once more at the request's end (answered then):
  // answering before the end would close the connection.
  static enum MHD_Result on_request(void* cls, MHD_Connection* connection, const char* url,
                                    const char* method, const char* /*version*/,
                                    const char* upload_data, std::size_t* upload_data_size,
                                    void** request_state) {
    auto& server = *static_cast<LoopbackServer*>(cls);
    if (*request_state == nullptr) {
      *request_state = new RequestState; // on_completed deletes it
      server.record(read_request(connection, method, url));
      return MHD_YES;
    }
    auto& state = *static_cast<RequestState*>(*request_state);
    if (*upload_data_size != 0) {
      const std::size_t room = k_max_post_bytes - std::min(k_max_post_bytes, state.body.size());
      state.body.append(upload_data, std::min(room, *upload_data_size));
      *upload_data_size = 0;
      return MHD_YES;
    }
    Request request = read_request(connection, method, url);
    request.body = std::move(state.body);
    return send(connection, server.answer(std::move(request)));
  }

  static void on_completed(void* /*cls*/, MHD_Connection* /*connection*/, void** request_state,
                           enum MHD_RequestTerminationCode /*code*/) {
    delete static_cast<RequestState*>(*request_state);
    *request_state = nullptr;
  }
};

void LoopbackServer::StopDaemon::operator()(MHD_Daemon* daemon) const {
  MHD_stop_daemon(daemon);
}

LoopbackServer::LoopbackServer(std::string address, int threads) : m_address(std::move(address)) {
  const sockaddr_in socket_address = loopback_address(m_address);
  // One thread per connection, so a handler that waits holds up its own client only; poll()
  // takes descriptors beyond select()'s 1024.
  const unsigned int flags =
      MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL | MHD_USE_ITC;
  // At the limit libmicrohttpd stops accepting, so further connections wait in the backlog.
  const unsigned int connection_limit =
      threads > 0 ? static_cast<unsigned int>(threads) : k_default_connections;
  m_daemon.reset(MHD_start_daemon(
      flags, 0, nullptr, nullptr, &Callbacks::on_request, this, MHD_OPTION_SOCK_ADDR,
      &socket_address, MHD_OPTION_NOTIFY_COMPLETED, &Callbacks::on_completed, nullptr,
      MHD_OPTION_CONNECTION_LIMIT, connection_limit, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
      k_connection_memory_bytes, MHD_OPTION_END));
  if (!m_daemon) {
    throw std::runtime_error("loopback server: cannot listen on " + m_address);
  }
  const MHD_DaemonInfo* info = MHD_get_daemon_info(m_daemon.get(), MHD_DAEMON_INFO_BIND_PORT);
  m_port = info == nullptr ? 0 : info->port;
  if (m_port <= 0) {
    throw std::runtime_error("loopback server: no port on " + m_address);
  }
}

LoopbackServer::~LoopbackServer() = default;

void LoopbackServer::on_get(const std::string& pattern, Handler handler) {
  auto route = std::make_shared<Route>(Route{std::regex(pattern), std::move(handler), false});
  std::lock_guard lock(m_mutex);
  m_routes.push_back(std::move(route));
}

void LoopbackServer::on_post(const std::string& pattern, Handler handler) {
  auto route = std::make_shared<Route>(Route{std::regex(pattern), std::move(handler), true});
  std::lock_guard lock(m_mutex);
  m_routes.push_back(std::move(route));
}

void LoopbackServer::serve_feed(const std::string& path, std::string body, std::string content_type,
                                std::string etag) {
  static const std::string k_last_modified = "Tue, 01 Dec 2026 10:00:00 GMT";
  on_get(path, [body = std::move(body), content_type = std::move(content_type),
                etag = std::move(etag)](const Request& request, Response& response) {
    response.set_header("ETag", etag);
    response.set_header("Last-Modified", k_last_modified);
    const bool etag_matches = request.header("If-None-Match") == etag;
    const bool date_matches = request.header("If-Modified-Since") == k_last_modified;
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

std::vector<Request> LoopbackServer::requests() const {
  std::lock_guard lock(m_mutex);
  return m_requests;
}

int LoopbackServer::count(const std::string& path) const {
  std::lock_guard lock(m_mutex);
  return static_cast<int>(std::count_if(m_requests.begin(), m_requests.end(),
                                        [&](const Request& r) { return r.path == path; }));
}

void LoopbackServer::record(Request request) {
  std::lock_guard lock(m_mutex);
  m_requests.push_back(std::move(request));
}

std::shared_ptr<const LoopbackServer::Route> LoopbackServer::route(Request& request) const {
  std::lock_guard lock(m_mutex);
  const bool post = request.method == "POST";
  for (const auto& candidate : m_routes) {
    std::smatch match;
    if (candidate->post == post && std::regex_match(request.path, match, candidate->pattern)) {
      request.matches.assign(match.begin(), match.end());
      return candidate;
    }
  }
  return nullptr;
}

Response LoopbackServer::answer(Request request) const {
  Response response;
  if (request.method != "GET" && request.method != "HEAD" && request.method != "POST") {
    response.status = 405;
    response.set_header("Allow", "GET, HEAD, POST");
    return response;
  }
  const auto found = route(request);
  if (!found) {
    response.status = 404;
    return response;
  }
  try {
    found->handler(request, response); // outside the lock: handlers may wait
  } catch (const std::exception& error) {
    response = Response{};
    response.status = 500;
    response.body = std::string("loopback handler failed: ") + error.what();
  }
  return response;
}

std::string gzip(const std::string& body) {
  z_stream stream{};
  if (deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, k_gzip_window_bits,
                   k_zlib_memory_level, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw std::runtime_error("gzip: cannot start");
  }
  const std::unique_ptr<z_stream, int (*)(z_streamp)> owner(&stream, deflateEnd);
  std::string compressed(deflateBound(&stream, body.size()), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(body.data()));
  stream.avail_in = static_cast<uInt>(body.size());
  stream.next_out = reinterpret_cast<Bytef*>(compressed.data());
  stream.avail_out = static_cast<uInt>(compressed.size());
  if (deflate(&stream, Z_FINISH) != Z_STREAM_END) {
    throw std::runtime_error("gzip: cannot compress");
  }
  compressed.resize(stream.total_out);
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
      ZSTD_compress(compressed.data(), compressed.size(), body.data(), body.size(), k_zstd_level);
  if (ZSTD_isError(size) != 0) {
    throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(size));
  }
  compressed.resize(size);
  return compressed;
}

} // namespace podcrawl::testing

#include "podcrawl/http/server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <charconv>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include <microhttpd.h>
#include <spdlog/spdlog.h>

#include "podcrawl/core/error.hpp"
#include "podcrawl/core/files.hpp"
#include "request_internal.hpp"

namespace podcrawl::http {

namespace {

// The answer's status line and headers are written into the same per-connection pool as the
// request was read into, so the pool is the header limit plus this much.
constexpr std::size_t k_connection_memory_slack = 16 * 1024;
constexpr std::size_t k_log_line_bytes = 512;

struct DaemonDeleter {
  void operator()(MHD_Daemon* daemon) const { MHD_stop_daemon(daemon); }
};

struct ResponseDeleter {
  void operator()(MHD_Response* response) const { MHD_destroy_response(response); }
};
using ResponsePtr = std::unique_ptr<MHD_Response, ResponseDeleter>;

using Socket = core::FileDescriptor;

// What libmicrohttpd keeps for one request between its callbacks (as its con_cls).
struct RequestState {
  std::string target;   // the request target as received, copied before MHD decodes it
  bool counted = false; // counted in Impl::in_flight
  // A request the quick handler left: read on the event loop, answered by a worker while its
  // connection is suspended, sent when libmicrohttpd calls again after the resume.
  std::optional<Request> deferred;
  std::optional<Response> answer;
  std::string body; // a POST's body as it comes in
};

struct ListenAddress {
  sockaddr_storage storage{};
  socklen_t length = 0;
  std::string display; // "127.0.0.1:8080", "[::1]:8080"
};

ListenAddress parse_listen_address(const ServerOptions& options) {
  ListenAddress address;
  std::string host = options.bind;
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  auto* v4 = reinterpret_cast<sockaddr_in*>(&address.storage);
  auto* v6 = reinterpret_cast<sockaddr_in6*>(&address.storage);
  if (inet_pton(AF_INET, host.c_str(), &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(static_cast<std::uint16_t>(options.port));
    address.length = sizeof(sockaddr_in);
    address.display = host + ":" + std::to_string(options.port);
  } else if (inet_pton(AF_INET6, host.c_str(), &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(static_cast<std::uint16_t>(options.port));
    address.length = sizeof(sockaddr_in6);
    address.display = "[" + host + "]:" + std::to_string(options.port);
  } else {
    throw core::UsageError("the server's bind address is not a numeric IP address: " +
                           options.bind);
  }
  return address;
}

void check_options(const ServerOptions& options) {
  if (options.port < 0 || options.port > 65535) {
    throw core::UsageError("the server's port must be in [0, 65535], not " +
                           std::to_string(options.port));
  }
  if (options.threads < 1 || options.workers < 0 || options.max_connections < 1 ||
      options.connection_timeout_seconds < 1 || options.drain_timeout_seconds < 0 ||
      options.max_header_bytes < 1024) {
    throw core::UsageError(
        "the server's threads, connections and timeouts must be positive "
        "and its header limit at least 1024 bytes");
  }
}

// Bind and listen, non-blocking (every event loop of the pool accepts from it).
Socket open_listen_socket(const ListenAddress& address) {
  auto fail = [&](const char* what) {
    throw core::EnvironmentError("cannot listen on " + address.display + ": " + what + ": " +
                                 std::strerror(errno));
  };
  Socket socket(::socket(address.storage.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (socket.get() < 0) {
    fail("socket");
  }
  const int one = 1;
  ::setsockopt(socket.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (::bind(socket.get(), reinterpret_cast<const sockaddr*>(&address.storage), address.length) !=
      0) {
    fail("bind");
  }
  if (::listen(socket.get(), SOMAXCONN) != 0) {
    fail("listen");
  }
  return socket;
}

int bound_port(const Socket& socket) {
  sockaddr_storage storage{};
  socklen_t length = sizeof storage;
  if (::getsockname(socket.get(), reinterpret_cast<sockaddr*>(&storage), &length) != 0) {
    return 0;
  }
  if (storage.ss_family == AF_INET6) {
    return ntohs(reinterpret_cast<const sockaddr_in6*>(&storage)->sin6_port);
  }
  return ntohs(reinterpret_cast<const sockaddr_in*>(&storage)->sin_port);
}

void log_from_mhd(void* /*cls*/, const char* format, va_list arguments) {
  char line[k_log_line_bytes];
  std::vsnprintf(line, sizeof line, format, arguments);
  std::string_view text(line);
  while (!text.empty() && text.back() == '\n') {
    text.remove_suffix(1);
  }
  spdlog::debug("libmicrohttpd: {}", text);
}

enum MHD_Result collect_header(void* cls, enum MHD_ValueKind /*kind*/, const char* key,
                               std::size_t key_size, const char* value, std::size_t value_size) {
  auto& headers = *static_cast<std::vector<std::pair<std::string, std::string>>*>(cls);
  headers.emplace_back(std::string(key, key_size),
                       value ? std::string(value, value_size) : std::string());
  return MHD_YES;
}

void read_client(MHD_Connection* connection, Request& request) {
  const MHD_ConnectionInfo* info =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  if (info && info->client_addr) {
    const auto [address, loopback] = internal::describe_peer(*info->client_addr);
    request.client_address = address;
    // A request a proxy on this machine forwarded comes from its client, wherever that is.
    request.loopback_client = loopback && request.header("Forwarded").empty() &&
                              request.header("X-Forwarded-For").empty() &&
                              request.header("X-Real-IP").empty();
  }
}

// Whether the request announces a body (RFC 9112 section 6.3).
bool has_body(MHD_Connection* connection) {
  const char* length =
      MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
  return (length && std::strcmp(length, "0") != 0) ||
         MHD_lookup_connection_value(connection, MHD_HEADER_KIND,
                                     MHD_HTTP_HEADER_TRANSFER_ENCODING) != nullptr;
}

// The Content-Length a request declares; 0 when none (a chunked body is bounded as it comes),
// the largest size for one that is not a number.
std::size_t declared_length(MHD_Connection* connection) {
  const char* length =
      MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
  if (!length) {
    return 0;
  }
  std::size_t value = 0;
  const std::string_view text(length);
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size() ? value : SIZE_MAX;
}

ResponsePtr make_response(const std::shared_ptr<const std::string>& body) {
  if (!body || body->empty()) {
    return ResponsePtr(
        MHD_create_response_from_buffer(0, const_cast<char*>(""), MHD_RESPMEM_PERSISTENT));
  }
  // The body is kept alive by a shared_ptr that libmicrohttpd frees with the response, which
  // it may do after the handler's own references are gone. It only reads the buffer.
  auto keeper = std::make_unique<std::shared_ptr<const std::string>>(body);
  ResponsePtr response(MHD_create_response_from_buffer_with_free_callback_cls(
      body->size(), const_cast<char*>(body->data()),
      [](void* cls) { delete static_cast<std::shared_ptr<const std::string>*>(cls); },
      keeper.get()));
  if (response) {
    keeper.release();
  }
  return response;
}

enum MHD_Result send(MHD_Connection* connection, const Response& answer, bool close) {
  ResponsePtr response = make_response(answer.body);
  if (!response) {
    return MHD_NO; // out of memory: libmicrohttpd closes the connection
  }
  for (const auto& [name, value] : answer.headers) {
    if (!internal::server_owned_header(name)) {
      // A header libmicrohttpd refuses (a line break in it) is left out.
      MHD_add_response_header(response.get(), name.c_str(), value.c_str());
    }
  }
  if (close) {
    MHD_add_response_header(response.get(), MHD_HTTP_HEADER_CONNECTION, "close");
  }
  return MHD_queue_response(connection, static_cast<unsigned int>(answer.status), response.get());
}

} // namespace

struct Server::Impl {
  const ServerOptions options;
  const Handler handler;
  const QuickHandler quick;
  Socket listen_socket;
  int port = 0;
  std::unique_ptr<MHD_Daemon, DaemonDeleter> daemon; // after listen_socket: stopped first

  std::mutex mutex;
  std::condition_variable changed;
  bool stopping = false;
  std::chrono::steady_clock::time_point stop_time;
  std::size_t in_flight = 0;        // requests handed to the handler and not yet completed
  std::atomic<bool> closing{false}; // answers close their connections

  // Requests waiting for a worker, oldest first, each with its suspended connection.
  std::mutex jobs_mutex;
  std::condition_variable jobs_ready;
  std::deque<std::pair<MHD_Connection*, RequestState*>> jobs;
  bool workers_done = false; // set once nothing more can be queued: workers end when idle
  std::vector<std::thread> workers;

  Impl(ServerOptions server_options, Handler request_handler, QuickHandler quick_handler)
      : options(std::move(server_options)),
        handler(std::move(request_handler)),
        quick(std::move(quick_handler)) {}

  // What a handler that threw `error` answers.
  static Response failure(const Request& request, const std::exception& error) {
    spdlog::error("the handler of {} {} failed: {}", request.method, request.path, error.what());
    return Response{500, {}, nullptr};
  }

  Response run_handler(const Request& request) const {
    try {
      return handler(request);
    } catch (const std::exception& error) {
      return failure(request, error);
    }
  }

  void work() {
    for (;;) {
      std::pair<MHD_Connection*, RequestState*> job;
      {
        std::unique_lock lock(jobs_mutex);
        jobs_ready.wait(lock, [&] { return workers_done || !jobs.empty(); });
        if (jobs.empty()) {
          return;
        }
        job = jobs.front();
        jobs.pop_front();
      }
      auto& [connection, state] = job;
      state->answer = run_handler(*state->deferred);
      MHD_resume_connection(connection);
    }
  }

  void start_workers() {
    for (int i = 0; i < options.workers; ++i) {
      workers.emplace_back([this] { work(); });
    }
  }

  // Every queued request answered, then the workers joined: libmicrohttpd must not be stopped
  // while a connection is suspended.
  void stop_workers() {
    {
      std::lock_guard lock(jobs_mutex);
      workers_done = true;
    }
    jobs_ready.notify_all();
    for (auto& worker : workers) {
      worker.join();
    }
    workers.clear();
  }

  static void* on_uri(void* /*cls*/, const char* uri, MHD_Connection* /*connection*/) {
    auto* state = new RequestState;
    state->target = uri ? uri : "";
    return state;
  }

  static void on_completed(void* cls, MHD_Connection* /*connection*/, void** con_cls,
                           enum MHD_RequestTerminationCode /*code*/) {
    std::unique_ptr<RequestState> state(static_cast<RequestState*>(*con_cls));
    *con_cls = nullptr;
    if (state && state->counted) {
      auto& impl = *static_cast<Impl*>(cls);
      std::lock_guard lock(impl.mutex);
      --impl.in_flight;
      impl.changed.notify_all();
    }
  }

  static enum MHD_Result on_request(void* cls, MHD_Connection* connection, const char* /*url*/,
                                    const char* method, const char* /*version*/,
                                    const char* upload_data, std::size_t* upload_data_size,
                                    void** con_cls) {
    auto& impl = *static_cast<Impl*>(cls);
    auto* state = static_cast<RequestState*>(*con_cls);
    if (!state) {
      return MHD_NO; // not from on_uri: cannot happen, and nothing to answer from
    }
    if (!state->counted) {
      {
        std::lock_guard lock(impl.mutex);
        ++impl.in_flight;
        state->counted = true;
      }
      // The first call comes when the headers are in. libmicrohttpd keeps the connection alive
      // only for an answer queued in a later call, once the request has ended; a request with
      // a body (never read here) or another method is answered now, and its connection closed.
      const bool get_or_head =
          method && (std::strcmp(method, "GET") == 0 || std::strcmp(method, "HEAD") == 0);
      if (get_or_head && !has_body(connection)) {
        return MHD_YES;
      }
      if (impl.reads_body(method)) {
        if (declared_length(connection) > impl.options.max_body_bytes) {
          return send(connection, Response{413, {}, nullptr}, true);
        }
        return MHD_YES; // the body comes in the next calls
      }
      return impl.answer(connection, method, *state);
    }
    if (*upload_data_size != 0) {
      if (impl.reads_body(method)) {
        if (state->body.size() + *upload_data_size > impl.options.max_body_bytes) {
          return MHD_NO; // grew past the bound (chunked): the connection is closed
        }
        state->body.append(upload_data, *upload_data_size);
      }
      *upload_data_size = 0; // other methods' bodies were answered before they were read
      return MHD_YES;
    }
    return impl.answer(connection, method, *state);
  }

  // Whether a request of this method has its body read: a POST, when the server takes them.
  bool reads_body(const char* method) const {
    return options.max_body_bytes > 0 && method && std::strcmp(method, "POST") == 0;
  }

  enum MHD_Result answer(MHD_Connection* connection, const char* method, RequestState& state) {
    if (state.answer) { // called again after a worker's resume
      return send(connection, *state.answer, closing.load());
    }
    Request request;
    request.method = method ? method : "";
    request.received = std::chrono::steady_clock::now();
    MHD_get_connection_values_n(connection, MHD_HEADER_KIND, collect_header, &request.headers);
    const internal::Limits limits{options.max_header_bytes, options.max_body_bytes > 0};
    if (auto refusal = internal::check_request(request, state.target, limits)) {
      // After a malformed or oversized request the stream cannot be trusted: close it.
      return send(connection, *refusal, true);
    }
    read_client(connection, request);
    request.body = std::move(state.body);
    if (!quick) {
      const Response response = run_handler(request);
      // Read after the handler: stop() may have come while it ran.
      return send(connection, response, closing.load());
    }
    std::optional<Response> ready;
    try {
      ready = quick(request);
    } catch (const std::exception& error) {
      ready = failure(request, error);
    }
    if (ready) {
      return send(connection, *ready, closing.load());
    }
    state.deferred = std::move(request);
    // Suspended before it is queued, so that no worker can resume it first.
    MHD_suspend_connection(connection);
    {
      std::lock_guard lock(jobs_mutex);
      jobs.emplace_back(connection, &state);
    }
    jobs_ready.notify_one();
    return MHD_YES;
  }

  void start(const ListenAddress& address) {
    // poll(), not epoll: with a thread pool, libmicrohttpd 0.9.75's MHD_quiesce_daemon and an
    // event loop woken by a resume can both take the listening socket out of the same epoll
    // set, and the second aborts the process ("Failed to remove listen FD from epoll set").
    unsigned int flags =
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL | MHD_USE_ITC | MHD_USE_ERROR_LOG;
    if (quick) {
      flags |= MHD_ALLOW_SUSPEND_RESUME;
    }
    if (address.storage.ss_family == AF_INET6) {
      flags |= MHD_USE_IPv6;
    }
    daemon.reset(MHD_start_daemon(
        flags, static_cast<std::uint16_t>(port), nullptr, nullptr, &Impl::on_request, this,
        MHD_OPTION_EXTERNAL_LOGGER, &log_from_mhd, nullptr, MHD_OPTION_LISTEN_SOCKET,
        listen_socket.get(), MHD_OPTION_THREAD_POOL_SIZE,
        static_cast<unsigned int>(options.threads), MHD_OPTION_CONNECTION_LIMIT,
        static_cast<unsigned int>(options.max_connections), MHD_OPTION_CONNECTION_TIMEOUT,
        static_cast<unsigned int>(options.connection_timeout_seconds),
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, options.max_header_bytes + k_connection_memory_slack,
        MHD_OPTION_STRICT_FOR_CLIENT, 1, MHD_OPTION_URI_LOG_CALLBACK, &Impl::on_uri, this,
        MHD_OPTION_NOTIFY_COMPLETED, &Impl::on_completed, this, MHD_OPTION_END));
    if (!daemon) {
      throw core::EnvironmentError("cannot serve on " + address.display +
                                   ": libmicrohttpd did not start");
    }
  }
};

Server::Server(ServerOptions options, Handler handler, QuickHandler quick)
    : m_impl(std::make_unique<Impl>(std::move(options), std::move(handler), std::move(quick))) {
  check_options(m_impl->options);
  if (!m_impl->quick != (m_impl->options.workers == 0)) {
    throw core::UsageError("a server has workers when it has a quick handler, and only then");
  }
  const ListenAddress address = parse_listen_address(m_impl->options);
  m_impl->listen_socket = open_listen_socket(address);
  m_impl->port = bound_port(m_impl->listen_socket);
  m_impl->start_workers();
  try {
    m_impl->start(address);
  } catch (...) {
    m_impl->stop_workers();
    throw;
  }
}

Server::~Server() {
  stop();
  wait();
}

int Server::port() const {
  return m_impl->port;
}

std::size_t Server::open_connections() const {
  if (!m_impl->daemon) {
    return 0;
  }
  const MHD_DaemonInfo* info =
      MHD_get_daemon_info(m_impl->daemon.get(), MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
  return info ? info->num_connections : 0;
}

void Server::stop() {
  Impl& impl = *m_impl;
  std::lock_guard lock(impl.mutex);
  if (impl.stopping) {
    return;
  }
  impl.stopping = true;
  impl.stop_time = std::chrono::steady_clock::now();
  impl.closing = true;
  if (impl.daemon && MHD_quiesce_daemon(impl.daemon.get()) != MHD_INVALID_SOCKET) {
    // libmicrohttpd's threads may look at the socket until MHD_stop_daemon, so it is closed
    // only then (wait()); shutting it down now makes the kernel refuse new connections.
    ::shutdown(impl.listen_socket.get(), SHUT_RDWR);
  } else {
    impl.listen_socket.release(); // still the daemon's: MHD_stop_daemon closes it
  }
  impl.changed.notify_all();
}

bool Server::wait() {
  Impl& impl = *m_impl;
  std::unique_lock lock(impl.mutex);
  impl.changed.wait(lock, [&] { return impl.stopping; });
  const auto deadline = impl.stop_time + std::chrono::seconds(impl.options.drain_timeout_seconds);
  const bool drained = impl.changed.wait_until(lock, deadline, [&] { return impl.in_flight == 0; });
  lock.unlock();
  impl.stop_workers();
  // Joins the event loops; their completion callbacks take the mutex, so it is not held here.
  impl.daemon.reset();
  impl.listen_socket.reset();
  return drained;
}

} // namespace podcrawl::http

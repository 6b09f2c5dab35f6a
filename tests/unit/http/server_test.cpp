#include "podcrawl/http/server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <functional>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "podcrawl/core/error.hpp"
#include "support/http_client.hpp"

namespace podcrawl::http {
namespace {

using namespace std::chrono_literals;

// Every wait in these tests is for a condition, bounded by this so that a broken server fails
// the test instead of hanging it.
constexpr auto k_patience = 5s;

// A TCP connection to 127.0.0.1:port that gives up reading after k_patience.
class RawClient {
public:
  explicit RawClient(int port) : m_fd(::socket(AF_INET, SOCK_STREAM, 0)) {
    timeval timeout{std::chrono::duration_cast<std::chrono::seconds>(k_patience).count(), 0};
    ::setsockopt(m_fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    m_connected = ::connect(m_fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
    m_error = errno;
  }
  ~RawClient() { ::close(m_fd); }
  RawClient(const RawClient&) = delete;
  RawClient& operator=(const RawClient&) = delete;

  bool connected() const { return m_connected; }
  int connect_error() const { return m_error; }

  void send(const std::string& bytes) {
    std::size_t sent = 0;
    while (sent < bytes.size()) {
      const auto n = ::send(m_fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) {
        return; // the server closed: what it answered is still readable
      }
      sent += static_cast<std::size_t>(n);
    }
  }

  // Everything the server sends until it closes the connection (or k_patience passes).
  std::string read_to_end() {
    std::string received;
    char chunk[16384];
    while (true) {
      const auto n = ::recv(m_fd, chunk, sizeof chunk, 0);
      if (n <= 0) {
        return received;
      }
      received.append(chunk, static_cast<std::size_t>(n));
    }
  }

  // One response whose length its Content-Length gives, leaving the connection open.
  std::string read_response() {
    std::string received;
    char byte = 0;
    while (received.find("\r\n\r\n") == std::string::npos && ::recv(m_fd, &byte, 1, 0) == 1) {
      received += byte;
    }
    const auto length_at = received.find("Content-Length: ");
    std::size_t length =
        length_at == std::string::npos ? 0 : std::stoul(received.substr(length_at + 16));
    std::string body(length, '\0');
    std::size_t got = 0;
    while (got < length) {
      const auto n = ::recv(m_fd, body.data() + got, length - got, 0);
      if (n <= 0) {
        break;
      }
      got += static_cast<std::size_t>(n);
    }
    return received + body.substr(0, got);
  }

private:
  int m_fd;
  bool m_connected = false;
  int m_error = 0;
};

std::string exchange(int port, const std::string& request) {
  RawClient client(port);
  client.send(request);
  return client.read_to_end();
}

int status_of(const std::string& response) {
  if (response.size() < 12 || response.compare(0, 5, "HTTP/") != 0) {
    return 0;
  }
  return std::stoi(response.substr(9, 3));
}

std::string head_of(const std::string& response) {
  return response.substr(0, response.find("\r\n\r\n") + 4);
}

std::string body_of(const std::string& response) {
  const auto end = response.find("\r\n\r\n");
  return end == std::string::npos ? "" : response.substr(end + 4);
}

ServerOptions test_options() {
  ServerOptions options;
  options.port = 0;
  options.threads = 2;
  options.max_header_bytes = 4096;
  options.drain_timeout_seconds = 5;
  return options;
}

template <typename Predicate>
bool wait_until(Predicate predicate) {
  const auto deadline = std::chrono::steady_clock::now() + k_patience;
  while (!predicate()) {
    if (std::chrono::steady_clock::now() > deadline) {
      return false;
    }
    std::this_thread::yield();
  }
  return true;
}

// A handler that answers a fixed page and remembers the requests it saw.
struct RecordingHandler {
  std::shared_ptr<const std::string> body =
      std::make_shared<const std::string>(std::string(40 * 1024, 'p'));
  std::mutex mutex;
  std::vector<Request> seen;

  Handler handler() {
    return [this](const Request& request) {
      std::lock_guard lock(mutex);
      seen.push_back(request);
      return Response{200, {{"Content-Type", "text/html"}, {"Content-Length", "1"}}, body};
    };
  }
  std::size_t calls() {
    std::lock_guard lock(mutex);
    return seen.size();
  }
};

TEST(HttpServer, AnswersGetWithTheHandlersBodyAndRequest) {
  RecordingHandler recording;
  {
    Server server(test_options(), recording.handler());
    ASSERT_GT(server.port(), 0);
    const testing::Answer answer =
        testing::curl_get(server.port(), "/en/a%20b/?q=caf%C3%A9&x", {"X-Probe: 1"});
    ASSERT_NE(answer.status, 0);
    EXPECT_EQ(answer.status, 200);
    EXPECT_EQ(answer.body, *recording.body);
    EXPECT_EQ(answer.header("Content-Type"), "text/html");
    EXPECT_EQ(answer.header("Content-Length"), std::to_string(recording.body->size()));
    ASSERT_EQ(recording.calls(), 1u);
    const Request& seen = recording.seen[0];
    EXPECT_EQ(seen.method, "GET");
    EXPECT_EQ(seen.path, "/en/a%20b/");
    EXPECT_EQ(seen.query, "q=caf%C3%A9&x");
    EXPECT_EQ(seen.header("x-probe"), "1");
    EXPECT_EQ(seen.client_address, "127.0.0.1");
    EXPECT_TRUE(seen.loopback_client);
  }
  // libmicrohttpd released its reference with the response: the body was shared, not leaked.
  EXPECT_EQ(recording.body.use_count(), 1);
}

TEST(HttpServer, AnswersHeadWithTheGetHeadersAndNoBody) {
  RecordingHandler recording;
  Server server(test_options(), recording.handler());
  const std::string response =
      exchange(server.port(), "HEAD /x HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(status_of(response), 200);
  EXPECT_NE(head_of(response).find("Content-Length: " + std::to_string(recording.body->size())),
            std::string::npos)
      << response;
  EXPECT_EQ(body_of(response), "");
  ASSERT_EQ(recording.calls(), 1u);
  EXPECT_EQ(recording.seen[0].method, "HEAD");
}

TEST(HttpServer, KeepsTheConnectionAliveBetweenRequests) {
  // Regression: answering GET in libmicrohttpd's first call (before the request's end) made it
  // close every connection, which cut throughput by three quarters.
  RecordingHandler recording;
  Server server(test_options(), recording.handler());
  RawClient client(server.port());
  client.send("GET /one HTTP/1.1\r\nHost: t\r\n\r\n");
  const std::string first = client.read_response();
  EXPECT_EQ(status_of(first), 200);
  EXPECT_EQ(head_of(first).find("Connection: close"), std::string::npos) << first;
  client.send("GET /two HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
  const std::string second = client.read_to_end();
  EXPECT_EQ(status_of(second), 200);
  EXPECT_EQ(body_of(second), *recording.body);
  ASSERT_EQ(recording.calls(), 2u);
  EXPECT_EQ(recording.seen[1].path, "/two");
}

TEST(HttpServer, RefusesOtherMethodsWith405WithoutCallingTheHandler) {
  RecordingHandler recording;
  Server server(test_options(), recording.handler());
  const std::string response = exchange(
      server.port(),
      "POST /x HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello");
  EXPECT_EQ(status_of(response), 405) << response;
  EXPECT_NE(head_of(response).find("Allow: GET, HEAD\r\n"), std::string::npos) << response;
  EXPECT_EQ(recording.calls(), 0u);
}

TEST(HttpServer, ReadsABoundedPostBodyWhenToldTo) {
  RecordingHandler recording;
  ServerOptions options = test_options();
  options.max_body_bytes = 16;
  Server server(options, recording.handler());
  const std::string posted = exchange(server.port(),
                                      "POST /x?a=1 HTTP/1.1\r\nHost: t\r\nContent-Length: 11\r\n"
                                      "Connection: close\r\n\r\nurl=a&b=c+d");
  EXPECT_EQ(status_of(posted), 200) << posted;
  // Chunked, in two chunks.
  const std::string chunked =
      exchange(server.port(),
               "POST /y HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n"
               "Connection: close\r\n\r\n3\r\nabc\r\n4\r\ndefg\r\n0\r\n\r\n");
  EXPECT_EQ(status_of(chunked), 200) << chunked;
  ASSERT_EQ(recording.calls(), 2u);
  EXPECT_EQ(recording.seen[0].method, "POST");
  EXPECT_EQ(recording.seen[0].query, "a=1");
  EXPECT_EQ(recording.seen[0].body, "url=a&b=c+d");
  EXPECT_EQ(recording.seen[1].body, "abcdefg");

  // Declared over the bound: 413 before the body is read; grown past it as it comes: closed.
  const std::string declared =
      exchange(server.port(),
               "POST /z HTTP/1.1\r\nHost: t\r\nContent-Length: 17\r\n\r\n" + std::string(17, 'x'));
  EXPECT_EQ(status_of(declared), 413) << declared;
  const std::string grown =
      exchange(server.port(),
               "POST /z HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
               "10\r\n" +
                   std::string(16, 'x') + "\r\n1\r\ny\r\n0\r\n\r\n");
  EXPECT_EQ(grown.find("HTTP/1.1 200"), std::string::npos) << grown;
  EXPECT_EQ(recording.calls(), 2u);

  // Other methods are still refused, naming POST among those allowed.
  const std::string put =
      exchange(server.port(),
               "PUT /x HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(status_of(put), 405) << put;
  EXPECT_NE(head_of(put).find("Allow: GET, HEAD, POST\r\n"), std::string::npos) << put;
}

TEST(HttpServer, RefusesMalformedRequestsWith400) {
  RecordingHandler recording;
  Server server(test_options(), recording.handler());
  const std::vector<std::string> requests = {
      "GET / HTTP/1.1 extra\r\nHost: t\r\n\r\n",
      "GET /\r\n\r\n",
      "GET / HTTPS/1.1\r\nHost: t\r\n\r\n",
      "G@T / HTTP/1.1\r\nHost: t\r\n\r\n",
      "GET en/ HTTP/1.1\r\nHost: t\r\n\r\n",
      "GET /a#b HTTP/1.1\r\nHost: t\r\n\r\n",
      "GET / HTTP/1.1\r\n\r\n", // HTTP/1.1 without Host
      "GET / HTTP/1.1\r\nHost: t\r\nNo colon here\r\n\r\n",
  };
  for (const auto& request : requests) {
    EXPECT_EQ(status_of(exchange(server.port(), request)), 400) << request;
  }
  // libmicrohttpd 0.9.75 closes the connection without an answer when the request line has no
  // space at all.
  EXPECT_EQ(exchange(server.port(), "GARBAGE\r\nHost: t\r\n\r\n"), "");
  EXPECT_EQ(recording.calls(), 0u);
}

TEST(HttpServer, RefusesHeadersOverTheLimitWith431AndLongTargetsWith414) {
  RecordingHandler recording;
  const ServerOptions options = test_options();
  Server server(options, recording.handler());
  auto request_with_header = [](std::size_t bytes) {
    return "GET / HTTP/1.1\r\nHost: t\r\nConnection: close\r\nX-Big: " + std::string(bytes, 'b') +
           "\r\n\r\n";
  };
  // Just over the limit: our check. Far over: libmicrohttpd's, when its pool is full.
  EXPECT_EQ(status_of(exchange(server.port(), request_with_header(options.max_header_bytes))), 431);
  EXPECT_EQ(status_of(exchange(server.port(), request_with_header(8 * options.max_header_bytes))),
            431);
  EXPECT_EQ(status_of(exchange(server.port(), "GET /" + std::string(options.max_header_bytes, 'p') +
                                                  " HTTP/1.1\r\nHost: t\r\n\r\n")),
            414);
  EXPECT_EQ(status_of(exchange(server.port(), request_with_header(options.max_header_bytes / 2))),
            200);
  EXPECT_EQ(recording.calls(), 1u);
}

TEST(HttpServer, AnswersAHandlerFailureWith500) {
  Server server(test_options(),
                [](const Request&) -> Response { throw std::runtime_error("template missing"); });
  const testing::Answer answer = testing::curl_get(server.port(), "/");
  ASSERT_NE(answer.status, 0);
  EXPECT_EQ(answer.status, 500);
}

TEST(HttpServer, AnswersWhileThreeHundredClientsHoldHalfSentRequests) {
  RecordingHandler recording;
  Server server(test_options(), recording.handler());
  constexpr std::size_t k_slow_clients = 300;
  std::vector<std::unique_ptr<RawClient>> slow;
  for (std::size_t i = 0; i < k_slow_clients; ++i) {
    slow.push_back(std::make_unique<RawClient>(server.port()));
    ASSERT_TRUE(slow.back()->connected()) << i;
    slow.back()->send("GET /slow HTTP/1.1\r\nHost: t\r\nX-Never: ends");
  }
  ASSERT_TRUE(wait_until([&] { return server.open_connections() >= k_slow_clients; }))
      << server.open_connections();

  const auto started = std::chrono::steady_clock::now();
  const testing::Answer answer = testing::curl_get(server.port(), "/fast", {}, 2s);
  ASSERT_NE(answer.status, 0);
  EXPECT_EQ(answer.status, 200);
  EXPECT_LT(std::chrono::steady_clock::now() - started, 1s);
  EXPECT_EQ(recording.calls(), 1u);
  EXPECT_GE(server.open_connections(), k_slow_clients);
}

// A handler that blocks until the test releases it.
struct BlockingHandler {
  std::mutex mutex;
  std::condition_variable changed;
  bool entered = false;
  bool released = false;
  std::shared_ptr<const std::string> body = std::make_shared<const std::string>("finished\n");

  Handler handler() {
    return [this](const Request&) {
      std::unique_lock lock(mutex);
      entered = true;
      changed.notify_all();
      changed.wait(lock, [&] { return released; });
      return Response{200, {}, body};
    };
  }
  bool wait_entered() {
    std::unique_lock lock(mutex);
    return changed.wait_for(lock, k_patience, [&] { return entered; });
  }
  void release() {
    std::lock_guard lock(mutex);
    released = true;
    changed.notify_all();
  }
};

TEST(HttpServer, StopRefusesNewConnectionsAndFinishesTheRequestInFlight) {
  BlockingHandler blocking;
  Server server(test_options(), blocking.handler());
  const int port = server.port();
  auto in_flight = std::async(std::launch::async, [port] {
    return exchange(port, "GET /slow HTTP/1.1\r\nHost: t\r\n\r\n");
  });
  ASSERT_TRUE(blocking.wait_entered());

  server.stop();
  RawClient late(port);
  EXPECT_FALSE(late.connected());
  EXPECT_EQ(late.connect_error(), ECONNREFUSED);

  blocking.release();
  EXPECT_TRUE(server.wait());
  ASSERT_EQ(in_flight.wait_for(k_patience), std::future_status::ready);
  const std::string response = in_flight.get();
  EXPECT_EQ(status_of(response), 200) << response;
  EXPECT_EQ(body_of(response), "finished\n");
  // The answer closed its keep-alive connection, so the client was not left waiting.
  EXPECT_NE(head_of(response).find("Connection: close\r\n"), std::string::npos) << response;
}

// A quick handler that answers /fast/... at once and leaves every other path to the workers;
// it counts the requests it saw in `asked`, when given.
QuickHandler fast_paths(std::atomic<int>* asked = nullptr) {
  return [asked](const Request& request) -> std::optional<Response> {
    if (asked != nullptr) {
      ++*asked;
    }
    if (request.path == "/throw") {
      throw std::runtime_error("quick handler failed");
    }
    if (!request.path.starts_with("/fast/")) {
      return std::nullopt;
    }
    return Response{200, {}, std::make_shared<const std::string>("fast " + request.path)};
  };
}

ServerOptions with_workers(int threads, int workers) {
  ServerOptions options = test_options();
  options.threads = threads;
  options.workers = workers;
  return options;
}

TEST(HttpServerWorkers, AnswerFromTheEventLoopWhileAWorkerRunsASlowRequest) {
  BlockingHandler blocking;
  Server server(with_workers(1, 1), blocking.handler(), fast_paths());
  RawClient slow(server.port());
  slow.send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n");
  ASSERT_TRUE(blocking.wait_entered());

  // The only event loop is free: the slow request waits on a worker, not on it.
  const std::string fast = exchange(server.port(),
                                    "GET /fast/1 HTTP/1.1\r\nHost: t\r\n"
                                    "Connection: close\r\n\r\n");
  EXPECT_EQ(status_of(fast), 200) << fast;
  EXPECT_EQ(body_of(fast), "fast /fast/1");

  blocking.release();
  const std::string answered = slow.read_response();
  EXPECT_EQ(status_of(answered), 200) << answered;
  EXPECT_EQ(body_of(answered), "finished\n");
  // The connection stays open after a worker's answer, for the next request.
  slow.send("GET /fast/2 HTTP/1.1\r\nHost: t\r\n\r\n");
  EXPECT_EQ(body_of(slow.read_response()), "fast /fast/2");
}

TEST(HttpServerWorkers, AnswerHeadAndQuickHandlerFailuresAsTheHandlerWould) {
  RecordingHandler recording;
  Server server(with_workers(2, 2), recording.handler(), fast_paths());
  const std::string head = exchange(server.port(),
                                    "HEAD /page HTTP/1.1\r\nHost: t\r\n"
                                    "Connection: close\r\n\r\n");
  EXPECT_EQ(status_of(head), 200) << head;
  EXPECT_NE(head.find("Content-Length: 40960\r\n"), std::string::npos) << head;
  EXPECT_EQ(body_of(head), "");
  EXPECT_EQ(recording.calls(), 1u);
  const std::string failed = exchange(server.port(),
                                      "GET /throw HTTP/1.1\r\nHost: t\r\n"
                                      "Connection: close\r\n\r\n");
  EXPECT_EQ(status_of(failed), 500) << failed;
  EXPECT_EQ(recording.calls(), 1u);
}

TEST(HttpServerWorkers, StopAnswersEveryRequestWaitingForAWorkerBeforeItEnds) {
  BlockingHandler blocking;
  std::atomic<int> asked{0};
  Server server(with_workers(2, 1), blocking.handler(), fast_paths(&asked));
  const int port = server.port();
  auto first = std::async(std::launch::async, [port] {
    return exchange(port, "GET /slow/1 HTTP/1.1\r\nHost: t\r\n\r\n");
  });
  ASSERT_TRUE(blocking.wait_entered());
  // The second waits in the queue behind the first, which holds the only worker.
  auto second = std::async(std::launch::async, [port] {
    return exchange(port, "GET /slow/2 HTTP/1.1\r\nHost: t\r\n\r\n");
  });
  ASSERT_TRUE(wait_until([&] { return asked.load() == 2; }));

  server.stop();
  blocking.release();
  EXPECT_TRUE(server.wait());
  for (auto* answer : {&first, &second}) {
    ASSERT_EQ(answer->wait_for(k_patience), std::future_status::ready);
    const std::string response = answer->get();
    EXPECT_EQ(status_of(response), 200) << response;
    EXPECT_EQ(body_of(response), "finished\n");
    EXPECT_NE(head_of(response).find("Connection: close\r\n"), std::string::npos) << response;
  }
}

TEST(HttpServerWorkers, AreGivenWithAQuickHandlerOrNotAtAll) {
  RecordingHandler recording;
  EXPECT_THROW(Server(with_workers(1, 0), recording.handler(), fast_paths()), core::UsageError);
  EXPECT_THROW(Server(with_workers(1, 1), recording.handler()), core::UsageError);
}

TEST(HttpServer, ThrowsEnvironmentErrorNamingAnAddressInUse) {
  RecordingHandler recording;
  Server first(test_options(), recording.handler());
  ServerOptions same = test_options();
  same.port = first.port();
  try {
    Server second(same, recording.handler());
    FAIL() << "a second server listened on the same port";
  } catch (const core::EnvironmentError& error) {
    EXPECT_NE(std::string(error.what()).find("127.0.0.1:" + std::to_string(first.port())),
              std::string::npos)
        << error.what();
  }
}

TEST(HttpServer, ThrowsUsageErrorForABindAddressThatIsNotNumeric) {
  ServerOptions options = test_options();
  options.bind = "localhost";
  EXPECT_THROW(Server(options, RecordingHandler().handler()), core::UsageError);
  options = test_options();
  options.threads = 0;
  EXPECT_THROW(Server(options, RecordingHandler().handler()), core::UsageError);
}

TEST(HttpServer, ServesUntilSigtermThenReturns) {
  RecordingHandler recording;
  Server server(test_options(), recording.handler());
  // SIGTERM may arrive before serve_until_signal has installed its handler: ignore it until then.
  struct sigaction ignore {};
  ignore.sa_handler = [](int) {};
  sigemptyset(&ignore.sa_mask);
  struct sigaction previous {};
  ASSERT_EQ(::sigaction(SIGTERM, &ignore, &previous), 0);

  auto serving = std::async(std::launch::async, [&] { serve_until_signal(server); });
  const testing::Answer answer = testing::curl_get(server.port(), "/");
  ASSERT_NE(answer.status, 0);
  EXPECT_EQ(answer.status, 200);
  const auto deadline = std::chrono::steady_clock::now() + k_patience;
  while (serving.wait_for(10ms) != std::future_status::ready &&
         std::chrono::steady_clock::now() < deadline) {
    ::kill(::getpid(), SIGTERM);
  }
  EXPECT_EQ(serving.wait_for(0s), std::future_status::ready);
  ::sigaction(SIGTERM, &previous, nullptr);
  RawClient late(server.port());
  EXPECT_FALSE(late.connected());
}

} // namespace
} // namespace podcrawl::http

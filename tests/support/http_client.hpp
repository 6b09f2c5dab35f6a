#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

// HTTP clients for tests: a plain HTTP/1.1 client over a socket, for tests that must see exactly
// what a server sends (status, headers, bytes) and send what no library would; and libcurl, for
// tests that want an ordinary client's view of an answer.
namespace podcrawl::testing {

// One answer as it came over the connection.
struct Answer {
  int status = 0;                             // 0 when nothing came back
  std::map<std::string, std::string> headers; // names lower case
  std::string body;
  std::size_t received = 0; // bytes received in all

  // The header's value, whatever the case of `name`; "" when it was not sent.
  std::string header(std::string name) const;
  // True when the whole body its Content-Length announced arrived.
  bool complete() const {
    return status != 0 && header("content-length") == std::to_string(body.size());
  }
};

// A connected socket to 127.0.0.1:port whose reads give up after ten seconds; -1 when the
// connection is refused.
int connect_to(int port);
bool send_all(int fd, std::string_view bytes);
// Send raw bytes on a new connection and read until the server closes it.
Answer send_request(int port, std::string_view request);
// A request with these extra header lines, Connection: close.
Answer request(int port, const std::string& method, const std::string& target,
               const std::vector<std::string>& headers = {});
Answer get(int port, const std::string& target, const std::vector<std::string>& headers = {});

// Text as a query parameter or form field carries it: every byte but RFC 3986's unreserved
// characters (letters, digits, - . _ ~) as %XX.
std::string percent_encoded(std::string_view text);

// GET http://127.0.0.1:<port><target> with libcurl, a client that checks the answer's framing
// and takes its body out of chunks, with these extra header lines; nothing is asked compressed
// and no proxy is used. Gives up after `timeout`; status 0 when the transfer failed.
Answer curl_get(int port, const std::string& target, const std::vector<std::string>& headers = {},
                std::chrono::seconds timeout = std::chrono::seconds(10));

} // namespace podcrawl::testing

#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

// A plain HTTP/1.1 client over a socket, for tests that must see exactly what a server sends
// (status, headers, bytes) and send what no library would.
namespace podcrawl::testing {

// One answer as it came over the connection.
struct Answer {
  int status = 0;                             // 0 when nothing came back
  std::map<std::string, std::string> headers; // names lower case
  std::string body;
  std::size_t received = 0; // bytes received in all

  std::string header(const std::string& name) const {
    const auto found = headers.find(name);
    return found == headers.end() ? "" : found->second;
  }
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

} // namespace podcrawl::testing

#include "support/http_client.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cctype>
#include <cstdint>
#include <sstream>
#include <stdexcept>

namespace podcrawl::testing {

int connect_to(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) {
    throw std::runtime_error("socket failed");
  }
  timeval timeout{10, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

bool send_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t sent = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (sent <= 0) {
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(sent));
  }
  return true;
}

namespace {

Answer parse_answer(const std::string& raw) {
  Answer answer;
  answer.received = raw.size();
  const auto head_end = raw.find("\r\n\r\n");
  if (head_end == std::string::npos || !raw.starts_with("HTTP/1.1 ")) {
    return answer;
  }
  answer.status = std::stoi(raw.substr(9, 3));
  std::istringstream lines(raw.substr(0, head_end));
  std::string line;
  std::getline(lines, line);
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == '\r') {
      line.pop_back();
    }
    const auto colon = line.find(':');
    if (colon == std::string::npos) {
      continue;
    }
    std::string name = line.substr(0, colon);
    for (char& c : name) {
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    answer.headers[name] = line.substr(line.find_first_not_of(' ', colon + 1));
  }
  answer.body = raw.substr(head_end + 4);
  return answer;
}

} // namespace

Answer send_request(int port, std::string_view request) {
  const int fd = connect_to(port);
  if (fd < 0) {
    return {};
  }
  std::string raw;
  if (send_all(fd, request)) {
    char buffer[65536];
    ssize_t n = 0;
    while ((n = ::recv(fd, buffer, sizeof buffer, 0)) > 0) {
      raw.append(buffer, static_cast<std::size_t>(n));
    }
  }
  ::close(fd);
  return parse_answer(raw);
}

Answer request(int port, const std::string& method, const std::string& target,
               const std::vector<std::string>& headers) {
  std::string text =
      method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n";
  for (const auto& header : headers) {
    text += header + "\r\n";
  }
  return send_request(port, text + "\r\n");
}

Answer get(int port, const std::string& target, const std::vector<std::string>& headers) {
  return request(port, "GET", target, headers);
}

} // namespace podcrawl::testing

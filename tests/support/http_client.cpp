#include "support/http_client.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <memory>
#include <sstream>
#include <stdexcept>

#include <curl/curl.h>

namespace podcrawl::testing {
namespace {

std::string lower_case(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// Add one "Name: value" line to the answer's headers; other lines (the status line, the blank
// line) are not headers.
void add_header_line(std::string_view line, Answer& answer) {
  while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) {
    line.remove_suffix(1);
  }
  const auto colon = line.find(':');
  if (colon == std::string_view::npos) {
    return;
  }
  const auto value = line.find_first_not_of(' ', colon + 1);
  answer.headers[lower_case(std::string(line.substr(0, colon)))] =
      value == std::string_view::npos ? "" : std::string(line.substr(value));
}

} // namespace

std::string Answer::header(std::string name) const {
  const auto found = headers.find(lower_case(std::move(name)));
  return found == headers.end() ? "" : found->second;
}

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
    add_header_line(line, answer);
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

namespace {

struct CurlCleanup {
  void operator()(CURL* curl) const { curl_easy_cleanup(curl); }
};
struct SlistFree {
  void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};

std::size_t take_body(char* data, std::size_t size, std::size_t count, void* cls) {
  auto& answer = *static_cast<Answer*>(cls);
  answer.body.append(data, size * count);
  answer.received += size * count;
  return size * count;
}

std::size_t take_header(char* data, std::size_t size, std::size_t count, void* cls) {
  auto& answer = *static_cast<Answer*>(cls);
  const std::string_view line(data, size * count);
  answer.received += line.size();
  if (line.starts_with("HTTP/")) {
    answer.headers.clear(); // a head after a 100 Continue replaces it
  }
  add_header_line(line, answer);
  return size * count;
}

} // namespace

Answer curl_get(int port, const std::string& target, const std::vector<std::string>& headers,
                std::chrono::seconds timeout) {
  const std::unique_ptr<CURL, CurlCleanup> curl(curl_easy_init());
  if (!curl) {
    throw std::runtime_error("curl_easy_init failed");
  }
  std::unique_ptr<curl_slist, SlistFree> header_lines;
  for (const auto& header : headers) {
    curl_slist* appended = curl_slist_append(header_lines.get(), header.c_str());
    if (appended == nullptr) {
      throw std::runtime_error("curl_slist_append failed");
    }
    header_lines.release();
    header_lines.reset(appended);
  }
  const std::string url = "http://127.0.0.1:" + std::to_string(port) + target;
  Answer answer;
  curl_easy_setopt(curl.get(), CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl.get(), CURLOPT_NOPROXY, "*");
  curl_easy_setopt(curl.get(), CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl.get(), CURLOPT_TIMEOUT, static_cast<long>(timeout.count()));
  curl_easy_setopt(curl.get(), CURLOPT_HTTPHEADER, header_lines.get());
  curl_easy_setopt(curl.get(), CURLOPT_WRITEFUNCTION, take_body);
  curl_easy_setopt(curl.get(), CURLOPT_WRITEDATA, &answer);
  curl_easy_setopt(curl.get(), CURLOPT_HEADERFUNCTION, take_header);
  curl_easy_setopt(curl.get(), CURLOPT_HEADERDATA, &answer);
  if (curl_easy_perform(curl.get()) != CURLE_OK) {
    return {};
  }
  long status = 0;
  curl_easy_getinfo(curl.get(), CURLINFO_RESPONSE_CODE, &status);
  answer.status = static_cast<int>(status);
  return answer;
}

std::string percent_encoded(std::string_view text) {
  static constexpr char k_hex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) != 0 || c == '-' || c == '.' || c == '_' || c == '~') {
      out += c;
    } else {
      out += '%';
      out += k_hex[byte >> 4];
      out += k_hex[byte & 0xf];
    }
  }
  return out;
}

} // namespace podcrawl::testing

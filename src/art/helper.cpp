#include "podcrawl/art/helper.hpp"

#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <vector>

#include <nlohmann/json.hpp>

#include "podcrawl/core/error.hpp"

extern char** environ;

namespace podcrawl::art {
namespace {

// How long a helper whose input was closed may take to exit before it is killed.
constexpr int k_exit_grace_ms = 2'000;
// The environment a helper keeps: libvips' own settings, where its libraries are found (an
// install under its own prefix), and the sanitizers' (test builds).
constexpr std::array<std::string_view, 5> k_kept_environment = {
    "VIPS_", "LD_LIBRARY_PATH=", "ASAN_", "UBSAN_", "LSAN_"};

constexpr std::array<std::pair<Refusal, std::string_view>, 5> k_refusals = {{
    {Refusal::none, "none"},
    {Refusal::too_many_bytes, "too_many_bytes"},
    {Refusal::too_many_pixels, "too_many_pixels"},
    {Refusal::not_an_image, "not_an_image"},
    {Refusal::broken, "broken"},
}};
constexpr std::array<std::pair<ImageFormat, std::string_view>, 4> k_formats = {{
    {ImageFormat::jpeg, "jpeg"},
    {ImageFormat::png, "png"},
    {ImageFormat::gif, "gif"},
    {ImageFormat::webp, "webp"},
}};

template <typename Value, std::size_t N>
std::string_view name_of(const std::array<std::pair<Value, std::string_view>, N>& names,
                         Value value) {
  for (const auto& [known, name] : names) {
    if (known == value) {
      return name;
    }
  }
  return {};
}

template <typename Value, std::size_t N>
std::optional<Value> value_of(const std::array<std::pair<Value, std::string_view>, N>& names,
                              std::string_view name) {
  for (const auto& [known, known_name] : names) {
    if (known_name == name) {
      return known;
    }
  }
  return std::nullopt;
}

// Wait until `fd` is ready for `events`, at most until `deadline` (forever without one); false
// on a timeout or an error.
bool ready(int fd, short events, std::optional<Deadline> deadline) {
  pollfd wanted{fd, events, 0};
  int count = 0;
  do {
    int timeout_ms = -1;
    if (deadline) {
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(
          *deadline - std::chrono::steady_clock::now());
      timeout_ms = static_cast<int>(std::max<std::int64_t>(0, left.count()));
    }
    count = poll(&wanted, 1, timeout_ms);
  } while (count < 0 && errno == EINTR);
  return count > 0;
}

// Wait at most `timeout_ms` for the child `pid` to exit; false when it is still running.
bool exited_within(pid_t pid, int timeout_ms) {
  const int pidfd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
  if (pidfd < 0) {
    return false;
  }
  const bool exited = ready(
      pidfd, POLLIN, std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms));
  close(pidfd);
  return exited;
}

// True when an accepted image's renditions are the ones the crawler asks for: each of
// rendition_widths() of the original, as WebP, no taller than the original. The helper decodes
// hostile bytes, so its word is checked, not trusted.
bool expected_renditions(const PreparedArt& art) {
  if (art.width <= 0 || art.height <= 0) {
    return false;
  }
  const std::vector<int> widths = rendition_widths(art.width, k_art_widths);
  if (widths.size() != art.renditions.size()) {
    return false;
  }
  for (std::size_t i = 0; i < widths.size(); ++i) {
    const Rendition& rendition = art.renditions[i];
    if (rendition.width != widths[i] || rendition.height <= 0 || rendition.height > art.height ||
        sniff_image(rendition.webp) != ImageFormat::webp) {
      return false;
    }
  }
  return true;
}

PreparedArt helper_failure(std::string error) {
  PreparedArt art;
  art.refusal = Refusal::broken;
  art.error = std::move(error);
  return art;
}

} // namespace

std::string encode_answer(const PreparedArt& art) {
  nlohmann::json header = {
      {"refusal", name_of(k_refusals, art.refusal)},
      {"error", art.error},
      {"format", art.format ? nlohmann::json(name_of(k_formats, *art.format)) : nullptr},
      {"width", art.width},
      {"height", art.height},
      {"renditions", nlohmann::json::array()},
  };
  std::string bodies;
  for (const Rendition& rendition : art.renditions) {
    header["renditions"].push_back({{"width", rendition.width},
                                    {"height", rendition.height},
                                    {"bytes", rendition.webp.size()}});
    bodies += rendition.webp;
  }
  // dump() escapes control characters, so the header is one line; replace: errors may quote
  // bytes that are not UTF-8.
  return header.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + '\n' + bodies;
}

std::optional<PreparedArt> decode_answer(std::string_view frame) try {
  const std::size_t line_end = frame.find('\n');
  if (line_end == std::string_view::npos) {
    return std::nullopt;
  }
  const nlohmann::json header = nlohmann::json::parse(frame.substr(0, line_end), nullptr, false);
  if (!header.is_object() || !header.value("refusal", nlohmann::json()).is_string() ||
      !header.value("renditions", nlohmann::json()).is_array()) {
    return std::nullopt;
  }
  PreparedArt art;
  const auto refusal = value_of(k_refusals, header["refusal"].get<std::string>());
  if (!refusal) {
    return std::nullopt;
  }
  art.refusal = *refusal;
  art.error = header.value("error", "");
  // find(), not operator[]: the header is const, and may lack any key.
  if (const auto format = header.find("format"); format != header.end() && !format->is_null()) {
    art.format = value_of(k_formats, format->get<std::string>()); // throws when not a string
    if (!art.format) {
      return std::nullopt;
    }
  }
  art.width = header.value("width", 0);
  art.height = header.value("height", 0);
  std::string_view bodies = frame.substr(line_end + 1);
  for (const nlohmann::json& item : header["renditions"]) {
    if (!item.is_object() || !item.value("bytes", nlohmann::json()).is_number_unsigned()) {
      return std::nullopt;
    }
    const auto size = item["bytes"].get<std::size_t>();
    if (size > bodies.size()) {
      return std::nullopt;
    }
    art.renditions.push_back(
        {item.value("width", 0), item.value("height", 0), std::string(bodies.substr(0, size))});
    bodies.remove_prefix(size);
  }
  if (!bodies.empty() || (art.refusal == Refusal::none && !expected_renditions(art))) {
    return std::nullopt;
  }
  return art;
} catch (const nlohmann::json::exception&) {
  return std::nullopt; // a value of another type than encode_answer writes
}

std::optional<std::string> read_frame(int fd, std::size_t max_bytes,
                                      std::optional<Deadline> deadline) {
  const auto read_all = [fd, deadline](char* into, std::size_t size) {
    while (size > 0) {
      if (deadline && !ready(fd, POLLIN, deadline)) {
        return false;
      }
      const ssize_t got = read(fd, into, size);
      if (got < 0 && errno == EINTR) {
        continue;
      }
      if (got <= 0) {
        return false;
      }
      into += got;
      size -= static_cast<std::size_t>(got);
    }
    return true;
  };
  std::array<unsigned char, 8> length_bytes{};
  if (!read_all(reinterpret_cast<char*>(length_bytes.data()), length_bytes.size())) {
    return std::nullopt;
  }
  std::uint64_t length = 0;
  for (std::size_t i = length_bytes.size(); i-- > 0;) {
    length = (length << 8) | length_bytes[i];
  }
  if (length > max_bytes) {
    return std::nullopt;
  }
  std::string payload(static_cast<std::size_t>(length), '\0');
  if (!read_all(payload.data(), payload.size())) {
    return std::nullopt;
  }
  return payload;
}

bool write_frame(int fd, std::string_view payload, std::optional<Deadline> deadline) {
  std::string frame(8, '\0');
  std::uint64_t length = payload.size();
  for (char& byte : frame) {
    byte = static_cast<char>(length & 0xff);
    length >>= 8;
  }
  frame += payload;
  std::string_view left = frame;
  while (!left.empty()) {
    if (deadline && !ready(fd, POLLOUT, deadline)) {
      return false;
    }
    // A socket, so that a helper gone away is an error here and not a SIGPIPE for the crawler.
    ssize_t sent = send(fd, left.data(), left.size(), MSG_NOSIGNAL);
    if (sent < 0 && errno == ENOTSOCK) {
      sent = write(fd, left.data(), left.size()); // run by hand, onto a pipe or a file
    }
    if (sent < 0 && errno == EINTR) {
      continue;
    }
    if (sent <= 0) {
      return false;
    }
    left.remove_prefix(static_cast<std::size_t>(sent));
  }
  return true;
}

ArtHelper::ArtHelper(std::filesystem::path program, ImageLimits limits,
                     std::chrono::milliseconds image_timeout)
    : m_program(std::move(program)), m_limits(limits), m_image_timeout(image_timeout) {}

ArtHelper::~ArtHelper() {
  stop();
}

void ArtHelper::start() {
  std::array<int, 2> ends{-1, -1};
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends.data()) != 0) {
    throw core::EnvironmentError(std::string("cannot start the image helper: ") +
                                 std::strerror(errno));
  }
  // The child gets the socket as its input and output and nothing else: no descriptor of the
  // crawler's (sockets to feed hosts, the database), no environment but libvips' own settings.
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, ends[1], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, ends[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclosefrom_np(&actions, STDERR_FILENO + 1);
  const std::string program = m_program.string();
  const std::string max_bytes = std::to_string(m_limits.max_bytes);
  const std::string max_pixels = std::to_string(m_limits.max_pixels);
  std::array<char*, 6> argv = {
      const_cast<char*>(program.c_str()),    const_cast<char*>("--max-bytes"),
      const_cast<char*>(max_bytes.c_str()),  const_cast<char*>("--max-pixels"),
      const_cast<char*>(max_pixels.c_str()), nullptr};
  std::vector<char*> environment;
  for (char** variable = environ; *variable != nullptr; ++variable) {
    const std::string_view text = *variable;
    if (std::any_of(k_kept_environment.begin(), k_kept_environment.end(),
                    [text](std::string_view prefix) { return text.starts_with(prefix); })) {
      environment.push_back(*variable);
    }
  }
  environment.push_back(nullptr);
  pid_t pid = -1;
  const int status =
      posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environment.data());
  posix_spawn_file_actions_destroy(&actions);
  close(ends[1]);
  if (status != 0) {
    close(ends[0]);
    // A missing program is a build that stopped short: say which target makes it.
    const std::string hint = status == ENOENT || status == EACCES
                                 ? " (it is built with podcrawl: cmake --build build --target " +
                                       m_program.filename().string() + ")"
                                 : std::string();
    throw core::EnvironmentError("cannot start the image helper " + program + ": " +
                                 std::strerror(status) + hint);
  }
  m_socket = ends[0];
  m_pid = pid;
}

void ArtHelper::stop() {
  if (m_socket >= 0) {
    close(m_socket); // the helper reads end of input and exits
    m_socket = -1;
  }
  if (m_pid > 0) {
    if (!exited_within(m_pid, k_exit_grace_ms)) {
      kill(m_pid, SIGKILL);
    }
    int status = 0;
    while (waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
    }
    m_pid = -1;
  }
}

std::optional<PreparedArt> ArtHelper::ask(std::string_view image) {
  if (m_socket < 0) {
    start();
  }
  const Deadline deadline = std::chrono::steady_clock::now() + m_image_timeout;
  std::optional<std::string> answer;
  if (write_frame(m_socket, image, deadline)) {
    answer = read_frame(m_socket, k_max_answer_bytes, deadline);
  }
  std::optional<PreparedArt> art = answer ? decode_answer(*answer) : std::nullopt;
  if (!art) {
    // Dead, stuck or talking nonsense: a new helper for the next image.
    if (m_pid > 0) {
      kill(m_pid, SIGKILL);
    }
    stop();
  }
  return art;
}

PreparedArt ArtHelper::prepare(std::string_view image) {
  if (image.size() > m_limits.max_bytes) {
    PreparedArt art;
    art.refusal = Refusal::too_many_bytes;
    art.error = "the image is over " + std::to_string(m_limits.max_bytes) + " bytes";
    return art;
  }
  // A helper can die of something else than this image (a previous one's damage, memory):
  // a fresh helper gets a second try, and an image that stops two is refused.
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (std::optional<PreparedArt> art = ask(image)) {
      return std::move(*art);
    }
  }
  return helper_failure("the image decoder stopped on this image");
}

std::filesystem::path default_helper_program() {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  return (error ? std::filesystem::path() : self.parent_path()) / "podcrawl-art";
}

} // namespace podcrawl::art

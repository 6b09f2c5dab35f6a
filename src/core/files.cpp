#include "podcrawl/core/files.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>

#include "podcrawl/core/error.hpp"

namespace podcrawl::core {

namespace fs = std::filesystem;

void write_file_atomically(const fs::path& file, std::string_view content) {
  static std::atomic<std::uint64_t> next_temporary{0};
  std::error_code error;
  fs::create_directories(file.parent_path(), error);
  std::string name = ".";
  name += file.filename().string();
  name += ".tmp-" + std::to_string(static_cast<long>(::getpid())) + "-" +
          std::to_string(next_temporary++);
  const fs::path temporary = file.parent_path() / name;
  const auto fail = [&](const std::string& reason) {
    fs::remove(temporary, error);
    throw EnvironmentError("cannot write " + file.string() + ": " + reason);
  };
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    throw EnvironmentError("cannot write " + temporary.string() + ": " + std::strerror(errno));
  }
  std::size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      const int number = n < 0 ? errno : ENOSPC;
      ::close(fd);
      fail(std::strerror(number));
    }
    written += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) {
    fail(std::strerror(errno));
  }
  fs::rename(temporary, file, error);
  if (error) {
    fail(error.message());
  }
}

} // namespace podcrawl::core

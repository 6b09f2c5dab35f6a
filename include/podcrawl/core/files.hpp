#pragma once

#include <filesystem>
#include <string_view>
#include <utility>

#include <unistd.h>

namespace podcrawl::core {

// A file descriptor with one owner, closed with it.
class FileDescriptor {
public:
  explicit FileDescriptor(int fd = -1) : m_fd(fd) {}
  ~FileDescriptor() { reset(); }
  FileDescriptor(FileDescriptor&& other) noexcept : m_fd(other.release()) {}
  FileDescriptor& operator=(FileDescriptor&& other) noexcept {
    if (this != &other) {
      reset();
      m_fd = other.release();
    }
    return *this;
  }
  int get() const { return m_fd; }
  int release() { return std::exchange(m_fd, -1); }
  void reset() {
    if (m_fd >= 0) {
      ::close(m_fd);
      m_fd = -1;
    }
  }

private:
  int m_fd;
};

// Write `content` to `file` through a hidden temporary file in the same folder and a rename, so
// that a reader sees the old file or the new one, never half of one; the folder is created
// when missing. Throws core::EnvironmentError with the system's reason ("No space left on
// device") when writing fails, and leaves no temporary file behind. Safe from several threads,
// for different files.
void write_file_atomically(const std::filesystem::path& file, std::string_view content);

} // namespace podcrawl::core

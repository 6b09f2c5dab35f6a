#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "podcrawl/core/error.hpp"
#include "render_internal.hpp"

// A render writes a copy of the site and swaps it in. The copy starts as hard links to the
// previous site's files: an unchanged page keeps its file and modification time and costs no
// space, and a changed one is written to a new file (write_file_atomically renames over the
// link), so the previous site is never touched until the swap. A render that fails (a full disk,
// an unreadable template, a kill) leaves the previous site exactly as it was.

namespace podcrawl::render::internal {
namespace {

namespace fs = std::filesystem;

std::string error_text(int number) {
  return std::strerror(number);
}

// The folder with no trailing separator and no "." or ".." parts.
fs::path folder_path(const fs::path& out_dir) {
  fs::path path = fs::absolute(out_dir).lexically_normal();
  if (path.filename().empty()) {
    path = path.parent_path();
  }
  return path;
}

std::string staging_prefix(const fs::path& site) {
  return "." + site.filename().string() + ".render-";
}

// Copies left by renders that were killed before they could remove them.
void remove_abandoned_copies(const fs::path& site) {
  std::error_code error;
  const std::string prefix = staging_prefix(site);
  for (const auto& entry : fs::directory_iterator(site.parent_path(), error)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with(prefix)) {
      continue;
    }
    const long pid = std::strtol(name.c_str() + prefix.size(), nullptr, 10);
    if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) {
      fs::remove_all(entry.path(), error);
    }
  }
}

// Mirror `from` into the empty folder `to`: folders created, files hard-linked (copied where a
// link is refused), symbolic links copied.
void link_tree(const fs::path& from, const fs::path& to) {
  for (auto it = fs::recursive_directory_iterator(from); it != fs::recursive_directory_iterator();
       ++it) {
    const fs::path target = to / fs::relative(it->path(), from);
    std::error_code error;
    if (it->is_symlink()) {
      fs::copy_symlink(it->path(), target, error);
    } else if (it->is_directory()) {
      fs::create_directory(target, error);
    } else if (it->is_regular_file()) {
      fs::create_hard_link(it->path(), target, error);
      if (error) {
        error.clear();
        fs::copy_file(it->path(), target, error);
      }
    }
    if (error) {
      throw core::EnvironmentError("cannot copy " + it->path().string() +
                                   " for the render: " + error.message());
    }
  }
}

} // namespace

StagedSite::StagedSite(const fs::path& out_dir) : m_site(folder_path(out_dir)) {
  std::error_code error;
  if (fs::exists(m_site, error) && !fs::is_directory(m_site, error)) {
    throw core::UsageError(m_site.string() + " is not a folder");
  }
  remove_abandoned_copies(m_site);
  m_copy = m_site.parent_path() / (staging_prefix(m_site) + std::to_string(::getpid()));
  fs::remove_all(m_copy, error);
  if (!fs::create_directories(m_copy, error)) {
    throw core::EnvironmentError("cannot create " + m_copy.string() +
                                 " to render into: " + error.message());
  }
  if (fs::is_directory(m_site)) {
    link_tree(m_site, m_copy);
  }
}

StagedSite::~StagedSite() {
  std::error_code error;
  fs::remove_all(m_copy, error);
}

void StagedSite::publish() {
  std::error_code error;
  if (!fs::exists(m_site, error)) {
    fs::rename(m_copy, m_site, error);
    if (error) {
      throw core::EnvironmentError("cannot move the render to " + m_site.string() + ": " +
                                   error.message());
    }
    return;
  }
  // One step: the site's path names the new site at once, never nothing or half of one.
  if (::renameat2(AT_FDCWD, m_copy.c_str(), AT_FDCWD, m_site.c_str(), RENAME_EXCHANGE) != 0) {
    throw core::EnvironmentError("cannot swap the render into " + m_site.string() + ": " +
                                 error_text(errno));
  }
  // m_copy now names the previous site, which the destructor removes.
}

void write_file_atomically(const fs::path& file, std::string_view content) {
  // An unchanged page keeps its file (and its modification time): cron can render after every
  // crawl, and rsync or a CDN sees only what changed.
  if (holds(file, content)) {
    return;
  }
  std::error_code error;
  fs::create_directories(file.parent_path(), error);
  const fs::path temporary = file.parent_path() / ("." + file.filename().string() + ".tmp-" +
                                                   std::to_string(static_cast<long>(::getpid())));
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    throw core::EnvironmentError("cannot write " + temporary.string() + ": " + error_text(errno));
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
      fs::remove(temporary, error);
      throw core::EnvironmentError("cannot write " + file.string() + ": " + error_text(number));
    }
    written += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) {
    const int number = errno;
    fs::remove(temporary, error);
    throw core::EnvironmentError("cannot write " + file.string() + ": " + error_text(number));
  }
  fs::rename(temporary, file, error);
  if (error) {
    fs::remove(temporary, error);
    throw core::EnvironmentError("cannot write " + file.string() + ": " + error.message());
  }
}

} // namespace podcrawl::render::internal

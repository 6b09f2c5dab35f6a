#include <sys/file.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "podcrawl/core/error.hpp"
#include "podcrawl/core/files.hpp"
#include "publish_internal.hpp"

// How a render changes the published site without ever leaving half of it, and without touching
// every file each time. Beside the site at <parent>/<name> live:
//
//   .<name>.lock    held (flock) by the one render writing the site
//   .<name>.state/  what the published site reflects: `state` (options, snapshot, times),
//                   `shows` (each show's pages and when they expire), `lists` (list pages)
//   .<name>.next/   a replacement being built: the whole new site (site/) and its state (state/)
//   .<name>.update/ an update being built: only the changed files (site/), the new state
//                   (state/), and, once committed, `committed`, listing the files to remove
//
// A replacement is swapped in with one rename (RENAME_EXCHANGE); the previous state is removed
// first, so a kill between the two leaves a site without state, which the next render replaces
// again. An update is committed by writing `committed`, then applied: each staged file renamed
// over its published one, the listed files removed, the state moved. A kill before the commit
// leaves the published site as it was (the next render discards the staging); a kill while
// applying leaves every file whole, and the next render finishes applying before it starts.

namespace podcrawl::publish::internal {
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

// ".<name><suffix>" for the file or folder <name>. Built by appending: GCC 12 at -O3 reports a
// false -Wrestrict on "." + std::string.
std::string hidden_name(const fs::path& path, std::string_view suffix) {
  std::string name = ".";
  name += path.filename().string();
  name += suffix;
  return name;
}

fs::path beside(const fs::path& path, std::string_view suffix) {
  return path.parent_path() / hidden_name(path, suffix);
}

// Copies left by renders of earlier versions, which staged a whole linked copy per process.
void remove_abandoned_copies(const fs::path& site) {
  std::error_code error;
  const std::string prefix = hidden_name(site, ".render-");
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

void create_folder(const fs::path& folder) {
  std::error_code error;
  fs::create_directories(folder, error);
  if (error) {
    throw core::EnvironmentError("cannot create " + folder.string() + ": " + error.message());
  }
}

void move_file(const fs::path& from, const fs::path& to) {
  std::error_code error;
  fs::create_directories(to.parent_path(), error);
  fs::rename(from, to, error);
  if (error) {
    throw core::EnvironmentError("cannot move " + from.string() + " to " + to.string() + ": " +
                                 error.message());
  }
}

// Move every file under `from` to the same place under `to`.
void move_tree(const fs::path& from, const fs::path& to) {
  std::error_code error;
  if (!fs::is_directory(from, error)) {
    return;
  }
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(from)) {
    if (entry.is_regular_file()) {
      files.push_back(entry.path());
    }
  }
  for (const auto& file : files) {
    move_file(file, to / fs::relative(file, from));
  }
}

// Remove a file of the site, and the folders it leaves empty up to the site's root.
void remove_from_site(const fs::path& site, const std::string& relative) {
  std::error_code error;
  fs::path path = site / relative;
  fs::remove_all(path, error);
  for (path = path.parent_path(); path != site && path.string().size() > site.string().size();
       path = path.parent_path()) {
    if (!fs::is_empty(path, error) || error || !fs::remove(path, error)) {
      break;
    }
  }
}

std::vector<std::string> read_lines(const fs::path& file) {
  std::vector<std::string> lines;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) {
      lines.push_back(line);
    }
  }
  return lines;
}

} // namespace

SiteFiles::SiteFiles(const fs::path& out_dir)
    : m_site(folder_path(out_dir)),
      m_state(beside(m_site, ".state")),
      m_next(beside(m_site, ".next")),
      m_update(beside(m_site, ".update")) {
  std::error_code error;
  if (fs::exists(m_site, error) && !fs::is_directory(m_site, error)) {
    throw core::UsageError(m_site.string() + " is not a folder");
  }
  create_folder(m_site.parent_path());
  const fs::path lock = beside(m_site, ".lock");
  m_lock = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (m_lock < 0) {
    throw core::EnvironmentError("cannot open " + lock.string() + ": " + error_text(errno));
  }
  if (::flock(m_lock, LOCK_EX | LOCK_NB) != 0) {
    const int number = errno;
    ::close(m_lock);
    m_lock = -1;
    throw core::EnvironmentError(number == EWOULDBLOCK
                                     ? "another render is writing " + m_site.string()
                                     : "cannot lock " + lock.string() + ": " + error_text(number));
  }
  remove_abandoned_copies(m_site);
  if (fs::exists(m_update / "committed", error)) {
    apply_update();
  }
  fs::remove_all(m_update, error);
  fs::remove_all(m_next, error);
}

SiteFiles::~SiteFiles() {
  std::error_code error;
  if (!m_committed) {
    fs::remove_all(m_staging, error);
  }
  if (m_lock >= 0) {
    ::close(m_lock);
  }
}

void SiteFiles::begin(Mode mode) {
  m_mode = mode;
  m_staging = mode == Mode::replace ? m_next : m_update;
  create_folder(m_staging / "site");
  create_folder(m_staging / "state");
}

bool SiteFiles::site_exists() const {
  std::error_code error;
  return fs::is_regular_file(m_site / "index.html", error);
}

fs::path SiteFiles::state_file(std::string_view name) const {
  return m_state / std::string(name);
}

fs::path SiteFiles::staged_state_file(std::string_view name) const {
  return m_staging / "state" / std::string(name);
}

bool SiteFiles::write(const std::string& relative, std::string_view content) {
  const fs::path published = m_site / relative;
  const fs::path staged = m_staging / "site" / relative;
  if (holds(published, content)) {
    if (m_mode == Mode::update) {
      return false;
    }
    // The replacement keeps the published file itself: its inode and modification time.
    std::error_code error;
    fs::create_directories(staged.parent_path(), error);
    fs::remove(staged, error);
    fs::create_hard_link(published, staged, error);
    if (!error) {
      return false;
    }
  }
  core::write_file_atomically(staged, content);
  ++m_written;
  return true;
}

SiteFiles::Placed SiteFiles::place(const std::string& relative, const fs::path& source) {
  const fs::path published = m_site / relative;
  const fs::path staged = m_staging / "site" / relative;
  std::error_code error;
  if (fs::exists(staged, error)) {
    return Placed::kept;
  }
  const bool is_published = fs::is_regular_file(published, error);
  if (is_published && m_mode == Mode::update) {
    return Placed::kept;
  }
  const fs::path& from = is_published ? published : source;
  if (!is_published && !fs::is_regular_file(source, error)) {
    return Placed::missing;
  }
  fs::create_directories(staged.parent_path(), error);
  error.clear();
  fs::create_hard_link(from, staged, error);
  if (error) {
    // Another file system: a copy, renamed into place so that no reader sees half of it.
    const fs::path temporary =
        beside(staged, ".tmp-" + std::to_string(static_cast<long>(::getpid())));
    error.clear();
    fs::copy_file(from, temporary, fs::copy_options::overwrite_existing, error);
    if (!error) {
      fs::rename(temporary, staged, error);
    }
    if (error) {
      std::error_code ignored;
      fs::remove(temporary, ignored);
      throw core::EnvironmentError("cannot copy " + from.string() +
                                   " into the site: " + error.message());
    }
  }
  if (is_published) {
    return Placed::kept;
  }
  ++m_written;
  return Placed::written;
}

void SiteFiles::remove(const std::string& relative) {
  std::error_code error;
  if (m_mode == Mode::replace || !fs::exists(fs::symlink_status(m_site / relative, error))) {
    return;
  }
  std::lock_guard lock(m_mutex);
  m_removals.push_back(relative);
}

std::vector<std::string> SiteFiles::published_files(const std::string& folder,
                                                    bool recursive) const {
  std::vector<std::string> files;
  std::error_code error;
  const fs::path root = m_site / folder;
  if (!fs::is_directory(root, error)) {
    return files;
  }
  const auto add = [&](const fs::directory_entry& entry) {
    if (entry.is_regular_file()) {
      files.push_back(fs::relative(entry.path(), m_site).string());
    }
  };
  if (recursive) {
    for (const auto& entry : fs::recursive_directory_iterator(root, error)) {
      add(entry);
    }
  } else {
    for (const auto& entry : fs::directory_iterator(root, error)) {
      add(entry);
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::int64_t SiteFiles::removed() const {
  std::lock_guard lock(m_mutex);
  return static_cast<std::int64_t>(m_removals.size());
}

void SiteFiles::commit() {
  std::error_code error;
  if (m_mode == Mode::update) {
    std::string removals;
    for (const auto& relative : m_removals) {
      removals += relative + "\n";
    }
    core::write_file_atomically(m_update / "committed", removals);
    m_committed = true;
    apply_update();
    return;
  }
  // Without state, a site half swapped in is replaced again by the next render.
  fs::remove_all(m_state, error);
  if (!fs::exists(m_site, error)) {
    fs::rename(m_next / "site", m_site, error);
    if (error) {
      throw core::EnvironmentError("cannot move the render to " + m_site.string() + ": " +
                                   error.message());
    }
  } else if (::renameat2(AT_FDCWD, (m_next / "site").c_str(), AT_FDCWD, m_site.c_str(),
                         RENAME_EXCHANGE) != 0) {
    // One step: the site's path names the new site at once, never nothing or half of one.
    throw core::EnvironmentError("cannot swap the render into " + m_site.string() + ": " +
                                 error_text(errno));
  }
  m_committed = true;
  fs::rename(m_next / "state", m_state, error);
  if (error) {
    throw core::EnvironmentError("cannot write " + m_state.string() + ": " + error.message());
  }
  fs::remove_all(m_next, error); // the previous site
}

void SiteFiles::apply_update() {
  move_tree(m_update / "site", m_site);
  for (const auto& relative : read_lines(m_update / "committed")) {
    remove_from_site(m_site, relative);
  }
  create_folder(m_state);
  move_tree(m_update / "state", m_state);
  std::error_code error;
  fs::remove_all(m_update, error);
}

// True when `file` already holds exactly `content`.
bool holds(const fs::path& file, std::string_view content) {
  std::error_code error;
  if (std::filesystem::file_size(file, error) != content.size() || error) {
    return false;
  }
  std::ifstream in(file, std::ios::binary);
  std::string existing(content.size(), '\0');
  in.read(existing.data(), static_cast<std::streamsize>(existing.size()));
  return in && existing == content;
}

} // namespace podcrawl::publish::internal

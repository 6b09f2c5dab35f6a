#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace podcrawl::testing {

// A new empty directory under the system temp folder, removed with its contents at the end.
class TempDir {
public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return m_path; }

private:
  std::filesystem::path m_path;
};

// Sets (or, with nullopt, unsets) an environment variable for the scope; restores it after.
class ScopedEnv {
public:
  ScopedEnv(std::string name, std::optional<std::string> value);
  ~ScopedEnv();
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
  std::string m_name;
  std::optional<std::string> m_saved;
};

// Read a whole file; throws std::runtime_error when it cannot.
std::string read_file(const std::filesystem::path& file);
// Write a whole file, creating parent folders.
void write_file(const std::filesystem::path& file, const std::string& content);

} // namespace podcrawl::testing

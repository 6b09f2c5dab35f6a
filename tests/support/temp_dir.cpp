#include "support/temp_dir.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace podcrawl::testing {

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "podcrawl-test-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("mkdtemp failed for " + pattern);
  }
  m_path = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(m_path, ignored);
}

ScopedEnv::ScopedEnv(std::string name, std::optional<std::string> value) : m_name(std::move(name)) {
  if (const char* old = std::getenv(m_name.c_str()); old != nullptr) {
    m_saved = old;
  }
  if (value) {
    setenv(m_name.c_str(), value->c_str(), 1);
  } else {
    unsetenv(m_name.c_str());
  }
}

ScopedEnv::~ScopedEnv() {
  if (m_saved) {
    setenv(m_name.c_str(), m_saved->c_str(), 1);
  } else {
    unsetenv(m_name.c_str());
  }
}

std::string read_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    throw std::runtime_error("cannot read " + file.string());
  }
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

void write_file(const std::filesystem::path& file, const std::string& content) {
  if (file.has_parent_path()) {
    std::filesystem::create_directories(file.parent_path());
  }
  std::ofstream out(file, std::ios::binary);
  out << content;
  if (!out) {
    throw std::runtime_error("cannot write " + file.string());
  }
}

} // namespace podcrawl::testing

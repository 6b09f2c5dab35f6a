#include "podcrawl/core/config.hpp"

namespace podcrawl::core {

std::filesystem::path source_dir() {
  return PODCRAWL_SOURCE_DIR;
}

} // namespace podcrawl::core

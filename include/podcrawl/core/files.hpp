#pragma once

#include <filesystem>
#include <string_view>

namespace podcrawl::core {

// Write `content` to `file` through a hidden temporary file in the same folder and a rename, so
// that a reader sees the old file or the new one, never half of one; the folder is created
// when missing. Throws core::EnvironmentError with the system's reason ("No space left on
// device") when writing fails, and leaves no temporary file behind. Safe from several threads,
// for different files.
void write_file_atomically(const std::filesystem::path& file, std::string_view content);

} // namespace podcrawl::core

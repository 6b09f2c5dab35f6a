#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "podcrawl/art/image.hpp"

namespace podcrawl::art {

// The frames between the crawler and `podcrawl-art`, the program that decodes images (libvips
// and its decoders stay out of the crawler's process and its start-up). Each frame is an
// 8-byte little-endian length and that many bytes. A request is an image's bytes; an answer
// is one line of JSON (refusal, error, format, width, height, each rendition's width, height
// and size) and the renditions' WebP bytes one after another.
std::string encode_answer(const PreparedArt& art);
// The answer a frame holds; nullopt when it is not one encode_answer wrote.
std::optional<PreparedArt> decode_answer(std::string_view frame);

// The longest frame either side accepts: a request of ImageLimits' largest byte bound, or an
// answer of renditions of at most the largest width.
inline constexpr std::size_t k_max_frame_bytes = 256 * 1024 * 1024;

// Read one frame from `fd`: its payload, or nullopt at end of input, on a read error or on a
// frame over `max_bytes`.
std::optional<std::string> read_frame(int fd, std::size_t max_bytes);
// Write one frame to `fd`; false when the other side is gone.
bool write_frame(int fd, std::string_view payload);

// A `podcrawl-art` child process and the socket to it. prepare() sends an image and waits for
// its answer; when the child has died (an image crashed its decoder, say) the image is refused
// as broken and the next call starts a new child. Not thread-safe: one per thread.
class ArtHelper {
public:
  // `program`: the podcrawl-art executable. Nothing is started until the first image.
  ArtHelper(std::filesystem::path program, ImageLimits limits);
  ~ArtHelper();
  ArtHelper(const ArtHelper&) = delete;
  ArtHelper& operator=(const ArtHelper&) = delete;

  PreparedArt prepare(std::string_view image);

private:
  bool start();
  void stop();

  std::filesystem::path m_program;
  ImageLimits m_limits;
  int m_socket = -1;
  int m_pid = -1;
};

// The podcrawl-art beside the running program (the build folder, or the installed bin/).
std::filesystem::path default_helper_program();

} // namespace podcrawl::art

#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
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

// The longest answer the crawler accepts: WebP renditions at most 1,400 pixels wide of an image
// within ImageLimits' pixel bound are far smaller.
inline constexpr std::size_t k_max_answer_bytes = 64 * 1024 * 1024;

using Deadline = std::chrono::steady_clock::time_point;

// Read one frame from `fd`: its payload, or nullopt at end of input, on a read error, on a
// frame over `max_bytes`, or when the whole frame has not arrived by `deadline`.
std::optional<std::string> read_frame(int fd, std::size_t max_bytes,
                                      std::optional<Deadline> deadline = std::nullopt);
// Write one frame to `fd`; false when the other side is gone or has not taken it all by
// `deadline`.
bool write_frame(int fd, std::string_view payload, std::optional<Deadline> deadline = std::nullopt);

// A `podcrawl-art` child process and the socket to it. prepare() sends an image and waits a
// bounded time for its whole answer. A child that dies, stalls or answers nonsense is killed and
// the image tried once more on a new one; an image that stops two is refused as broken. A
// helper that cannot be started throws core::EnvironmentError: that is an installation's
// fault, not an image's. Not thread-safe: one per thread.
class ArtHelper {
public:
  // `program`: the podcrawl-art executable. Nothing is started until the first image, which
  // may take `image_timeout` from its first byte sent to its answer's last byte received.
  ArtHelper(std::filesystem::path program, ImageLimits limits,
            std::chrono::milliseconds image_timeout = std::chrono::seconds(30));
  ~ArtHelper();
  ArtHelper(const ArtHelper&) = delete;
  ArtHelper& operator=(const ArtHelper&) = delete;

  PreparedArt prepare(std::string_view image);

private:
  void start();
  void stop();
  // The answer of one exchange with the helper (started when needed); nullopt when it failed,
  // and the helper is then gone.
  std::optional<PreparedArt> ask(std::string_view image);

  std::filesystem::path m_program;
  ImageLimits m_limits;
  std::chrono::milliseconds m_image_timeout;
  int m_socket = -1;
  int m_pid = -1;
};

// The podcrawl-art beside the running program (the build folder, or the installed bin/).
std::filesystem::path default_helper_program();

} // namespace podcrawl::art

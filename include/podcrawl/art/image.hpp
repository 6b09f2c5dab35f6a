#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace podcrawl::art {

// The image formats cover art is accepted in, told by their first bytes, never by a
// Content-Type or a file name.
enum class ImageFormat { jpeg, png, gif, webp };

// Bounds on one image, checked before anything is decoded.
struct ImageLimits {
  std::size_t max_bytes = 20 * 1024 * 1024; // the encoded file
  std::int64_t max_pixels = 40'000'000;     // width x height, read from the header
};

// One re-encoded width of an image: WebP, sRGB, upright, without metadata.
struct Rendition {
  int width = 0;
  int height = 0;
  std::string webp;
};

// Why an image was refused.
enum class Refusal {
  none,
  too_many_bytes,  // the file is over ImageLimits::max_bytes
  too_many_pixels, // its header declares more than ImageLimits::max_pixels
  not_an_image,    // its bytes are not JPEG, PNG, GIF or WebP (HTML, SVG, text, ...)
  broken           // it starts as an image but does not decode (truncated, corrupt)
};

struct PreparedArt {
  Refusal refusal = Refusal::none;
  std::string error;                 // one line, when refused
  std::optional<ImageFormat> format; // as sniffed
  int width = 0;                     // the original's, upright
  int height = 0;
  std::vector<Rendition> renditions; // narrowest first; none wider than the original
};

// The format an image's first bytes announce; nullopt for anything else, SVG included.
std::optional<ImageFormat> sniff_image(std::string_view bytes);

// The widths to make of an image `width` pixels wide: each of `wanted` narrower than it, and
// the image's own width when it is narrower than the widest wanted. Ascending.
std::vector<int> rendition_widths(int width, std::span<const int> wanted);

// Verify, decode and re-encode cover art: refuse it when over the byte bound, when its first
// bytes are not JPEG, PNG, GIF or WebP, or when its header declares more pixels than the bound
// (before decoding a pixel); else apply its EXIF orientation, convert it to sRGB (CMYK and
// 16-bit included), take the first frame of an animation, and write each of rendition_widths()
// as WebP without any metadata. Thread-safe; never throws for bad bytes.
PreparedArt prepare_art(std::string_view bytes, const ImageLimits& limits,
                        std::span<const int> widths);

// The widths the directory shows cover art at.
inline constexpr int k_art_widths[] = {160, 400, 1400};

} // namespace podcrawl::art

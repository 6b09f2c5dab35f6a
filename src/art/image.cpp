#include "podcrawl/art/image.hpp"

#include <vips/vips.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <mutex>

namespace podcrawl::art {
namespace {

// Thumbnail heights are bounded by the width asked for: the height bound is this.
constexpr int k_unbounded_height = 10'000'000;
constexpr int k_webp_quality = 80;

struct ImageUnref {
  void operator()(VipsImage* image) const { g_object_unref(image); }
};
using Image = std::unique_ptr<VipsImage, ImageUnref>;

// Once per process: libvips started, its operation cache off (each image is seen once, and the
// cache would hold decoded pixels), one thread per image (the crawl runs images side by side),
// and every loader libvips marks untrusted (ImageMagick, PDF, SVG, ...) blocked.
void start_vips() {
  static std::once_flag started;
  std::call_once(started, [] {
    if (VIPS_INIT("podcrawl") != 0) {
      return;
    }
    vips_cache_set_max(0);
    vips_concurrency_set(1);
    vips_block_untrusted_set(TRUE);
  });
}

// libvips' last error as one line, and cleared. Its error buffer is shared by every thread, so
// under load the line may name another image's error; it is only ever shown, never acted on.
std::string vips_failure(std::string_view what) {
  std::string message(vips_error_buffer());
  vips_error_clear();
  std::replace(message.begin(), message.end(), '\n', ' ');
  while (!message.empty() && message.back() == ' ') {
    message.pop_back();
  }
  return std::string(what) + (message.empty() ? "" : ": " + message);
}

// The image's header (pixels are decoded only when read): JPEG shrunk by `shrink` on load.
Image load(ImageFormat format, std::string_view bytes, int shrink) {
  void* data = const_cast<char*>(bytes.data()); // libvips reads the buffer, never writes it
  VipsImage* image = nullptr;
  int status = -1;
  switch (format) {
    case ImageFormat::jpeg:
      status =
          vips_jpegload_buffer(data, bytes.size(), &image, "shrink", shrink, "access",
                               VIPS_ACCESS_SEQUENTIAL, "fail_on", VIPS_FAIL_ON_TRUNCATED, nullptr);
      break;
    case ImageFormat::png:
      status = vips_pngload_buffer(data, bytes.size(), &image, "access", VIPS_ACCESS_SEQUENTIAL,
                                   "fail_on", VIPS_FAIL_ON_TRUNCATED, nullptr);
      break;
    case ImageFormat::gif:
      status =
          vips_gifload_buffer(data, bytes.size(), &image, "n", 1, "access", VIPS_ACCESS_SEQUENTIAL,
                              "fail_on", VIPS_FAIL_ON_TRUNCATED, nullptr);
      break;
    case ImageFormat::webp:
      status =
          vips_webpload_buffer(data, bytes.size(), &image, "n", 1, "access", VIPS_ACCESS_SEQUENTIAL,
                               "fail_on", VIPS_FAIL_ON_TRUNCATED, nullptr);
      break;
  }
  return Image(status == 0 ? image : nullptr);
}

// True when the image's EXIF orientation turns it a quarter (its upright width is its height).
bool quarter_turned(VipsImage* image) {
  int orientation = 1;
  if (vips_image_get_typeof(image, VIPS_META_ORIENTATION) != 0 &&
      vips_image_get_int(image, VIPS_META_ORIENTATION, &orientation) != 0) {
    orientation = 1;
  }
  return orientation >= 5 && orientation <= 8;
}

// The largest JPEG shrink on load that keeps the image at least `width` wide and its shorter
// side at least k_min_shrunk_side. libvips 8.14 aborts the process (a failed assertion, "bad
// dimensions") when a shrink takes a side to zero, as an 8 x 4,000 JPEG shrunk by 8 does.
int jpeg_shrink(int upright_width, int shorter_side, int width) {
  constexpr int k_min_shrunk_side = 16;
  int shrink = 8;
  while (shrink > 1 &&
         (upright_width / shrink < width || shorter_side / shrink < k_min_shrunk_side)) {
    shrink /= 2;
  }
  return shrink;
}

// `in` upright, in sRGB with 8 bits a band (alpha kept), `width` wide.
Image resized(VipsImage* in, int width) {
  VipsImage* out = nullptr;
  if (vips_thumbnail_image(in, &out, width, "height", k_unbounded_height, "size", VIPS_SIZE_DOWN,
                           nullptr) != 0) {
    return nullptr;
  }
  Image image(out);
  if (vips_image_get_interpretation(image.get()) != VIPS_INTERPRETATION_sRGB ||
      vips_image_get_format(image.get()) != VIPS_FORMAT_UCHAR) {
    if (vips_colourspace(image.get(), &out, VIPS_INTERPRETATION_sRGB, nullptr) != 0) {
      return nullptr;
    }
    image.reset(out);
  }
  if (vips_image_get_format(image.get()) != VIPS_FORMAT_UCHAR) {
    if (vips_cast_uchar(image.get(), &out, nullptr) != 0) {
      return nullptr;
    }
    image.reset(out);
  }
  return image;
}

std::uint32_t little_endian(std::string_view bytes) {
  std::uint32_t value = 0;
  for (int i = 3; i >= 0; --i) {
    value = (value << 8) | static_cast<unsigned char>(bytes[static_cast<std::size_t>(i)]);
  }
  return value;
}

void put_little_endian(std::string& bytes, std::size_t at, std::uint32_t value) {
  for (std::size_t i = 0; i < 4; ++i) {
    bytes[at + i] = static_cast<char>((value >> (8 * i)) & 0xff);
  }
}

// A WebP file without its EXIF, XMP and ICC chunks, and its extended header saying so. libvips
// 8.14 writes an EXIF chunk (resolution, orientation) even when told to strip; what is left is
// the picture and, when it has one, its alpha. nullopt when the RIFF structure is not as
// libvips writes it.
std::optional<std::string> without_metadata(std::string_view file) {
  constexpr std::size_t k_header = 12;                  // "RIFF", size, "WEBP"
  constexpr char k_metadata_flags = 0x20 | 0x08 | 0x04; // ICC, EXIF, XMP
  if (file.size() < k_header || !file.starts_with("RIFF") || file.substr(8, 4) != "WEBP") {
    return std::nullopt;
  }
  std::string out(file.substr(0, k_header));
  for (std::size_t at = k_header; at < file.size();) {
    if (file.size() - at < 8) {
      return std::nullopt;
    }
    const std::string_view type = file.substr(at, 4);
    const std::size_t size = little_endian(file.substr(at + 4, 4));
    const std::size_t padded = size + (size & 1);
    if (file.size() - at - 8 < padded) {
      return std::nullopt;
    }
    if (type != "EXIF" && type != "XMP " && type != "ICCP") {
      const std::size_t kept = out.size();
      out.append(file.substr(at, 8 + padded));
      if (type == "VP8X" && size >= 1) {
        out[kept + 8] = static_cast<char>(out[kept + 8] & ~k_metadata_flags);
      }
    }
    at += 8 + padded;
  }
  put_little_endian(out, 4, static_cast<std::uint32_t>(out.size() - 8));
  return out;
}

// `image` as WebP, with no metadata: every metadata field (EXIF with its GPS position, XMP,
// IPTC, ICC) removed before writing, and the chunks the writer adds all the same after.
std::optional<std::string> webp(VipsImage* image) {
  VipsImage* copy = nullptr;
  if (vips_copy(image, &copy, nullptr) != 0) {
    return std::nullopt;
  }
  Image bare(copy);
  std::unique_ptr<gchar*, decltype(&g_strfreev)> fields(vips_image_get_fields(bare.get()),
                                                        &g_strfreev);
  for (gchar** field = fields.get(); field != nullptr && *field != nullptr; ++field) {
    vips_image_remove(bare.get(), *field); // false for the header's own fields, which stay
  }
  void* buffer = nullptr;
  std::size_t length = 0;
  if (vips_webpsave_buffer(bare.get(), &buffer, &length, "Q", k_webp_quality, "strip", TRUE,
                           nullptr) != 0) {
    return std::nullopt;
  }
  std::unique_ptr<void, decltype(&g_free)> owned(buffer, &g_free);
  return without_metadata(std::string_view(static_cast<const char*>(buffer), length));
}

PreparedArt refused(PreparedArt art, Refusal refusal, std::string error) {
  art.refusal = refusal;
  art.error = std::move(error);
  art.renditions.clear();
  return art;
}

} // namespace

PreparedArt prepare_art(std::string_view bytes, const ImageLimits& limits,
                        std::span<const int> widths) {
  PreparedArt art;
  if (bytes.size() > limits.max_bytes) {
    return refused(std::move(art), Refusal::too_many_bytes,
                   "the image is over " + std::to_string(limits.max_bytes) + " bytes");
  }
  art.format = sniff_image(bytes);
  if (!art.format) {
    return refused(std::move(art), Refusal::not_an_image,
                   "the bytes are not a JPEG, PNG, GIF or WebP image");
  }
  start_vips();
  Image header = load(*art.format, bytes, 1);
  if (!header) {
    return refused(std::move(art), Refusal::broken, vips_failure("the image header is unreadable"));
  }
  const std::int64_t stored_width = vips_image_get_width(header.get());
  const std::int64_t stored_height = vips_image_get_height(header.get());
  if (stored_width * stored_height > limits.max_pixels) {
    return refused(std::move(art), Refusal::too_many_pixels,
                   "the image is " + std::to_string(stored_width) + " x " +
                       std::to_string(stored_height) + " pixels, over " +
                       std::to_string(limits.max_pixels));
  }
  const bool turned = quarter_turned(header.get());
  art.width = static_cast<int>(turned ? stored_height : stored_width);
  art.height = static_cast<int>(turned ? stored_width : stored_height);
  const std::vector<int> sizes = rendition_widths(art.width, widths);
  if (sizes.empty()) {
    return art;
  }
  // The widest rendition is made from the source, decoded once into memory; the narrower ones
  // from it, so that the source is read in one pass (it is read as a stream).
  Image source = std::move(header);
  if (*art.format == ImageFormat::jpeg) {
    if (const int shrink = jpeg_shrink(art.width, std::min(art.width, art.height), sizes.back());
        shrink > 1) {
      source = load(*art.format, bytes, shrink);
    }
  }
  Image widest = source ? resized(source.get(), sizes.back()) : nullptr;
  Image decoded(widest ? vips_image_copy_memory(widest.get()) : nullptr);
  if (!decoded) {
    return refused(std::move(art), Refusal::broken, vips_failure("the image does not decode"));
  }
  for (int width : sizes) {
    Image narrower = width == sizes.back() ? nullptr : resized(decoded.get(), width);
    VipsImage* at = width == sizes.back() ? decoded.get() : narrower.get();
    std::optional<std::string> encoded = at != nullptr ? webp(at) : std::nullopt;
    if (!encoded) {
      return refused(std::move(art), Refusal::broken, vips_failure("the image does not encode"));
    }
    art.renditions.push_back(
        {vips_image_get_width(at), vips_image_get_height(at), std::move(*encoded)});
  }
  return art;
}

} // namespace podcrawl::art

#include <algorithm>

#include "podcrawl/art/image.hpp"

// The parts of the image module that read no pixels: linked into the crawler, which checks the
// helper's answers with them, as well as into the helper.

namespace podcrawl::art {

std::optional<ImageFormat> sniff_image(std::string_view bytes) {
  if (bytes.starts_with("\xff\xd8\xff")) {
    return ImageFormat::jpeg;
  }
  if (bytes.starts_with("\x89PNG\r\n\x1a\n")) {
    return ImageFormat::png;
  }
  if (bytes.starts_with("GIF87a") || bytes.starts_with("GIF89a")) {
    return ImageFormat::gif;
  }
  if (bytes.size() >= 12 && bytes.starts_with("RIFF") && bytes.substr(8, 4) == "WEBP") {
    return ImageFormat::webp;
  }
  return std::nullopt;
}

std::vector<int> rendition_widths(int width, std::span<const int> wanted) {
  std::vector<int> widths;
  int widest = 0;
  for (int candidate : wanted) {
    widest = std::max(widest, candidate);
    if (candidate > 0 && candidate <= width) {
      widths.push_back(candidate);
    }
  }
  if (width > 0 && width < widest) {
    widths.push_back(width);
  }
  std::sort(widths.begin(), widths.end());
  widths.erase(std::unique(widths.begin(), widths.end()), widths.end());
  return widths;
}

} // namespace podcrawl::art

// Image bytes of any shape through the whole decode-and-resize step, with the crawl's bounds.
// Besides not crashing, leaking or running away with memory, prepare_art keeps these promises,
// checked here:
// - an image it accepts has renditions none wider than the original, narrowest first, each a
//   WebP file with no EXIF, XMP or ICC chunk;
// - one it refuses says why and has no rendition;
// - what is not JPEG, PNG, GIF or WebP by its first bytes is refused as not an image.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "podcrawl/art/image.hpp"

namespace {

namespace art = podcrawl::art;

void check(bool holds) {
  if (!holds) {
    __builtin_trap();
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  art::ImageLimits limits;
  limits.max_pixels = 4'000'000; // the fuzzer's memory limit holds a few decoded images of this
  const art::PreparedArt prepared = art::prepare_art(bytes, limits, art::k_art_widths);
  if (!art::sniff_image(bytes)) {
    check(prepared.refusal == art::Refusal::not_an_image);
  }
  if (prepared.refusal != art::Refusal::none) {
    check(!prepared.error.empty() && prepared.renditions.empty());
    return 0;
  }
  int previous = 0;
  for (const art::Rendition& rendition : prepared.renditions) {
    check(rendition.width > previous && rendition.width <= prepared.width);
    previous = rendition.width;
    check(art::sniff_image(rendition.webp) == art::ImageFormat::webp);
    check(rendition.webp.find("EXIF") == std::string::npos &&
          rendition.webp.find("ICCP") == std::string::npos);
  }
  return 0;
}

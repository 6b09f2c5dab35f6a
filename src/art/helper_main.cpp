// podcrawl-art: decodes and re-encodes cover art for the crawler, one image at a time, in a
// process of its own: libvips and its decoders never load into podcrawl, and an image that
// crashes a decoder takes only this process down.
#include <sys/resource.h>
#include <unistd.h>

#include <glib.h>
#include <CLI/CLI.hpp>

#include "podcrawl/art/helper.hpp"
#include "podcrawl/art/image.hpp"

// Sanitizers reserve terabytes of address space for themselves: GCC says so with
// __SANITIZE_ADDRESS__ and __SANITIZE_THREAD__, Clang with __has_feature.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define PODCRAWL_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define PODCRAWL_SANITIZED 1
#endif
#endif
#ifndef PODCRAWL_SANITIZED
#define PODCRAWL_SANITIZED 0
#endif

namespace {

// libvips warns on stderr about each damaged tile of a hostile image; the answer says it all.
void quiet(const gchar*, GLogLevelFlags, const gchar*, gpointer) {}

// Bound the helper's address space: room for the program and its libraries, and for three
// copies of the largest image the pixel bound lets through at four bytes a pixel (decoded,
// turned upright, shrunk). An image that needs more makes an allocation fail, which ends this
// process only; the crawler refuses the image. Time is bounded by the crawler, which kills a
// helper that takes too long over one image. Not under a sanitizer.
void bound_memory(const podcrawl::art::ImageLimits& limits) {
#if !PODCRAWL_SANITIZED
  constexpr rlim_t k_program_bytes = rlim_t{1} << 30;
  const rlim_t bytes = k_program_bytes + static_cast<rlim_t>(limits.max_pixels) * 4 * 3;
  const rlimit bound{bytes, bytes};
  setrlimit(RLIMIT_AS, &bound);
#else
  (void)limits;
#endif
}

} // namespace

int main(int argc, char** argv) {
  namespace art = podcrawl::art;
  CLI::App app{
      "Read images as frames on standard input (an 8-byte little-endian length, then\n"
      "the bytes) and answer each on standard output with its WebP renditions.\n"
      "podcrawl crawl starts it; there is no need to run it by hand."};
  app.name("podcrawl-art");
  art::ImageLimits limits;
  app.add_option("--max-bytes", limits.max_bytes, "largest image file accepted")
      ->capture_default_str();
  app.add_option("--max-pixels", limits.max_pixels, "most pixels an image may declare")
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  bound_memory(limits);
  g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING, quiet, nullptr);
  while (std::optional<std::string> image = art::read_frame(STDIN_FILENO, limits.max_bytes)) {
    const art::PreparedArt prepared = art::prepare_art(*image, limits, art::k_art_widths);
    if (!art::write_frame(STDOUT_FILENO, art::encode_answer(prepared))) {
      return 1;
    }
  }
  return 0;
}

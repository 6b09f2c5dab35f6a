// podcrawl-art: decodes and re-encodes cover art for the crawler, one image at a time, in a
// process of its own: libvips and its decoders never load into podcrawl, and an image that
// crashes a decoder takes only this process down.
#include <unistd.h>

#include <glib.h>
#include <CLI/CLI.hpp>

#include "podcrawl/art/helper.hpp"
#include "podcrawl/art/image.hpp"

namespace {

// libvips warns on stderr about each damaged tile of a hostile image; the answer says it all.
void quiet(const gchar*, GLogLevelFlags, const gchar*, gpointer) {}

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
  g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING, quiet, nullptr);
  while (std::optional<std::string> image = art::read_frame(STDIN_FILENO, limits.max_bytes)) {
    const art::PreparedArt prepared = art::prepare_art(*image, limits, art::k_art_widths);
    if (!art::write_frame(STDOUT_FILENO, art::encode_answer(prepared))) {
      return 1;
    }
  }
  return 0;
}

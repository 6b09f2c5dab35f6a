#include "support/images.hpp"

#include <gtest/gtest.h>
#include <vips/vips.h>

namespace podcrawl::testing {

std::string noise_jpeg(int width, int height) {
  EXPECT_EQ(VIPS_INIT("podcrawl-tests"), 0);
  VipsImage* noise = nullptr;
  EXPECT_EQ(vips_gaussnoise(&noise, width, height, nullptr), 0);
  void* buffer = nullptr;
  std::size_t length = 0;
  EXPECT_EQ(vips_jpegsave_buffer(noise, &buffer, &length, nullptr), 0);
  g_object_unref(noise);
  std::string bytes(static_cast<const char*>(buffer), length);
  g_free(buffer);
  return bytes;
}

} // namespace podcrawl::testing

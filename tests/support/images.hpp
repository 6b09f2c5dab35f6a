#pragma once

#include <string>

namespace podcrawl::testing {

// A JPEG of noise, `width` x `height`, made with libvips (started on first use).
std::string noise_jpeg(int width, int height);

} // namespace podcrawl::testing

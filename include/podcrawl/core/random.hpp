#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace podcrawl::core {

// Fill `bytes` from the kernel's random source (getrandom(2)), waiting for it to be seeded at
// boot. Throws core::EnvironmentError when the system gives none.
void random_bytes(unsigned char* bytes, std::size_t count);

// `count` characters of `alphabet` (1 to 256 characters), each equally likely: a random byte is
// used only below the largest multiple of the alphabet's size, so that none is drawn more often.
std::string random_text(std::string_view alphabet, std::size_t count);

} // namespace podcrawl::core

#include "podcrawl/core/random.hpp"

#include <sys/random.h>

#include <cerrno>
#include <cstring>

#include "podcrawl/core/error.hpp"

namespace podcrawl::core {

void random_bytes(unsigned char* bytes, std::size_t count) {
  while (count > 0) {
    const ssize_t got = ::getrandom(bytes, count, 0);
    if (got < 0) {
      if (errno == EINTR) {
        continue;
      }
      throw EnvironmentError(std::string("getrandom: ") + std::strerror(errno));
    }
    bytes += got;
    count -= static_cast<std::size_t>(got);
  }
}

std::string random_text(std::string_view alphabet, std::size_t count) {
  const unsigned limit = 256U - 256U % alphabet.size();
  std::string text;
  unsigned char bytes[64];
  while (text.size() < count) {
    random_bytes(bytes, sizeof bytes);
    for (const unsigned char byte : bytes) {
      if (byte < limit && text.size() < count) {
        text += alphabet[byte % alphabet.size()];
      }
    }
  }
  return text;
}

} // namespace podcrawl::core

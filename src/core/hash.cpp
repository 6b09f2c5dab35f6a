#include "podcrawl/core/hash.hpp"

#include <cstddef>
#include <cstdio>
#include <optional>

namespace podcrawl::core {
namespace {

std::uint32_t rotate_left(std::uint32_t value, int bits) {
  return (value << bits) | (value >> (32 - bits));
}

// One 64-byte block into the five-word state (RFC 3174 section 6.1).
void sha1_block(std::array<std::uint32_t, 5>& state, const unsigned char* block) {
  std::array<std::uint32_t, 80> w{};
  for (std::size_t t = 0; t < 16; ++t) {
    w[t] = static_cast<std::uint32_t>(block[4 * t]) << 24 |
           static_cast<std::uint32_t>(block[4 * t + 1]) << 16 |
           static_cast<std::uint32_t>(block[4 * t + 2]) << 8 |
           static_cast<std::uint32_t>(block[4 * t + 3]);
  }
  for (std::size_t t = 16; t < 80; ++t) {
    w[t] = rotate_left(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
  }
  auto [a, b, c, d, e] = state;
  for (std::size_t t = 0; t < 80; ++t) {
    std::uint32_t f = 0;
    std::uint32_t k = 0;
    if (t < 20) {
      f = (b & c) | (~b & d);
      k = 0x5A827999;
    } else if (t < 40) {
      f = b ^ c ^ d;
      k = 0x6ED9EBA1;
    } else if (t < 60) {
      f = (b & c) | (b & d) | (c & d);
      k = 0x8F1BBCDC;
    } else {
      f = b ^ c ^ d;
      k = 0xCA62C1D6;
    }
    const std::uint32_t temp = rotate_left(a, 5) + f + e + w[t] + k;
    e = d;
    d = c;
    c = rotate_left(b, 30);
    b = a;
    a = temp;
  }
  state[0] += a;
  state[1] += b;
  state[2] += c;
  state[3] += d;
  state[4] += e;
}

// The 16 bytes of a UUID in 8-4-4-4-12 form (hyphens optional); nullopt for anything else.
std::optional<std::array<std::uint8_t, 16>> uuid_bytes(std::string_view text) {
  std::array<std::uint8_t, 16> bytes{};
  std::size_t digits = 0;
  for (const char c : text) {
    if (c == '-') {
      continue;
    }
    const auto value = hex_value(c);
    if (!value || digits == 2 * bytes.size()) {
      return std::nullopt;
    }
    auto& byte = bytes[digits / 2];
    byte = static_cast<std::uint8_t>(byte << 4 | *value);
    ++digits;
  }
  if (digits != 2 * bytes.size()) {
    return std::nullopt;
  }
  return bytes;
}

} // namespace

std::uint64_t fnv1a_64(std::string_view bytes) {
  std::uint64_t hash = 14695981039346656037ULL;
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  }
  return hash;
}

namespace {

// The bytes at `data`, `count` of them (at most 8), as a little-endian number.
std::uint64_t little_endian(const char* data, std::size_t count) {
  std::uint64_t word = 0;
  for (std::size_t i = count; i > 0; --i) {
    word = word << 8 | static_cast<unsigned char>(data[i - 1]);
  }
  return word;
}

// The 128-bit product of hash ^ word and an odd constant, its halves xored: every bit of the
// input reaches the low and the high bits alike.
std::uint64_t mix_in(std::uint64_t hash, std::uint64_t word) {
  __extension__ using Wide = unsigned __int128;
  const Wide product = static_cast<Wide>(hash ^ word) * 0x9e3779b97f4a7c15ULL;
  return static_cast<std::uint64_t>(product) ^ static_cast<std::uint64_t>(product >> 64);
}

} // namespace

std::uint64_t word_hash_64(std::string_view bytes) {
  std::uint64_t hash = 14695981039346656037ULL ^ bytes.size();
  std::size_t at = 0;
  for (; at + 8 <= bytes.size(); at += 8) {
    hash = mix_in(hash, little_endian(bytes.data() + at, 8));
  }
  hash = mix_in(hash, little_endian(bytes.data() + at, bytes.size() - at));
  hash ^= hash >> 30;
  hash *= 0xbf58476d1ce4e5b9ULL;
  hash ^= hash >> 27;
  hash *= 0x94d049bb133111ebULL;
  hash ^= hash >> 31;
  return hash;
}

std::string content_hash(std::string_view body) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(fnv1a_64(body)));
  return text;
}

std::array<std::uint8_t, 20> sha1(std::string_view bytes) {
  std::array<std::uint32_t, 5> state = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  std::size_t whole = bytes.size() - bytes.size() % 64;
  for (std::size_t offset = 0; offset < whole; offset += 64) {
    sha1_block(state, data + offset);
  }
  // The tail, the 0x80 marker and the bit length, in one or two final blocks.
  std::array<unsigned char, 128> tail{};
  const std::size_t rest = bytes.size() - whole;
  for (std::size_t i = 0; i < rest; ++i) {
    tail[i] = data[whole + i];
  }
  tail[rest] = 0x80;
  const std::size_t tail_size = rest < 56 ? 64 : 128;
  const std::uint64_t bit_length = static_cast<std::uint64_t>(bytes.size()) * 8;
  for (std::size_t i = 0; i < 8; ++i) {
    tail[tail_size - 1 - i] = static_cast<unsigned char>(bit_length >> (8 * i));
  }
  for (std::size_t offset = 0; offset < tail_size; offset += 64) {
    sha1_block(state, tail.data() + offset);
  }
  std::array<std::uint8_t, 20> digest{};
  for (std::size_t i = 0; i < 20; ++i) {
    digest[i] = static_cast<std::uint8_t>(state[i / 4] >> (24 - 8 * (i % 4)));
  }
  return digest;
}

std::string sha1_hex(std::string_view bytes) {
  const auto digest = sha1(bytes);
  return hex(std::string_view(reinterpret_cast<const char*>(digest.data()), digest.size()));
}

std::string hex(std::string_view bytes) {
  constexpr std::string_view k_hex = "0123456789abcdef";
  std::string text;
  text.reserve(2 * bytes.size());
  for (const char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    text += k_hex[byte >> 4];
    text += k_hex[byte & 0xf];
  }
  return text;
}

std::string uuid_v5(std::string_view namespace_uuid, std::string_view name) {
  const auto space = uuid_bytes(namespace_uuid);
  if (!space) {
    return {};
  }
  std::string input(space->begin(), space->end());
  input.append(name);
  const auto digest = sha1(input);
  std::array<std::uint8_t, 16> uuid{};
  for (std::size_t i = 0; i < uuid.size(); ++i) {
    uuid[i] = digest[i];
  }
  uuid[6] = static_cast<std::uint8_t>((uuid[6] & 0x0F) | 0x50); // version 5
  uuid[8] = static_cast<std::uint8_t>((uuid[8] & 0x3F) | 0x80); // RFC 4122 variant
  std::string text;
  static constexpr char k_digits[] = "0123456789abcdef";
  for (std::size_t i = 0; i < uuid.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) {
      text += '-';
    }
    text += k_digits[uuid[i] >> 4];
    text += k_digits[uuid[i] & 0x0F];
  }
  return text;
}

std::optional<int> hex_value(char c) {
  if (c >= '0' && c <= '9') {
    return c - '0';
  }
  if (c >= 'a' && c <= 'f') {
    return c - 'a' + 10;
  }
  if (c >= 'A' && c <= 'F') {
    return c - 'A' + 10;
  }
  return std::nullopt;
}

} // namespace podcrawl::core

#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace podcrawl::core {

// 64-bit FNV-1a of bytes: stable across machines, runs and versions. Not cryptographic.
std::uint64_t fnv1a_64(std::string_view bytes);

// A 64-bit hash of bytes eight at a time, read little-endian: stable across machines and runs,
// several times as fast as fnv1a_64 on long input. Each word is xored in and the state
// multiplied into 128 bits, whose halves are folded; the length seeds it and splitmix64's
// finalizer mixes the result. Not cryptographic. For validators of large bodies; stored keys
// keep fnv1a_64.
std::uint64_t word_hash_64(std::string_view bytes);

// The hash of a fetched body as stored with its feed: fnv1a_64 as 16 lower-case hex digits.
std::string content_hash(std::string_view body);

// SHA-1 (RFC 3174) of bytes. Used for name-based UUIDs and for the API's request signatures,
// which Podcast Index's clients compute with it; never to store a secret.
std::array<std::uint8_t, 20> sha1(std::string_view bytes);
// sha1() as 40 lower-case hex digits: the content address of a stored file.
std::string sha1_hex(std::string_view bytes);

// The name-based UUID (version 5, RFC 4122 section 4.3) of name within namespace_uuid, in
// lower-case 8-4-4-4-12 form. Returns an empty string when namespace_uuid is not a UUID.
std::string uuid_v5(std::string_view namespace_uuid, std::string_view name);

// Bytes as lower-case hex digits, two a byte.
std::string hex(std::string_view bytes);

// The value of one hexadecimal digit, either case; nullopt for any other character.
std::optional<int> hex_value(char c);

} // namespace podcrawl::core

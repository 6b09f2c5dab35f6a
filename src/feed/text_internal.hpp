#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace podcrawl::feed {

// Longest single-line field (title, author, guid, URL) kept, in bytes.
inline constexpr std::size_t k_max_line_bytes = 4096;
// Longest description kept before sanitizing, in bytes.
inline constexpr std::size_t k_max_markup_bytes = 512 * 1024;

// Return the text without leading and trailing ASCII whitespace.
std::string_view trim(std::string_view text);

// Return the text with ASCII letters lowered.
std::string ascii_lower(std::string_view text);

// True when both texts are equal ignoring ASCII case.
bool iequals(std::string_view left, std::string_view right);

// True when the bytes are well-formed UTF-8.
bool is_valid_utf8(std::string_view bytes);

// Return feed text for a one-line field: NFC, C1 controls read as Windows-1252 (as HTML reads
// &#150;), other control characters removed, every run of whitespace collapsed to one space,
// trimmed, cut to k_max_line_bytes.
std::string clean_line(std::string_view text);

// Return feed text for a multi-line field: as clean_line, but tab and line breaks kept and
// cut to k_max_markup_bytes.
std::string clean_block(std::string_view text);

} // namespace podcrawl::feed

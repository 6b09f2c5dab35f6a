#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "podcrawl/core/ascii.hpp"
#include "podcrawl/core/text.hpp"

namespace podcrawl::feed::internal {

// Longest single-line field (title, author, guid, URL) kept, in bytes.
inline constexpr std::size_t k_max_line_bytes = 4096;
// Longest description kept before sanitizing, in bytes.
inline constexpr std::size_t k_max_markup_bytes = 512 * 1024;

// Text without ASCII white space at its ends (core::trim), with its ASCII letters lowered, and
// compared ignoring ASCII case: the rules of the feed's markup, core's.
using core::ascii_lower;
using core::trim;
inline bool iequals(std::string_view left, std::string_view right) {
  return core::equals_ignoring_ascii_case(left, right);
}

// Whether the bytes are well-formed UTF-8: core's.
using core::is_valid_utf8;

// Return feed text for a one-line field: NFC, C1 controls read as Windows-1252 (as HTML reads
// &#150;), other control characters removed, every run of whitespace collapsed to one space,
// trimmed, cut to k_max_line_bytes.
std::string clean_line(std::string_view text);

// Return feed text for a multi-line field: as clean_line, but tab and line breaks kept and
// cut to k_max_markup_bytes.
std::string clean_block(std::string_view text);

} // namespace podcrawl::feed::internal

#pragma once

#include <string>
#include <string_view>

// ASCII character classes, case and trimming: the rules of protocols, markup and identifiers,
// never of text in a language. Unlike std::isspace and std::tolower they do not depend on the C
// locale, take a char as it is, and leave every byte outside ASCII alone.
namespace podcrawl::core {

// White space as std::isspace reads it in the C locale: space, \t, \n, \v, \f, \r.
inline constexpr std::string_view k_ascii_space = " \t\n\v\f\r";
// HTML's ASCII whitespace (WHATWG Infra): space, \t, \n, \f, \r.
inline constexpr std::string_view k_html_space = " \t\n\f\r";
// HTTP's optional white space (OWS, RFC 9110 section 5.6.3): space and \t.
inline constexpr std::string_view k_http_space = " \t";

constexpr bool is_ascii_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
constexpr bool is_ascii_digit(char c) {
  return c >= '0' && c <= '9';
}
constexpr bool is_ascii_alnum(char c) {
  return is_ascii_alpha(c) || is_ascii_digit(c);
}
constexpr bool is_hex_digit(char c) {
  return is_ascii_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
constexpr char ascii_lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}
constexpr char ascii_upper(char c) {
  return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
}

// The text with its ASCII capitals in lower case.
std::string ascii_lower(std::string_view text);
// Whether a and b are equal once their ASCII capitals are in lower case.
bool equals_ignoring_ascii_case(std::string_view a, std::string_view b);
// The text without the characters of `set` at either end.
std::string_view trim(std::string_view text, std::string_view set = k_ascii_space);

} // namespace podcrawl::core

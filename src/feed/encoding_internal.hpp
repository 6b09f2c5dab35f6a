#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace podcrawl::feed {

// Longest document parsed, in bytes; longer input is cut there and parsed as truncated.
inline constexpr std::size_t k_max_document_bytes = 64 * 1024 * 1024;
// How much of a document the charset detector looks at, in bytes.
inline constexpr std::size_t k_max_detection_bytes = 1024 * 1024;

// Return the charset parameter of a Content-Type header value, lower case, unquoted;
// empty when there is none.
std::string charset_from_content_type(std::string_view content_type);

// Return the encoding named by the XML declaration at the start of the bytes (after a UTF-8
// BOM, if any), lower case; empty when there is no declaration or it names none.
std::string declared_encoding(std::string_view bytes);

// Return the bytes converted from the charset to UTF-8 by ICU (malformed sequences become
// U+FFFD); nullopt when ICU does not know the charset.
std::optional<std::string> convert_to_utf8(std::string_view bytes, std::string_view charset);

// Return ICU's best guess at the charset of the bytes, e.g. "windows-1256"; empty when it has
// none.
std::string detect_charset(std::string_view bytes);

// Return the document as UTF-8. The charset is taken from, first to last: a byte order
// mark, the XML declaration, the Content-Type charset, UTF-8 when the bytes are valid UTF-8,
// ICU's charset detection. Input longer than k_max_document_bytes is cut.
std::string decode_document(std::string_view bytes, std::string_view content_type);

} // namespace podcrawl::feed

#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace podcrawl::feed::internal {

// Longest document parsed, in bytes; longer input is cut there and parsed as truncated.
inline constexpr std::size_t k_max_document_bytes = 64 * 1024 * 1024;
// How much of a document the charset detector looks at, in bytes.
inline constexpr std::size_t k_max_detection_bytes = 1024 * 1024;

// Return the charset parameter of a Content-Type header value, lower case, unquoted;
// empty when there is none.
std::string charset_from_content_type(std::string_view content_type);

// Return the encoding named by the XML declaration at the start of the bytes (after a UTF-8
// BOM, if any), lower case; empty when there is no declaration or it names none.
std::string declared_charset(std::string_view bytes);

// Return the bytes converted from the charset to UTF-8 by ICU (malformed sequences become
// U+FFFD); nullopt when ICU does not know the charset.
std::optional<std::string> convert_to_utf8(std::string_view bytes, std::string_view charset);

// Return ICU's best guess at the charset of the bytes, e.g. "windows-1256"; empty when it has
// none.
std::string detect_charset(std::string_view bytes);

// How bytes in one encoding become UTF-8: most by an ICU converter, the rest here.
enum class DecoderKind {
  utf8,
  utf16le,
  utf16be,
  windows_1252, // as the Encoding Standard reads it (and ISO-8859-1 and US-ASCII with it)
  iso_8859_16,  // absent from ICU's data
  user_defined, // x-user-defined: bytes 0x80..0xFF to U+F780..U+F7FF
  replacement,  // encodings the Encoding Standard refuses to read (ISO-2022-KR, HZ, ...)
  icu,
};

struct Decoder {
  DecoderKind kind = DecoderKind::utf8;
  std::string icu_name; // for DecoderKind::icu
};

// Return the decoder of an encoding label: the Encoding Standard's labels and its reading of
// them first (iso-8859-1 is windows-1252, gbk is gb18030), then any name ICU has a converter
// for (ibm037, koi8, x-mac-greek). Case and surrounding whitespace do not matter; nullopt
// for a label neither knows.
std::optional<Decoder> decoder_for(std::string_view label);

// Return the document as UTF-8. The encoding is, first to last: a byte order mark (or UTF-16
// evident from the first character), the XML declaration (read through EBCDIC when the
// document starts with "<?xm" in EBCDIC), the Content-Type charset, UTF-8 when the bytes are
// well-formed UTF-8, ICU's charset detection. A declared encoding the bytes are malformed in
// gives way to the last two; when none fits, the first known one is used with U+FFFD for
// what is malformed. Input longer than k_max_document_bytes is cut. Well-formed UTF-8 comes back
// in the buffer it came in.
std::string decode_document(std::string document, std::string_view content_type);

} // namespace podcrawl::feed::internal

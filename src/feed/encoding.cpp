#include <unicode/ucnv.h>
#include <unicode/ucsdet.h>
#include <unicode/unistr.h>

#include <array>
#include <memory>

#include "encoding_internal.hpp"
#include "text_internal.hpp"

namespace podcrawl::feed {
namespace {

struct ConverterClose {
  void operator()(UConverter* converter) const { ucnv_close(converter); }
};
struct DetectorClose {
  void operator()(UCharsetDetector* detector) const { ucsdet_close(detector); }
};

struct ByteOrderMark {
  std::string_view bytes;
  std::string_view charset;
};

// Longest first: the UTF-32LE mark starts with the UTF-16LE one.
constexpr std::array<ByteOrderMark, 5> k_byte_order_marks = {{
    {std::string_view("\xff\xfe\x00\x00", 4), "UTF-32LE"},
    {std::string_view("\x00\x00\xfe\xff", 4), "UTF-32BE"},
    {"\xef\xbb\xbf", "UTF-8"},
    {"\xff\xfe", "UTF-16LE"},
    {"\xfe\xff", "UTF-16BE"},
}};

// Charsets that feeds name but mean something wider: browsers and feed readers read
// ISO-8859-1 and ASCII as windows-1252, which only adds printable characters.
std::string effective_charset(std::string_view charset) {
  std::string name = ascii_lower(trim(charset));
  if (name == "iso-8859-1" || name == "latin1" || name == "latin-1" || name == "iso8859-1" ||
      name == "iso_8859-1" || name == "us-ascii" || name == "ascii") {
    return "windows-1252";
  }
  if (name == "utf8") {
    return "utf-8";
  }
  return name;
}

bool is_wide_unicode(std::string_view charset) {
  return charset.starts_with("utf-16") || charset.starts_with("utf-32") ||
         charset.starts_with("ucs-") || charset == "unicode";
}

std::string decode_with(std::string_view bytes, const std::string& charset) {
  if (!charset.empty() && charset != "utf-8") {
    if (auto converted = convert_to_utf8(bytes, charset)) {
      return *converted;
    }
  }
  if (is_valid_utf8(bytes)) {
    return std::string(bytes);
  }
  std::string detected = effective_charset(detect_charset(bytes));
  if (!detected.empty() && detected != "utf-8") {
    if (auto converted = convert_to_utf8(bytes, detected)) {
      return *converted;
    }
  }
  return convert_to_utf8(bytes, "UTF-8").value_or(std::string(bytes));
}

} // namespace

std::string charset_from_content_type(std::string_view content_type) {
  std::string lowered = ascii_lower(content_type);
  std::size_t at = lowered.find("charset=");
  if (at == std::string::npos) {
    return {};
  }
  std::string_view value = std::string_view(lowered).substr(at + 8);
  value = value.substr(0, value.find(';'));
  value = trim(value);
  if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'')) {
    value = value.substr(1, value.find(value.front(), 1) - 1);
  }
  return std::string(trim(value));
}

std::string declared_encoding(std::string_view bytes) {
  if (bytes.starts_with("\xef\xbb\xbf")) {
    bytes.remove_prefix(3);
  }
  bytes = trim(bytes.substr(0, 1024));
  if (!bytes.starts_with("<?xml")) {
    return {};
  }
  std::string_view declaration = bytes.substr(0, bytes.find("?>"));
  std::size_t at = declaration.find("encoding");
  if (at == std::string_view::npos) {
    return {};
  }
  std::string_view rest = declaration.substr(at + 8);
  std::size_t quote = rest.find_first_of("\"'");
  if (quote == std::string_view::npos) {
    return {};
  }
  std::size_t end = rest.find(rest[quote], quote + 1);
  if (end == std::string_view::npos) {
    return {};
  }
  return ascii_lower(trim(rest.substr(quote + 1, end - quote - 1)));
}

std::optional<std::string> convert_to_utf8(std::string_view bytes, std::string_view charset) {
  UErrorCode status = U_ZERO_ERROR;
  std::string name(charset);
  std::unique_ptr<UConverter, ConverterClose> converter(ucnv_open(name.c_str(), &status));
  if (U_FAILURE(status) || !converter) {
    return std::nullopt;
  }
  icu::UnicodeString text(bytes.data(), static_cast<int32_t>(bytes.size()), converter.get(),
                          status);
  if (U_FAILURE(status)) {
    return std::nullopt;
  }
  std::string out;
  text.toUTF8String(out);
  return out;
}

std::string detect_charset(std::string_view bytes) {
  UErrorCode status = U_ZERO_ERROR;
  std::unique_ptr<UCharsetDetector, DetectorClose> detector(ucsdet_open(&status));
  if (U_FAILURE(status) || !detector) {
    return {};
  }
  ucsdet_enableInputFilter(detector.get(), 1);
  std::string_view sample = bytes.substr(0, k_max_detection_bytes);
  ucsdet_setText(detector.get(), sample.data(), static_cast<int32_t>(sample.size()), &status);
  const UCharsetMatch* match = ucsdet_detect(detector.get(), &status);
  if (U_FAILURE(status) || match == nullptr) {
    return {};
  }
  const char* name = ucsdet_getName(match, &status);
  return U_SUCCESS(status) && name != nullptr ? std::string(name) : std::string();
}

std::string decode_document(std::string_view bytes, std::string_view content_type) {
  bytes = bytes.substr(0, k_max_document_bytes);
  for (const ByteOrderMark& mark : k_byte_order_marks) {
    if (bytes.starts_with(mark.bytes)) {
      std::string_view body = bytes.substr(mark.bytes.size());
      if (mark.charset == "UTF-8" && is_valid_utf8(body)) {
        return std::string(body);
      }
      return convert_to_utf8(body, mark.charset).value_or(std::string());
    }
  }
  // UTF-16 without a mark still starts with '<' as one 16-bit unit.
  if (bytes.starts_with(std::string_view("<\0", 2))) {
    return convert_to_utf8(bytes, "UTF-16LE").value_or(std::string());
  }
  if (bytes.starts_with(std::string_view("\0<", 2))) {
    return convert_to_utf8(bytes, "UTF-16BE").value_or(std::string());
  }
  std::string charset = effective_charset(declared_encoding(bytes));
  // A wide charset declared in bytes that are evidently not wide is a mislabel.
  if (charset.empty() || is_wide_unicode(charset)) {
    charset = effective_charset(charset_from_content_type(content_type));
  }
  if (is_wide_unicode(charset)) {
    charset.clear();
  }
  return decode_with(bytes, charset);
}

} // namespace podcrawl::feed

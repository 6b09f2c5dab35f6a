#include <unicode/ucnv.h>
#include <unicode/ucsdet.h>
#include <unicode/unistr.h>

#include <algorithm>
#include <array>
#include <memory>

#include "charset_internal.hpp"
#include "text_internal.hpp"

namespace podcrawl::feed::internal {
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

struct EncodingLabel {
  std::string_view label;
  std::string_view name;
};

#include "encoding_labels.inc"

// Windows-1252's characters for the bytes 0x80..0x9F as the Encoding Standard reads them: its
// five undefined bytes as the C1 controls of the same number.
constexpr std::array<char16_t, 32> k_windows_1252_c1 = {
    0x20ac, 0x0081, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160,
    0x2039, 0x0152, 0x008d, 0x017d, 0x008f, 0x0090, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022,
    0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x009d, 0x017e, 0x0178,
};

// "<?xm" in EBCDIC, whose declaration must be read before its encoding is known (XML 1.0,
// appendix F), and the code page that reads the declaration's characters.
constexpr std::string_view k_ebcdic_start = "\x4c\x6f\xa7\x94";
constexpr const char* k_ebcdic_declaration_page = "ibm-37";

// The Encoding Standard's name for a label, or empty for a label it does not know.
std::string_view whatwg_encoding(std::string_view label) {
  const auto found = std::lower_bound(
      std::begin(k_encoding_labels), std::end(k_encoding_labels), label,
      [](const EncodingLabel& entry, std::string_view wanted) { return entry.label < wanted; });
  return found != std::end(k_encoding_labels) && found->label == label ? found->name
                                                                       : std::string_view();
}

// The ICU converter that decodes an Encoding Standard encoding as the standard does, where
// ICU's converter of the same name decodes less (GBK is read as gb18030, Big5 with HKSCS,
// EUC-KR as Windows' superset of it).
std::string icu_name_of(std::string_view whatwg) {
  struct Wider {
    std::string_view whatwg;
    std::string_view icu;
  };
  constexpr std::array<Wider, 5> k_wider = {{
      {"GBK", "gb18030"},
      {"Big5", "big5-hkscs"},
      {"EUC-KR", "windows-949"},
      {"Shift_JIS", "windows-31j"},
      {"ISO-8859-8-I", "ISO-8859-8"},
  }};
  for (const Wider& wider : k_wider) {
    if (wider.whatwg == whatwg) {
      return std::string(wider.icu);
    }
  }
  return std::string(whatwg);
}

bool icu_knows(const std::string& name) {
  UErrorCode status = U_ZERO_ERROR;
  std::unique_ptr<UConverter, ConverterClose> converter(ucnv_open(name.c_str(), &status));
  return U_SUCCESS(status) && converter != nullptr;
}

bool is_wide(const Decoder& decoder) {
  if (decoder.kind == DecoderKind::utf16le || decoder.kind == DecoderKind::utf16be) {
    return true;
  }
  const std::string name = ascii_lower(decoder.icu_name);
  return name.starts_with("utf-16") || name.starts_with("utf-32") || name.starts_with("ucs-") ||
         name.starts_with("utf16") || name.starts_with("utf32") || name == "unicode";
}

// A single-byte encoding decoded here rather than by ICU: `upper` gives the characters of the
// bytes 0x80..0xFF.
template <typename Upper>
std::string decode_single_byte(std::string_view bytes, Upper upper) {
  std::string out;
  out.reserve(bytes.size() + bytes.size() / 4);
  for (const char byte : bytes) {
    const auto value = static_cast<unsigned char>(byte);
    if (value < 0x80) {
      out.push_back(byte);
      continue;
    }
    const char16_t c = upper(value);
    if (c < 0x800) {
      out.push_back(static_cast<char>(0xc0 | (c >> 6)));
    } else {
      out.push_back(static_cast<char>(0xe0 | (c >> 12)));
      out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3f)));
    }
    out.push_back(static_cast<char>(0x80 | (c & 0x3f)));
  }
  return out;
}

// ICU's conversion of the bytes; with `strict`, nullopt at the first malformed or unmapped
// sequence, else those become U+FFFD.
std::optional<std::string> convert_with_icu(std::string_view bytes, const std::string& name,
                                            bool strict) {
  UErrorCode status = U_ZERO_ERROR;
  std::unique_ptr<UConverter, ConverterClose> converter(ucnv_open(name.c_str(), &status));
  if (U_FAILURE(status) || !converter) {
    return std::nullopt;
  }
  if (strict) {
    ucnv_setToUCallBack(converter.get(), UCNV_TO_U_CALLBACK_STOP, nullptr, nullptr, nullptr,
                        &status);
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

// The bytes decoded; with `strict`, nullopt when they are not well-formed in the encoding.
std::optional<std::string> decode(std::string_view bytes, const Decoder& decoder, bool strict) {
  switch (decoder.kind) {
    case DecoderKind::utf8:
      if (is_valid_utf8(bytes)) {
        return std::string(bytes);
      }
      return strict ? std::nullopt : convert_with_icu(bytes, "UTF-8", false);
    case DecoderKind::utf16le:
      return convert_with_icu(bytes, "UTF-16LE", strict);
    case DecoderKind::utf16be:
      return convert_with_icu(bytes, "UTF-16BE", strict);
    case DecoderKind::windows_1252:
      return decode_single_byte(bytes, [](unsigned char byte) {
        return byte < 0xa0 ? k_windows_1252_c1[byte - 0x80] : static_cast<char16_t>(byte);
      });
    case DecoderKind::iso_8859_16:
      return decode_single_byte(bytes, [](unsigned char byte) {
        return byte < 0xa0 ? static_cast<char16_t>(byte) : k_iso_8859_16_upper[byte - 0xa0];
      });
    case DecoderKind::user_defined:
      return decode_single_byte(
          bytes, [](unsigned char byte) { return static_cast<char16_t>(0xf780 + byte - 0x80); });
    case DecoderKind::replacement:
      return std::string(bytes.empty() ? "" : "\xef\xbf\xbd");
    case DecoderKind::icu:
      return convert_with_icu(bytes, decoder.icu_name, strict);
  }
  return std::nullopt;
}

// The decoder a document's labels ask for, first to last: its XML declaration (read through
// EBCDIC when the document is in EBCDIC), then the Content-Type's charset. A wide Unicode
// label on bytes that are evidently not wide (checked before this is called) is a mislabel.
std::optional<Decoder> declared_decoder(std::string_view bytes, std::string_view content_type) {
  std::string declared;
  if (bytes.starts_with(k_ebcdic_start)) {
    declared = declared_charset(
        convert_with_icu(bytes.substr(0, 1024), k_ebcdic_declaration_page, false).value_or(""));
    auto decoder = decoder_for(declared);
    return decoder ? decoder : Decoder{DecoderKind::icu, k_ebcdic_declaration_page};
  }
  for (const std::string& label :
       {declared_charset(bytes), charset_from_content_type(content_type)}) {
    auto decoder = decoder_for(label);
    if (decoder && !is_wide(*decoder)) {
      return decoder;
    }
  }
  return std::nullopt;
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

std::string declared_charset(std::string_view bytes) {
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
  return convert_with_icu(bytes, std::string(charset), false);
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

std::optional<Decoder> decoder_for(std::string_view label) {
  const std::string name = ascii_lower(trim(label));
  if (name.empty()) {
    return std::nullopt;
  }
  const std::string_view whatwg = whatwg_encoding(name);
  struct Own {
    std::string_view whatwg;
    DecoderKind kind;
  };
  constexpr std::array<Own, 7> k_own = {{
      {"UTF-8", DecoderKind::utf8},
      {"UTF-16LE", DecoderKind::utf16le},
      {"UTF-16BE", DecoderKind::utf16be},
      {"windows-1252", DecoderKind::windows_1252},
      {"ISO-8859-16", DecoderKind::iso_8859_16},
      {"x-user-defined", DecoderKind::user_defined},
      {"replacement", DecoderKind::replacement},
  }};
  if (!whatwg.empty()) {
    for (const Own& own : k_own) {
      if (own.whatwg == whatwg) {
        return Decoder{own.kind, {}};
      }
    }
    return Decoder{DecoderKind::icu, icu_name_of(whatwg)};
  }
  if (icu_knows(name)) {
    return Decoder{DecoderKind::icu, name};
  }
  return std::nullopt;
}

std::string decode_document(std::string document, std::string_view content_type) {
  if (document.size() > k_max_document_bytes) {
    document.resize(k_max_document_bytes);
  }
  // Well-formed UTF-8 is handed back in the caller's own buffer: most feeds are UTF-8, and a
  // copy of a large one costs as much as a good part of its parse.
  const std::string_view bytes = document;
  for (const ByteOrderMark& mark : k_byte_order_marks) {
    if (bytes.starts_with(mark.bytes)) {
      std::string_view body = bytes.substr(mark.bytes.size());
      if (mark.charset == "UTF-8" && is_valid_utf8(body)) {
        document.erase(0, mark.bytes.size());
        return document;
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
  const std::optional<Decoder> declared = declared_decoder(bytes, content_type);
  if (declared && declared->kind == DecoderKind::utf8) {
    if (is_valid_utf8(bytes)) {
      return document;
    }
  } else if (declared) {
    if (auto decoded = decode(bytes, *declared, true)) {
      return std::move(*decoded);
    }
  }
  // Nothing declared, or the bytes are not what was declared: well-formed UTF-8 is UTF-8;
  // else ICU's detector guesses.
  if (is_valid_utf8(bytes)) {
    return document;
  }
  const std::optional<Decoder> detected = decoder_for(detect_charset(bytes));
  if (detected && detected->kind != DecoderKind::utf8) {
    if (auto decoded = decode(bytes, *detected, true)) {
      return std::move(*decoded);
    }
  }
  const Decoder fallback = declared ? *declared : detected ? *detected : Decoder{};
  return decode(bytes, fallback, false).value_or(std::string());
}

} // namespace podcrawl::feed::internal

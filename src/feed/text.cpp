#include <unicode/normalizer2.h>
#include <unicode/unistr.h>

#include <algorithm>
#include <cstdint>

#include "fidelity_internal.hpp"
#include "podcrawl/core/text.hpp"
#include "text_internal.hpp"

namespace podcrawl::feed::internal {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// C0 and C1 controls and DEL; tab and line breaks are decided by the caller.
bool is_control(UChar32 c) {
  return c < 0x20 || (c >= 0x7f && c <= 0x9f);
}

bool is_break(char c) {
  return c == '\t' || c == '\n' || c == '\r';
}

const icu::Normalizer2* nfc_instance() {
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* nfc = icu::Normalizer2::getNFCInstance(status);
  return U_SUCCESS(status) ? nfc : nullptr;
}

// True when normalize() would change nothing but tab and line breaks: well-formed UTF-8 in NFC
// without control characters or the noncharacters U+FFFE and U+FFFF. Most feed text is, and
// is checked here without converting it to UTF-16.
bool is_clean_nfc(std::string_view text) {
  bool ascii = true;
  for (std::size_t i = 0; i < text.size(); ++i) {
    auto byte = static_cast<unsigned char>(text[i]);
    if (byte >= 0x80) {
      ascii = false;
      // C1 controls are U+0080..U+009F, encoded C2 80..C2 9F; U+FFFE and U+FFFF are EF BF BE/BF.
      auto next = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0u;
      if (byte == 0xc2 && next >= 0x80 && next <= 0x9f) {
        return false;
      }
      if (byte == 0xef && next == 0xbf && i + 2 < text.size() &&
          (static_cast<unsigned char>(text[i + 2]) & 0xfeu) == 0xbeu) {
        return false;
      }
    } else if ((byte < 0x20 && !is_break(text[i])) || byte == 0x7f) {
      return false;
    }
  }
  if (ascii) {
    return true;
  }
  if (!is_valid_utf8(text)) {
    return false;
  }
  const icu::Normalizer2* nfc = nfc_instance();
  UErrorCode status = U_ZERO_ERROR;
  bool normalized = nfc != nullptr &&
                    nfc->isNormalizedUTF8(
                        icu::StringPiece(text.data(), static_cast<int32_t>(text.size())), status);
  return U_SUCCESS(status) && normalized;
}

// NFC form of the text with control characters dropped (tab and line breaks kept when
// keep_breaks, else turned into spaces) and C1 controls read as the Windows-1252 characters
// browsers read them as. Invalid UTF-8 becomes U+FFFD.
std::string normalize(std::string_view text, bool keep_breaks) {
  if (is_clean_nfc(text)) {
    std::string out(text);
    if (!keep_breaks) {
      std::replace_if(out.begin(), out.end(), is_break, ' ');
    }
    return out;
  }
  icu::UnicodeString source = icu::UnicodeString::fromUTF8(
      icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
  icu::UnicodeString kept;
  for (int32_t i = 0; i < source.length();) {
    UChar32 c = source.char32At(i);
    i += U16_LENGTH(c);
    if (c == '\t' || c == '\n' || c == '\r') {
      kept.append(keep_breaks ? c : UChar32{' '});
    } else if (c >= 0x80 && c <= 0x9f) {
      if (const char32_t read = windows_1252_c1(static_cast<char32_t>(c)); read != 0) {
        kept.append(static_cast<UChar32>(read));
      }
    } else if (!is_control(c) && c != 0xfffe && c != 0xffff) {
      kept.append(c);
    }
  }
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* nfc = nfc_instance();
  std::string out;
  if (nfc != nullptr) {
    icu::UnicodeString normalized = nfc->normalize(kept, status);
    if (U_SUCCESS(status)) {
      normalized.toUTF8String(out);
      return out;
    }
  }
  kept.toUTF8String(out);
  return out;
}

} // namespace

std::string clean_line(std::string_view text) {
  std::string normalized = normalize(core::utf8_prefix(text, 4 * k_max_line_bytes), false);
  std::string out;
  out.reserve(normalized.size());
  bool pending_space = false;
  for (char c : normalized) {
    if (is_space(c)) {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) {
      out.push_back(' ');
      pending_space = false;
    }
    out.push_back(c);
  }
  return std::string(core::utf8_prefix(out, k_max_line_bytes));
}

std::string clean_block(std::string_view text) {
  std::string normalized = normalize(core::utf8_prefix(trim(text), k_max_markup_bytes), true);
  return std::string(trim(normalized));
}

} // namespace podcrawl::feed::internal

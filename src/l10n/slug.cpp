#include <algorithm>
#include <cctype>
#include <memory>
#include <mutex>

#include <unicode/translit.h>

#include "l10n_internal.hpp"
#include "podcrawl/core/error.hpp"
#include "podcrawl/l10n/localizer.hpp"

namespace podcrawl::l10n {

namespace {

// Titles longer than this are cut before transliteration; a slug never needs more.
constexpr std::size_t k_max_slug_input_bytes = 1024;

// The transliterator is costly to build, so it is built once, on first use;
// Transliterator::transliterate is not const, so calls are serialized.
class SharedTransliterator {
public:
  SharedTransliterator() {
    UErrorCode status = U_ZERO_ERROR;
    m_transliterator.reset(icu::Transliterator::createInstance("Any-Latin; Latin-ASCII; Lower",
                                                               UTRANS_FORWARD, status));
    if (U_FAILURE(status) || !m_transliterator) {
      throw core::EnvironmentError(std::string("ICU transliterator unavailable: ") +
                                   u_errorName(status));
    }
  }

  void transliterate(icu::UnicodeString& text) {
    std::lock_guard lock(m_mutex);
    m_transliterator->transliterate(text);
  }

private:
  std::mutex m_mutex;
  std::unique_ptr<icu::Transliterator> m_transliterator;
};

SharedTransliterator& shared_transliterator() {
  static SharedTransliterator shared;
  return shared;
}

// Cut text to at most max_bytes without splitting a UTF-8 sequence.
std::string_view utf8_prefix(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) {
    return text;
  }
  std::size_t end = max_bytes;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0U) == 0x80U) {
    --end;
  }
  return text.substr(0, end);
}

std::string to_ascii_lower(std::string_view text) {
  // ASCII needs no transliteration, only lower case: skip ICU (and building its transliterator,
  // the largest part of a small render's start-up).
  if (std::all_of(text.begin(), text.end(),
                  [](char c) { return static_cast<unsigned char>(c) < 0x80; })) {
    std::string lower(utf8_prefix(text, k_max_slug_input_bytes));
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return lower;
  }
  icu::UnicodeString unicode = internal::from_utf8(utf8_prefix(text, k_max_slug_input_bytes));
  shared_transliterator().transliterate(unicode);
  return internal::to_utf8(unicode);
}

bool is_slug_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

} // namespace

std::string slugify(std::string_view text, std::size_t max_length) {
  std::string slug;
  bool pending_dash = false;
  for (const char c : to_ascii_lower(text)) {
    if (!is_slug_char(c)) {
      pending_dash = !slug.empty();
      continue;
    }
    if (pending_dash) {
      slug.push_back('-');
      pending_dash = false;
    }
    slug.push_back(c);
  }
  if (slug.size() <= max_length) {
    return slug;
  }
  // Cut at the last '-' that keeps the slug within bounds; a single long word is cut hard.
  const std::size_t dash = slug.rfind('-', max_length);
  slug.resize(dash == std::string::npos || dash == 0 ? max_length : dash);
  return slug;
}

} // namespace podcrawl::l10n

#include <algorithm>
#include <memory>
#include <string>
#include <unordered_map>

#include <unicode/translit.h>

#include "l10n_internal.hpp"
#include "podcrawl/core/ascii.hpp"
#include "podcrawl/core/error.hpp"
#include "podcrawl/core/text.hpp"
#include "podcrawl/l10n/localizer.hpp"

namespace podcrawl::l10n {

namespace {

// Titles longer than this are cut before transliteration; a slug never needs more.
constexpr std::size_t k_max_slug_input_bytes = 1024;

// Romanized words remembered per thread: a title's words recur across its episodes and shows.
constexpr std::size_t k_romanized_cache_entries = 8192;

// This thread's transliterator, built on its first use (about 30 ms: ICU compiles the rules);
// Transliterator::transliterate is not const, so threads do not share one.
icu::Transliterator& thread_transliterator() {
  thread_local const std::unique_ptr<icu::Transliterator> transliterator = [] {
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<icu::Transliterator> made(icu::Transliterator::createInstance(
        "Any-Latin; Latin-ASCII; Lower", UTRANS_FORWARD, status));
    if (U_FAILURE(status) || !made) {
      throw core::EnvironmentError(std::string("ICU transliterator unavailable: ") +
                                   u_errorName(status));
    }
    return made;
  }();
  return *transliterator;
}

std::string transliterated(std::string_view text) {
  icu::UnicodeString unicode = internal::from_utf8(text);
  thread_transliterator().transliterate(unicode);
  return internal::to_utf8(unicode);
}

bool is_slug_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

} // namespace

std::string romanize(std::string_view text) {
  text = core::utf8_prefix(text, k_max_slug_input_bytes);
  // ASCII needs no transliteration, only lower case: skip ICU (and building its transliterator,
  // the largest part of a small render's start-up).
  if (std::all_of(text.begin(), text.end(),
                  [](char c) { return static_cast<unsigned char>(c) < 0x80; })) {
    return core::ascii_lower(text);
  }
  thread_local std::unordered_map<std::string, std::string> remembered;
  if (const auto found = remembered.find(std::string(text)); found != remembered.end()) {
    return found->second;
  }
  if (remembered.size() >= k_romanized_cache_entries) {
    remembered.clear();
  }
  return remembered.emplace(std::string(text), transliterated(text)).first->second;
}

std::string slugify(std::string_view text, std::size_t max_length) {
  std::string slug;
  bool pending_dash = false;
  for (const char c : romanize(text)) {
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

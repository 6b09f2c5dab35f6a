// The visible text of HTML, white space collapsed and cut to a length at a word boundary.
#include "podcrawl/html/sanitize.hpp"

#include <unicode/brkiter.h>
#include <unicode/locid.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "html_internal.hpp"

namespace podcrawl::html {
namespace {

constexpr std::string_view k_ellipsis = "\u2026";

// Text whose runs of white space (Unicode's White_Space) are each one space, with none at either
// end, and its length in code points. Read in UTF-8: a page summarizes dozens of descriptions.
// Ill-formed UTF-8 becomes U+FFFD, one for each maximal subpart, as icu::UnicodeString::fromUTF8
// reads it.
struct Collapsed {
  std::string text;
  std::size_t chars = 0;
};

Collapsed collapse_whitespace(std::string_view utf8) {
  Collapsed collapsed;
  collapsed.text.reserve(utf8.size());
  const auto* bytes = reinterpret_cast<const uint8_t*>(utf8.data());
  const auto length = static_cast<int32_t>(std::min<std::size_t>(utf8.size(), INT32_MAX));
  bool pending_space = false;
  for (int32_t i = 0; i < length;) {
    const int32_t start = i;
    UChar32 c = bytes[i];
    if (c < 0x80) {
      ++i;
    } else {
      U8_NEXT(bytes, i, length, c);
    }
    const bool white =
        c < 0x80 ? c == ' ' || (c >= '\t' && c <= '\r') : c >= 0 && u_isUWhiteSpace(c);
    if (white) {
      pending_space = true;
      continue;
    }
    if (pending_space && !collapsed.text.empty()) {
      collapsed.text += ' ';
      ++collapsed.chars;
    }
    pending_space = false;
    if (c < 0) {
      collapsed.text += "\xEF\xBF\xBD";
    } else {
      collapsed.text.append(
          utf8.substr(static_cast<std::size_t>(start), static_cast<std::size_t>(i - start)));
    }
    ++collapsed.chars;
  }
  return collapsed;
}

// Return the last boundary of `kind` at or before `limit`, or 0 when there is none. Each
// thread keeps one iterator of each kind: making one costs more than a page of text.
int32_t boundary_before(const icu::UnicodeString& text, int32_t limit,
                        icu::BreakIterator* (*create)(const icu::Locale&, UErrorCode&)) {
  thread_local std::unique_ptr<icu::BreakIterator> word_iterator;
  thread_local std::unique_ptr<icu::BreakIterator> character_iterator;
  std::unique_ptr<icu::BreakIterator>& iterator =
      create == &icu::BreakIterator::createWordInstance ? word_iterator : character_iterator;
  if (!iterator) {
    UErrorCode status = U_ZERO_ERROR;
    iterator.reset(create(icu::Locale::getRoot(), status));
    if (U_FAILURE(status)) {
      iterator.reset();
    }
    if (!iterator) {
      return 0;
    }
  }
  iterator->setText(text);
  if (iterator->isBoundary(limit)) {
    return limit;
  }
  int32_t boundary = iterator->preceding(limit);
  return boundary == icu::BreakIterator::DONE ? 0 : boundary;
}

// The text, its white space collapsed, cut to at most max_chars characters with an ellipsis.
std::string shortened(const std::string& text_of_html, std::size_t max_chars) {
  Collapsed collapsed = collapse_whitespace(text_of_html);
  if (collapsed.chars <= max_chars) {
    return std::move(collapsed.text);
  }
  if (max_chars == 0) {
    return {};
  }
  // Leave room for the ellipsis, then back off to a word boundary; a single word longer than
  // the room is cut at a grapheme boundary instead.
  icu::UnicodeString text = icu::UnicodeString::fromUTF8(collapsed.text);
  int32_t limit = text.moveIndex32(0, static_cast<int32_t>(max_chars - 1));
  int32_t cut = boundary_before(text, limit, &icu::BreakIterator::createWordInstance);
  while (cut > 0 && u_isUWhiteSpace(text.char32At(cut - 1))) {
    --cut;
  }
  if (cut == 0) {
    cut = boundary_before(text, limit, &icu::BreakIterator::createCharacterInstance);
  }
  text.truncate(cut);
  std::string out;
  text.toUTF8String(out);
  return out.append(k_ellipsis);
}

} // namespace

std::string internal::plain_text_parsed(std::string_view html, std::size_t max_chars) {
  internal::Document document = internal::parse(html);
  return shortened(internal::collect_text(document->root), max_chars);
}

std::string plain_text(std::string_view html, std::size_t max_chars) {
  if (std::optional<std::string> text = internal::text_well_formed(html)) {
    return shortened(*text, max_chars);
  }
  return internal::plain_text_parsed(html, max_chars);
}

} // namespace podcrawl::html

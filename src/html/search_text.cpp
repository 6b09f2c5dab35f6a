#include "podcrawl/html/search_text.hpp"

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "html_internal.hpp"
#include "podcrawl/core/text.hpp"
#include "podcrawl/html/character_reference.hpp"

namespace podcrawl::html {
namespace {

// A character reference: the character it stands for and the bytes it takes.
struct Reference {
  char32_t code = 0;
  std::size_t length = 0;
};

// The reference starting with the '&' at text[i], when it is one search_text decodes: one of
// a few names, or a number that names a character. "&nbsp;" stands for a space: it separates
// words.
std::optional<Reference> character_reference(std::string_view text, std::size_t i) {
  static constexpr std::array<std::string_view, 6> k_names = {"amp",  "lt",   "gt",
                                                              "quot", "apos", "nbsp"};
  constexpr ReferenceRules k_rules{.names = k_names, .max_digits = k_max_reference_digits};
  const std::optional<CharacterReference> reference = read_character_reference(text, i, k_rules);
  if (!reference) {
    return std::nullopt;
  }
  if (reference->number) {
    if (!names_character(*reference->number)) {
      return std::nullopt;
    }
    return Reference{*reference->number, reference->length};
  }
  const char32_t code = reference->characters == U"\u00a0" ? U' ' : reference->characters.front();
  return Reference{code, reference->length};
}

} // namespace

std::string search_text(std::string_view html, std::size_t max_bytes) {
  std::string out;
  bool pending_space = false;
  const auto append = [&](std::string_view piece) {
    if (pending_space && !out.empty()) {
      out += ' ';
    }
    pending_space = false;
    out.append(piece);
  };
  // Past max_bytes nothing more is read; what went over is cut at a character.
  for (std::size_t i = 0; i < html.size() && out.size() <= max_bytes;) {
    const char c = html[i];
    if (c == '<') {
      if (const auto end = html.find('>', i); end != std::string_view::npos) {
        pending_space = true;
        i = end + 1;
        continue;
      }
    }
    if (internal::is_html_space(c)) {
      pending_space = true;
      ++i;
      continue;
    }
    if (c == '&') {
      if (const auto reference = character_reference(html, i)) {
        if (reference->code == U' ') {
          pending_space = true;
        } else {
          std::string decoded;
          core::append_utf8(decoded, reference->code);
          append(decoded);
        }
        i += reference->length;
        continue;
      }
    }
    append(html.substr(i, 1));
    ++i;
  }
  out.resize(core::utf8_prefix(out, max_bytes).size());
  return out;
}

} // namespace podcrawl::html

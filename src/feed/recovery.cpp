#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <utility>

#include "podcrawl/core/ascii.hpp"
#include "recovery_internal.hpp"
#include "text_internal.hpp"

namespace podcrawl::feed::internal {
namespace {

// How far into a document its XML declaration is looked for.
constexpr std::size_t k_max_junk_bytes = 1024;

constexpr std::string_view k_utf8_declaration = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
constexpr std::array<std::string_view, 5> k_xml_entities = {"amp", "lt", "gt", "quot", "apos"};

bool is_xml_char(std::uint32_t code) {
  return code == 0x9 || code == 0xa || code == 0xd || (code >= 0x20 && code <= 0xd7ff) ||
         (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);
}

// The replacement for the reference starting at document[at] == '&', and how many bytes of
// the input it consumes. A number is kept as written (with a lower-case 'x'), or written
// "&#xFFFD;" as HTML reads a number that names no character (zero, a surrogate, past U+10FFFF)
// and for one XML cannot hold (other controls); XML's own names are kept, other names written
// as numbers; an '&' that starts no reference is escaped.
std::pair<std::string, std::size_t> repair_reference(std::string_view document, std::size_t at) {
  const std::optional<html::CharacterReference> reference = read_reference(document, at);
  if (!reference) {
    return {"&amp;", 1};
  }
  std::string written(document.substr(at, reference->length));
  if (reference->number) {
    if (!is_xml_char(*reference->number)) {
      return {"&#xFFFD;", reference->length};
    }
    if (written[2] == 'X') {
      written[2] = 'x';
    }
    return {std::move(written), reference->length};
  }
  const std::string_view name = std::string_view(written).substr(1, written.size() - 2);
  if (std::find(k_xml_entities.begin(), k_xml_entities.end(), name) != k_xml_entities.end()) {
    return {std::move(written), reference->length};
  }
  std::string references;
  for (const char32_t c : reference->characters) {
    references += "&#" + std::to_string(static_cast<std::uint32_t>(c)) + ";";
  }
  return {std::move(references), reference->length};
}

// Length of the markup section (comment, CDATA) starting at `at`, or 0 when none starts there.
std::size_t verbatim_section_length(std::string_view document, std::size_t at) {
  struct Section {
    std::string_view open;
    std::string_view close;
  };
  constexpr std::array<Section, 2> k_sections = {{{"<!--", "-->"}, {"<![CDATA[", "]]>"}}};
  std::string_view rest = document.substr(at);
  for (const Section& section : k_sections) {
    if (rest.starts_with(section.open)) {
      std::size_t end = rest.find(section.close, section.open.size());
      return end == std::string_view::npos ? rest.size() : end + section.close.size();
    }
  }
  return 0;
}

// Position just past the declaration starting at `at` ("<!DOCTYPE ...>"), skipping quoted
// literals and the bracketed internal subset.
std::size_t end_of_doctype(std::string_view document, std::size_t at) {
  int depth = 0;
  for (std::size_t i = at; i < document.size(); ++i) {
    char c = document[i];
    if (c == '"' || c == '\'') {
      std::size_t close = document.find(c, i + 1);
      if (close == std::string_view::npos) {
        return document.size();
      }
      i = close;
    } else if (c == '[') {
      ++depth;
    } else if (c == ']') {
      --depth;
    } else if (c == '>' && depth <= 0) {
      return i + 1;
    }
  }
  return document.size();
}

} // namespace

std::optional<html::CharacterReference> read_reference(std::string_view text, std::size_t at) {
  // Cut where the ';' can be at the latest: digits then need no bound of their own.
  constexpr html::ReferenceRules k_rules{.names = std::nullopt, .max_digits = k_max_reference_body};
  return html::read_character_reference(text.substr(0, at + 1 + k_max_reference_body + 1), at,
                                        k_rules);
}

std::string skip_leading_junk(std::string document) {
  std::size_t declaration = std::string_view(document).substr(0, k_max_junk_bytes).find("<?xml");
  if (declaration != std::string::npos) {
    std::size_t end = document.find("?>", declaration);
    if (end == std::string::npos) {
      return std::string(k_utf8_declaration);
    }
    if (declaration == 0 && std::string_view(document).substr(0, end + 3) == k_utf8_declaration) {
      return document; // already what it would be rewritten to
    }
    return document.replace(0, end + 2, k_utf8_declaration);
  }
  std::size_t first_tag = document.find('<');
  if (first_tag == std::string::npos) {
    return std::string(trim(document));
  }
  return document.replace(0, first_tag, k_utf8_declaration);
}

std::string strip_doctype(std::string document) {
  std::size_t at = 0;
  while (at < document.size()) {
    at = document.find('<', at);
    if (at == std::string_view::npos) {
      break;
    }
    std::string_view rest = std::string_view(document).substr(at);
    if (rest.starts_with("<?")) {
      std::size_t end = document.find("?>", at);
      at = end == std::string_view::npos ? document.size() : end + 2;
    } else if (rest.starts_with("<!--")) {
      at += verbatim_section_length(document, at);
    } else if (rest.size() >= 9 && iequals(rest.substr(0, 9), "<!doctype")) {
      std::size_t end = end_of_doctype(document, at);
      return document.erase(at, end - at);
    } else {
      break; // the root element: the prolog is over
    }
  }
  return document;
}

std::string repair_entities(std::string document) {
  const std::string_view input = document;
  std::string out;
  std::size_t copied = 0; // input[copied, at) is still to be appended to `out`
  std::size_t at = 0;
  // The next '<' and '&' at or after `at`, each found again only once passed.
  std::size_t less_than = input.find('<');
  std::size_t ampersand = input.find('&');
  while (at < input.size()) {
    if (less_than < at) {
      less_than = input.find('<', at);
    }
    if (ampersand < at) {
      ampersand = input.find('&', at);
    }
    at = std::min({less_than, ampersand, input.size()});
    if (at == input.size()) {
      break;
    }
    if (input[at] == '<') {
      std::size_t length = verbatim_section_length(input, at);
      at += std::max<std::size_t>(length, 1);
      continue;
    }
    auto [replacement, consumed] = repair_reference(input, at);
    if (input.substr(at, consumed) != replacement) {
      if (copied == 0) {
        out.reserve(input.size() + input.size() / 64);
      }
      out.append(input.substr(copied, at - copied)).append(replacement);
      copied = at + consumed;
    }
    at += consumed;
  }
  if (copied == 0) {
    return document;
  }
  return out.append(input.substr(copied));
}

namespace {

// Attributes (namespace declarations included) read from one start tag; the rest are dropped.
// libxml2 compares each attribute with every earlier one of its tag, so the cost of a tag
// grows with the square of this.
constexpr std::size_t k_max_attributes = 256;

bool is_xml_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// The run of `name="value"` attributes that starts at `at` in a start tag, read the way
// libxml2 reads it: it ends at the first thing that is not such an attribute.
struct AttributeRun {
  std::size_t end = 0;                      // just past the last attribute
  std::size_t cut = std::string_view::npos; // where attribute k_max_attributes + 1 begins
};

AttributeRun attribute_run(std::string_view document, std::size_t at) {
  AttributeRun run{at};
  std::size_t count = 0;
  std::size_t i = at;
  const std::size_t size = document.size();
  while (true) {
    std::size_t start = i;
    while (i < size && is_xml_space(document[i])) {
      ++i;
    }
    std::size_t name = i;
    while (i < size && !is_xml_space(document[i]) &&
           std::string_view("=>/<\"'").find(document[i]) == std::string_view::npos) {
      ++i;
    }
    if (i == name) {
      return run;
    }
    while (i < size && is_xml_space(document[i])) {
      ++i;
    }
    if (i == size || document[i] != '=') {
      return run;
    }
    ++i;
    while (i < size && is_xml_space(document[i])) {
      ++i;
    }
    if (i == size || (document[i] != '"' && document[i] != '\'')) {
      return run;
    }
    std::size_t close = document.find(document[i], i + 1);
    if (close == std::string_view::npos) {
      return run;
    }
    i = close + 1;
    if (++count == k_max_attributes + 1) {
      run.cut = start;
    }
    run.end = i;
  }
}

} // namespace

std::string limit_attributes(std::string document_text) {
  const std::string_view document = document_text;
  std::string out;
  std::size_t copied = 0; // document[copied, at) is still to be appended to `out`
  std::size_t at = 0;
  while ((at = document.find('<', at)) != std::string_view::npos) {
    if (std::size_t length = verbatim_section_length(document, at)) {
      at += length;
      continue;
    }
    if (document.substr(at).starts_with("<?")) {
      std::size_t end = document.find("?>", at);
      at = end == std::string_view::npos ? document.size() : end + 2;
      continue;
    }
    std::size_t name_end = at + 1;
    while (name_end < document.size() && !is_xml_space(document[name_end]) &&
           std::string_view("/>!<").find(document[name_end]) == std::string_view::npos) {
      ++name_end;
    }
    if (name_end == at + 1) {
      ++at; // an end tag, a declaration or a stray '<'
      continue;
    }
    AttributeRun run = attribute_run(document, name_end);
    // Attribute names stop at '<', so any '<' in the kept run is inside a value.
    std::string_view kept = document.substr(name_end, std::min(run.cut, run.end) - name_end);
    if (run.cut != std::string_view::npos || kept.find('<') != std::string_view::npos) {
      out.append(document.substr(copied, name_end - copied));
      for (char c : kept) {
        out.append(c == '<' ? std::string_view("&lt;") : std::string_view(&c, 1));
      }
      copied = run.end;
    }
    at = std::max(run.end, name_end);
  }
  if (copied == 0) {
    return document_text;
  }
  return out.append(document.substr(copied));
}

std::string repair_markup(std::string document) {
  return repair_entities(limit_attributes(strip_doctype(skip_leading_junk(std::move(document)))));
}

} // namespace podcrawl::feed::internal

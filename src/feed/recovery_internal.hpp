#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "podcrawl/html/character_reference.hpp"

namespace podcrawl::feed::internal {

// Longest reference body, between '&' and ';', that feed text is read for: "#x10FFFF",
// "CounterClockwiseContourIntegral".
inline constexpr std::size_t k_max_reference_body = 32;

// The HTML character reference that starts with the '&' at text[at], as feed text is read for
// one: any name of the HTML Standard's table, or a number of any length, its ';' within
// k_max_reference_body bytes of the '&'. nullopt when none starts there.
std::optional<html::CharacterReference> read_reference(std::string_view text, std::size_t at);

// Return the UTF-8 document with anything before its XML declaration (or first tag when there
// is none) dropped and the declaration rewritten to say UTF-8.
std::string skip_leading_junk(std::string document);

// Return the document without its DOCTYPE declaration, internal subset included, so that no
// entity of the document's own is ever defined, let alone expanded or loaded.
std::string strip_doctype(std::string document);

// Return the document with HTML named references turned into numeric ones and every '&'
// that does not start a valid reference escaped as "&amp;". Comments and CDATA sections are
// left alone.
std::string repair_entities(std::string document);

// Return the document with every start tag cut to its first 256 attributes, so that no tag
// costs the parser more than a bounded amount of work, and '<' inside attribute values
// written "&lt;" (libxml2 would otherwise start a tag there that this count never saw).
// Comments, CDATA sections and processing instructions are left alone.
std::string limit_attributes(std::string document);

// Apply skip_leading_junk, strip_doctype, limit_attributes and repair_entities in order.
// Each step takes the document and gives it back without a copy when it has nothing to
// change, which is the common case.
std::string repair_markup(std::string document);

} // namespace podcrawl::feed::internal

#include <algorithm>
#include <array>

#include "recovery_internal.hpp"

namespace podcrawl::feed {
namespace {

// HTML's Latin-1 references name U+00A0..U+00FF in order.
constexpr std::array<std::string_view, 96> k_latin1_names = {
    "nbsp",   "iexcl",  "cent",   "pound",  "curren", "yen",    "brvbar", "sect",   "uml",
    "copy",   "ordf",   "laquo",  "not",    "shy",    "reg",    "macr",   "deg",    "plusmn",
    "sup2",   "sup3",   "acute",  "micro",  "para",   "middot", "cedil",  "sup1",   "ordm",
    "raquo",  "frac14", "frac12", "frac34", "iquest", "Agrave", "Aacute", "Acirc",  "Atilde",
    "Auml",   "Aring",  "AElig",  "Ccedil", "Egrave", "Eacute", "Ecirc",  "Euml",   "Igrave",
    "Iacute", "Icirc",  "Iuml",   "ETH",    "Ntilde", "Ograve", "Oacute", "Ocirc",  "Otilde",
    "Ouml",   "times",  "Oslash", "Ugrave", "Uacute", "Ucirc",  "Uuml",   "Yacute", "THORN",
    "szlig",  "agrave", "aacute", "acirc",  "atilde", "auml",   "aring",  "aelig",  "ccedil",
    "egrave", "eacute", "ecirc",  "euml",   "igrave", "iacute", "icirc",  "iuml",   "eth",
    "ntilde", "ograve", "oacute", "ocirc",  "otilde", "ouml",   "divide", "oslash", "ugrave",
    "uacute", "ucirc",  "uuml",   "yacute", "thorn",  "yuml",
};

struct NamedEntity {
  std::string_view name;
  char32_t code_point;
};

// Typographic, Latin Extended and common symbol references seen in feeds.
constexpr std::array<NamedEntity, 67> k_other_entities = {{
    {"OElig", 0x152},   {"oelig", 0x153},  {"Scaron", 0x160},  {"scaron", 0x161},
    {"Yuml", 0x178},    {"fnof", 0x192},   {"circ", 0x2c6},    {"tilde", 0x2dc},
    {"ensp", 0x2002},   {"emsp", 0x2003},  {"thinsp", 0x2009}, {"zwnj", 0x200c},
    {"zwj", 0x200d},    {"lrm", 0x200e},   {"rlm", 0x200f},    {"ndash", 0x2013},
    {"mdash", 0x2014},  {"lsquo", 0x2018}, {"rsquo", 0x2019},  {"sbquo", 0x201a},
    {"ldquo", 0x201c},  {"rdquo", 0x201d}, {"bdquo", 0x201e},  {"dagger", 0x2020},
    {"Dagger", 0x2021}, {"bull", 0x2022},  {"hellip", 0x2026}, {"permil", 0x2030},
    {"prime", 0x2032},  {"Prime", 0x2033}, {"lsaquo", 0x2039}, {"rsaquo", 0x203a},
    {"oline", 0x203e},  {"frasl", 0x2044}, {"euro", 0x20ac},   {"trade", 0x2122},
    {"larr", 0x2190},   {"uarr", 0x2191},  {"rarr", 0x2192},   {"darr", 0x2193},
    {"harr", 0x2194},   {"minus", 0x2212}, {"lowast", 0x2217}, {"radic", 0x221a},
    {"infin", 0x221e},  {"ne", 0x2260},    {"le", 0x2264},     {"ge", 0x2265},
    {"asymp", 0x2248},  {"loz", 0x25ca},   {"spades", 0x2660}, {"clubs", 0x2663},
    {"hearts", 0x2665}, {"diams", 0x2666}, {"alpha", 0x3b1},   {"beta", 0x3b2},
    {"gamma", 0x3b3},   {"delta", 0x3b4},  {"pi", 0x3c0},      {"mu", 0x3bc},
    {"sigma", 0x3c3},   {"omega", 0x3c9},  {"Omega", 0x3a9},   {"deg", 0xb0},
    {"sum", 0x2211},    {"prod", 0x220f},  {"part", 0x2202},
}};

} // namespace

std::optional<char32_t> html_entity(std::string_view name) {
  auto latin1 = std::find(k_latin1_names.begin(), k_latin1_names.end(), name);
  if (latin1 != k_latin1_names.end()) {
    return static_cast<char32_t>(0xa0 + (latin1 - k_latin1_names.begin()));
  }
  auto other = std::find_if(k_other_entities.begin(), k_other_entities.end(),
                            [name](const NamedEntity& entity) { return entity.name == name; });
  if (other != k_other_entities.end()) {
    return other->code_point;
  }
  return std::nullopt;
}

} // namespace podcrawl::feed

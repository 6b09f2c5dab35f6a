#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace podcrawl::html {

// The words of sanitized notes as search reads them: tags replaced by a space, the character
// references a sanitizer writes decoded (&amp; &lt; &gt; &quot; &apos; and numbers; &nbsp; as a
// space), runs of white space made one space, cut to at most max_bytes without splitting a
// character. A lexer, not a parser: fast enough for every episode a crawl stores, and right for
// the sanitizer's output, which is all it is given.
std::string search_text(std::string_view html, std::size_t max_bytes);

} // namespace podcrawl::html

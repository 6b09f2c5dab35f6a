// The bounds on what the HTML parser is given: input length, attributes per tag and open
// elements, each cut before parsing, so that no input costs the parser more than a bounded
// amount of time and memory.
#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "html_internal.hpp"
#include "podcrawl/core/ascii.hpp"
#include "podcrawl/core/text.hpp"
#include "podcrawl/html/sanitize.hpp"

namespace podcrawl::html::internal {
namespace {

// Tag names that the nesting count (see nesting_cut) treats specially, space-separated.
// Void elements never stay open.
constexpr std::string_view k_void_names =
    "area base br col embed hr img input keygen link meta param source track wbr";
// Formatting elements: when something else closes them, the parser remembers them and opens
// them again later, up to three copies of the same tag.
constexpr std::string_view k_formatting_names =
    "a b big code em font i nobr s small strike strong tt u";
constexpr int k_max_reopened_copies = 3;

// A start tag that first closes the open elements of the listed names on top of the stack.
struct ImplicitClose {
  std::string_view name;
  std::string_view closes;
};
constexpr std::array k_implicit_closes = {
    ImplicitClose{"p", "p"},
    ImplicitClose{"li", "li"},
    ImplicitClose{"dt", "dt dd"},
    ImplicitClose{"dd", "dt dd"},
    ImplicitClose{"tr", "tr td th"},
    ImplicitClose{"td", "td th"},
    ImplicitClose{"th", "td th"},
    ImplicitClose{"option", "option"},
    ImplicitClose{"optgroup", "option optgroup"},
    ImplicitClose{"rt", "rt rp"},
    ImplicitClose{"rp", "rt rp"},
};

// Estimates the parser's stack of open elements from tags alone: implicit closing of
// paragraphs, list items and cells, end tags closing inline elements along the way, and
// formatting elements the parser reopens after something else closed them.
class OpenElementCounter {
public:
  std::size_t count() const { return m_open.size() + m_reopened_total; }

  void start(std::string name, std::string key) {
    if (has_token(k_void_names, name)) {
      return;
    }
    auto rule = std::find_if(k_implicit_closes.begin(), k_implicit_closes.end(),
                             [&name](const ImplicitClose& close) { return close.name == name; });
    while (rule != k_implicit_closes.end() && !m_open.empty() &&
           has_token(rule->closes, m_open.back().name)) {
      close_top();
    }
    m_open.push_back({std::move(name), std::move(key)});
  }

  void end(std::string_view name) {
    for (auto open = m_open.rbegin(); open != m_open.rend(); ++open) {
      if (open->name == name) {
        auto below = std::next(open).base();
        while (m_open.end() - below > 1) {
          close_top();
        }
        m_open.pop_back();
        return;
      }
      if (!has_token(k_formatting_names, open->name) && !is_implicitly_closed(open->name)) {
        break;
      }
    }
    // An end tag with nothing open to match ends a reopened formatting element, if any.
    for (auto reopened = m_reopened.begin(); reopened != m_reopened.end(); ++reopened) {
      if (reopened->first.name == name) {
        if (--reopened->second == 0) {
          m_reopened.erase(reopened);
        }
        --m_reopened_total;
        return;
      }
    }
  }

private:
  struct Element {
    std::string name;
    std::string key; // the start tag's text, attributes included
    bool operator<(const Element& other) const { return key < other.key; }
  };

  static bool is_implicitly_closed(std::string_view name) {
    return std::any_of(k_implicit_closes.begin(), k_implicit_closes.end(),
                       [name](const ImplicitClose& close) { return close.name == name; });
  }

  void close_top() {
    Element& top = m_open.back();
    if (has_token(k_formatting_names, top.name)) {
      int& copies = m_reopened[top];
      if (copies < k_max_reopened_copies) {
        ++copies;
        ++m_reopened_total;
      }
    }
    m_open.pop_back();
  }

  std::vector<Element> m_open;
  std::map<Element, int> m_reopened;
  std::size_t m_reopened_total = 0;
};

// Return where the HTML must be cut so that no more than k_max_open_tags elements are open
// at once, or npos when it need not be. It reads tags without parsing and errs towards
// counting too many.
std::size_t nesting_cut(std::string_view html) {
  constexpr std::size_t k_max_name_length = 32;
  constexpr std::size_t k_max_key_length = 256;
  OpenElementCounter counter;
  for (std::size_t i = html.find('<'); i != std::string_view::npos; i = html.find('<', i)) {
    std::size_t start = i++;
    bool closing = i < html.size() && html[i] == '/';
    i += closing ? 1 : 0;
    if (i >= html.size() || !core::is_ascii_alpha(html[i])) {
      continue;
    }
    std::size_t name_end = std::min(html.find_first_of(" \t\n\r\f/>", i), html.size());
    std::string name = core::ascii_lower(html.substr(i, std::min(name_end - i, k_max_name_length)));
    if (closing) {
      counter.end(name);
      continue;
    }
    std::size_t tag_end = std::min(html.find('>', i), html.size());
    std::string key =
        core::ascii_lower(html.substr(start, std::min(tag_end - start, k_max_key_length)));
    counter.start(std::move(name), std::move(key));
    if (counter.count() > k_max_open_tags) {
      return start;
    }
  }
  return std::string_view::npos;
}

// Rewrites tags for bound_attributes: `out` receives html[copied, at) before each change.
class AttributeBounder {
public:
  explicit AttributeBounder(std::string_view html) : m_html(html) {}

  std::optional<std::string> run() {
    for (std::size_t at = m_html.find('<'); at != std::string_view::npos;
         at = m_html.find('<', at)) {
      if (m_html.substr(at).starts_with("<!--")) {
        at = comment_end(at + 4); // what a comment holds is no tag, whatever it looks like
        continue;
      }
      std::size_t name = at + 1 + (at + 1 < m_html.size() && m_html[at + 1] == '/' ? 1 : 0);
      bool alpha = name < m_html.size() && ((m_html[name] >= 'a' && m_html[name] <= 'z') ||
                                            (m_html[name] >= 'A' && m_html[name] <= 'Z'));
      at = alpha ? read_tag(name) : at + 1;
    }
    if (!m_changed) {
      return std::nullopt;
    }
    m_out.append(m_html.substr(m_copied));
    return std::move(m_out);
  }

private:
  // Where the comment whose text starts at `at` ends, as the HTML parser ends it: after "-->" or
  // "--!>", at once for "<!-->" and "<!--->", or at the end of the input.
  std::size_t comment_end(std::size_t at) const {
    const std::string_view text = m_html.substr(at);
    if (text.starts_with(">")) {
      return at + 1;
    }
    if (text.starts_with("->")) {
      return at + 2;
    }
    const std::size_t closed = std::min(text.find("-->"), text.find("--!>"));
    if (closed == std::string_view::npos) {
      return m_html.size();
    }
    return at + closed + (text.compare(closed, 3, "-->") == 0 ? 3 : 4);
  }

  // Read the tag whose name starts at `at`; return where it ends (at its '>' or the end).
  std::size_t read_tag(std::size_t at) {
    const std::size_t size = m_html.size();
    std::size_t i = skip_name(at, "/>");
    std::size_t count = 0;
    std::size_t excess = std::string_view::npos; // where the first dropped attribute starts
    while (i < size && m_html[i] != '>') {
      if (is_html_space(m_html[i]) || m_html[i] == '/') {
        ++i;
        continue;
      }
      if (++count == k_max_attributes + 1) {
        excess = i;
      }
      i = skip_name(i + 1, "/>="); // the first character may be '='
      std::size_t after = i;
      while (after < size && is_html_space(m_html[after])) {
        ++after;
      }
      if (after == size || m_html[after] != '=') {
        i = after;
        continue;
      }
      i = after + 1;
      while (i < size && is_html_space(m_html[i])) {
        ++i;
      }
      if (i < size && (m_html[i] == '"' || m_html[i] == '\'')) {
        std::size_t close = std::min(m_html.find(m_html[i], i + 1), size);
        if (excess == std::string_view::npos) {
          escape_less_than(i + 1, close);
        }
        i = close == size ? size : close + 1;
      } else {
        i = skip_name(i, ">");
      }
    }
    if (excess != std::string_view::npos) {
      m_out.append(m_html.substr(m_copied, excess - m_copied));
      m_copied = i;
      m_changed = true;
    }
    return i;
  }

  // Past the run of characters from `at` that are neither space nor one of `stops`.
  std::size_t skip_name(std::size_t at, std::string_view stops) const {
    while (at < m_html.size() && !is_html_space(m_html[at]) &&
           stops.find(m_html[at]) == std::string_view::npos) {
      ++at;
    }
    return at;
  }

  void escape_less_than(std::size_t begin, std::size_t end) {
    for (std::size_t lt = m_html.find('<', begin); lt < end; lt = m_html.find('<', lt + 1)) {
      m_out.append(m_html.substr(m_copied, lt - m_copied)).append("&lt;");
      m_copied = lt + 1;
      m_changed = true;
    }
  }

  std::string_view m_html;
  std::string m_out;
  std::size_t m_copied = 0; // m_html[m_copied, ...) is not in m_out yet
  bool m_changed = false;
};

// Return the HTML with the attributes of each tag past the first k_max_attributes dropped and
// every '<' inside a quoted attribute value written "&lt;" (which means the same there), or
// nullopt when there is neither. Tags are read the way the HTML tokenizer reads them; with no
// '<' left inside quoted values, a tag the parser finds can only start where this reading
// finds one too, or inside one of its unquoted attributes, and it reads the same attributes
// from the first space on, so none of the parser's tags escapes the count.
std::optional<std::string> bound_attributes(std::string_view html) {
  return AttributeBounder(html).run();
}

} // namespace

Document parse(std::string_view html) {
  html = core::utf8_prefix(html, k_max_input_bytes);
  std::shared_ptr<const std::string> bounded;
  if (std::optional<std::string> rewritten = bound_attributes(html)) {
    bounded = std::make_shared<const std::string>(std::move(*rewritten));
    html = *bounded;
  }
  html = html.substr(0, nesting_cut(html));
  GumboOptions options = kGumboDefaultOptions;
  options.max_errors = 0; // parse errors are of no use here; do not spend memory on them
  Document document(gumbo_parse_with_options(&options, html.data(), html.size()),
                    OutputDeleter{bounded});
  if (!document) {
    throw std::bad_alloc();
  }
  return document;
}

} // namespace podcrawl::html::internal

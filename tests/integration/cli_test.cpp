// The command line against a real PostgreSQL database: exit statuses, output shapes, and
// the crawl-list commands.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <algorithm>
#include <chrono>

#include "support/process.hpp"
#include "support/temp_database.hpp"
#include "support/temp_dir.hpp"

namespace podcrawl {
namespace {

using testing::run_process;

const char* const k_commands[] = {"migrate", "add",     "remove", "list",   "export-opml",
                                  "crawl",   "parse",   "show",   "render", "serve",
                                  "search",  "reindex", "stats",  "api-key"};

testing::ProcessResult podcrawl(std::vector<std::string> arguments) {
  arguments.insert(arguments.begin(), testing::podcrawl_binary());
  return run_process(arguments);
}

TEST(Cli, HelpListsEveryCommand) {
  const auto result = podcrawl({"--help"});
  EXPECT_EQ(result.status, 0);
  for (const char* command : k_commands) {
    EXPECT_NE(result.out.find(command), std::string::npos) << command;
  }
}

TEST(Cli, EveryCommandHasHelp) {
  for (const char* command : k_commands) {
    const auto result = podcrawl({command, "--help"});
    EXPECT_EQ(result.status, 0) << command;
    EXPECT_NE(result.out.find("Usage"), std::string::npos) << command;
  }
}

TEST(Cli, BadUsageExitsWith2) {
  EXPECT_EQ(podcrawl({}).status, 2);
  EXPECT_EQ(podcrawl({"no-such-command"}).status, 2);
  EXPECT_EQ(podcrawl({"crawl", "--limit", "-3"}).status, 2);
  EXPECT_EQ(podcrawl({"parse", "/no/such/file.xml"}).status, 2);
  EXPECT_EQ(podcrawl({"render", "--out", "/tmp/x", "--now", "yesterday"}).status, 2);
}

TEST(Cli, AnUnreachableDatabaseExitsWith1) {
  const auto result = podcrawl({"--database-url", "postgresql://nobody@127.0.0.1:1/none", "list"});
  EXPECT_EQ(result.status, 1);
}

// Regression: a misspelt key in the configuration was ignored, its default silently used.
TEST(Cli, AConfigurationProblemIsReportedAtItsLineAndExitsWith2) {
  testing::TempDir dir;
  const auto config = dir.path() / "podcrawl.toml";
  testing::write_file(config, "[fetch]\nmax_redirects = 3\nfoo = 1\n");
  testing::ChildProcess child({testing::podcrawl_binary(), "--config", config.string(), "list"});
  const auto result = child.wait_for(std::chrono::seconds(60));
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(result->status, 2);
  EXPECT_EQ(result->err, "podcrawl: " + config.string() + ":3: unknown key \"fetch.foo\"\n");
}

class CliDatabase : public testing::DatabaseTest {
protected:
  testing::ProcessResult run(std::vector<std::string> arguments) {
    arguments.insert(arguments.begin(), {"--database-url", database_url()});
    return podcrawl(arguments);
  }
};

TEST_F(CliDatabase, MigrateIsIdempotent) {
  const auto first = run({"migrate"});
  ASSERT_EQ(first.status, 0);
  EXPECT_NE(first.out.find("applied"), std::string::npos);
  const auto second = run({"migrate"});
  ASSERT_EQ(second.status, 0);
  EXPECT_EQ(second.out.find("applied"), std::string::npos);
}

TEST_F(CliDatabase, AddNormalizesAndDeduplicates) {
  const auto first = run(
      {"add", "--no-discover", "HTTP://Example.COM:80/feed.xml#top", "https://example.org/rss"});
  ASSERT_EQ(first.status, 0) << first.out;
  EXPECT_NE(first.out.find("added http://example.com/feed.xml"), std::string::npos) << first.out;
  const auto again = run({"add", "--no-discover", "http://example.com/feed.xml"});
  EXPECT_EQ(again.status, 0);
  EXPECT_NE(again.out.find("exists http://example.com/feed.xml"), std::string::npos) << again.out;
  const auto list = nlohmann::json::parse(run({"list", "--json"}).out);
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0]["url"], "http://example.com/feed.xml");
  EXPECT_EQ(list[0]["status"], "active");
  for (const char* key : {"last_fetch_at", "next_fetch_at", "last_status", "last_error", "failures",
                          "failure_score", "show_slug"}) {
    EXPECT_TRUE(list[0].contains(key)) << key;
  }
}

TEST_F(CliDatabase, BadInputChangesNothing) {
  // Longer than the crawl list's index holds.
  const std::string too_long = "https://example.com/" + std::string(3000, 'a');
  const auto result = run({"add", "--no-discover", "https://example.com/ok.xml", "not a url",
                           "javascript:alert(1)", too_long});
  EXPECT_EQ(result.status, 2);
  EXPECT_NE(result.out.find("error not a url"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("error " + too_long), std::string::npos) << result.out;
  EXPECT_EQ(nlohmann::json::parse(run({"list", "--json"}).out).size(), 0u);
}

TEST_F(CliDatabase, RemoveKeepsTheFeedAsRemoved) {
  ASSERT_EQ(run({"add", "--no-discover", "https://example.com/a.xml"}).status, 0);
  ASSERT_EQ(run({"remove", "https://example.com/a.xml"}).status, 0);
  EXPECT_EQ(run({"remove", "https://example.com/unknown.xml"}).status, 2);
  const auto removed = nlohmann::json::parse(run({"list", "--json", "--status", "removed"}).out);
  ASSERT_EQ(removed.size(), 1u);
  EXPECT_EQ(removed[0]["status"], "removed");
  const auto stats = nlohmann::json::parse(run({"stats", "--json"}).out);
  EXPECT_EQ(stats["feeds"]["removed"], 1);
  EXPECT_EQ(stats["feeds"]["total"], 1);
}

TEST_F(CliDatabase, ExportedOpmlAddsTheSameList) {
  ASSERT_EQ(
      run({"add", "--no-discover", "https://example.com/a.xml", "https://example.net/b"}).status,
      0);
  testing::TempDir dir;
  const auto opml = (dir.path() / "list.opml").string();
  ASSERT_EQ(run({"export-opml", "--out", opml}).status, 0);
  const auto content = testing::read_file(opml);
  EXPECT_NE(content.find("<opml version=\"2.0\""), std::string::npos) << content;
  testing::TempDatabase other;
  const auto imported = podcrawl({"--database-url", other.url(), "add", "--opml", opml});
  ASSERT_EQ(imported.status, 0) << imported.out;
  EXPECT_NE(imported.out.find("added https://example.com/a.xml"), std::string::npos);
  EXPECT_NE(imported.out.find("added https://example.net/b"), std::string::npos);
}

// Files that cannot be read, or are not what the command reads: one line on stderr naming the
// file, exit 2, nothing written. A folder stands in for an unreadable file, since the suite may
// run as root, who can read any file whatever its mode.
TEST_F(CliDatabase, UnreadableAndMalformedInputFilesAreRefusedInOneLine) {
  testing::TempDir dir;
  const auto folder = dir.path().string();
  const auto html = (dir.path() / "page.opml").string();
  testing::write_file(html, "<html><body><a href=\"https://example.com/feed\">feed</a></body>");
  const auto truncated = (dir.path() / "cut.opml").string();
  testing::write_file(truncated, "<?xml version=\"1.0\"?><opml version=\"2.0\"><body><outline ");
  const auto empty = (dir.path() / "empty.opml").string();
  testing::write_file(empty, "");
  const std::vector<std::vector<std::string>> commands = {
      {"add", "--opml", (dir.path() / "missing.opml").string()},
      {"add", "--opml", folder},
      {"add", "--opml", html},
      {"add", "--opml", truncated},
      {"add", "--opml", empty},
      {"add", "--opml", folder, "https://example.com/also-given.xml"},
      {"parse", folder},
      {"--config", folder, "list"},
      {"--config", (dir.path() / "missing.toml").string(), "list"},
  };
  for (const auto& command : commands) {
    std::string shown;
    for (const auto& argument : command) {
      shown += argument + " ";
    }
    std::vector<std::string> arguments = {testing::podcrawl_binary(), "--database-url",
                                          database_url()};
    arguments.insert(arguments.end(), command.begin(), command.end());
    testing::ChildProcess child(arguments);
    const auto finished = child.wait_for(std::chrono::seconds(60));
    ASSERT_TRUE(finished.has_value()) << shown;
    const auto& result = *finished;
    EXPECT_EQ(result.status, 2) << shown << result.err;
    EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << shown << result.err;
    EXPECT_EQ(result.err.rfind("podcrawl: ", 0), 0u) << shown << result.err;
  }
  EXPECT_EQ(nlohmann::json::parse(run({"list", "--json"}).out).size(), 0u);
}

TEST_F(CliDatabase, ALongOpmlFileIsAddedWithALinePerUrlInOrder) {
  // More outlines than one batch of the list holds, with copies of earlier URLs.
  constexpr int k_feeds = 2500;
  std::string opml = "<?xml version=\"1.0\"?><opml version=\"2.0\"><body>";
  std::string expected;
  for (int i = 0; i < k_feeds; ++i) {
    const std::string url = "https://many.example/" + std::to_string(i) + ".xml";
    opml += "<outline type=\"rss\" xmlUrl=\"" + url + "\"/>";
    expected += "added " + url + "\n";
    if (i % 700 == 0) {
      opml += "<outline type=\"rss\" xmlUrl=\"" + url + "\"/>";
      expected += "exists " + url + "\n";
    }
  }
  opml += "</body></opml>";
  testing::TempDir dir;
  const auto path = (dir.path() / "many.opml").string();
  testing::write_file(path, opml);
  const auto result = run({"add", "--opml", path});
  ASSERT_EQ(result.status, 0);
  EXPECT_EQ(result.out, expected);
  EXPECT_EQ(nlohmann::json::parse(run({"list", "--json"}).out).size(),
            static_cast<std::size_t>(k_feeds));
}

// Regression: an older podcrawl ran against a database a newer one had migrated, writing rows
// into a schema it did not know.
TEST_F(CliDatabase, EveryCommandRefusesADatabaseMigratedByANewerPodcrawl) {
  ASSERT_EQ(run({"migrate"}).status, 0);
  {
    pqxx::connection connection(database_url());
    pqxx::work txn(connection);
    txn.exec("INSERT INTO schema_migrations (name) VALUES ('0999_from_the_future.sql')");
    txn.commit();
  }
  testing::TempDir dir;
  const std::vector<std::vector<std::string>> commands = {
      {"migrate"},
      {"add", "--no-discover", "https://example.com/feed.xml"},
      {"remove", "https://example.com/feed.xml"},
      {"list"},
      {"export-opml"},
      {"crawl"},
      {"show", "some-show"},
      {"render", "--out", (dir.path() / "site").string()},
      {"search", "anything"},
      {"stats"},
      {"api-key", "create", "--name", "a client"},
      {"api-key", "list"},
  };
  const std::string expected =
      "podcrawl: database schema is newer than this podcrawl (unknown migration "
      "0999_from_the_future.sql); upgrade podcrawl\n";
  for (const auto& command : commands) {
    SCOPED_TRACE(command.front());
    std::vector<std::string> arguments = {testing::podcrawl_binary(), "--database-url",
                                          database_url()};
    arguments.insert(arguments.end(), command.begin(), command.end());
    testing::ChildProcess child(arguments);
    const auto result = child.wait_for(std::chrono::seconds(60));
    ASSERT_TRUE(result.has_value());
    EXPECT_EQ(result->status, 1);
    EXPECT_EQ(result->err, expected);
    EXPECT_TRUE(result->out.empty()) << result->out;
  }
  pqxx::connection connection(database_url());
  pqxx::work txn(connection);
  EXPECT_EQ(txn.exec1("SELECT count(*) FROM feeds")[0].as<int>(), 0);
  EXPECT_EQ(txn.exec1("SELECT count(*) FROM api_keys")[0].as<int>(), 0);
}

TEST_F(CliDatabase, StatsJsonHasTheSpecShape) {
  const auto stats = nlohmann::json::parse(run({"stats", "--json"}).out);
  for (const char* key : {"total", "active", "failing", "gone", "removed"}) {
    EXPECT_TRUE(stats["feeds"].contains(key)) << key;
  }
  for (const char* key : {"shows", "episodes", "removed_episodes", "last_crawl"}) {
    EXPECT_TRUE(stats.contains(key)) << key;
  }
}

// podcrawl with the test's database, its stderr collected.
testing::ProcessResult run_collecting(const std::string& database_url,
                                      const std::vector<std::string>& command) {
  std::vector<std::string> arguments = {testing::podcrawl_binary(), "--database-url", database_url};
  arguments.insert(arguments.end(), command.begin(), command.end());
  testing::ChildProcess child(arguments);
  auto result = child.wait_for(std::chrono::seconds(60));
  return result.value_or(testing::ProcessResult{});
}

TEST_F(CliDatabase, AnApiKeyIsShownWithItsSecretOnceThenListedWithoutIt) {
  const auto made = run({"api-key", "create", "--name", "Podverse sync", "--write"});
  ASSERT_EQ(made.status, 0);
  const auto lines = [&] {
    std::vector<std::string> split;
    std::size_t start = 0;
    for (std::size_t end; (end = made.out.find('\n', start)) != std::string::npos;
         start = end + 1) {
      split.push_back(made.out.substr(start, end - start));
    }
    return split;
  }();
  ASSERT_EQ(lines.size(), 3u) << made.out;
  ASSERT_EQ(lines[0].rfind("api key: ", 0), 0u) << made.out;
  ASSERT_EQ(lines[1].rfind("api secret: ", 0), 0u) << made.out;
  EXPECT_NE(lines[2].find("not shown again"), std::string::npos) << made.out;
  const std::string key = lines[0].substr(9);
  const std::string secret = lines[1].substr(12);
  EXPECT_EQ(key.size(), 20u);
  EXPECT_EQ(secret.size(), 40u);
  ASSERT_EQ(run({"api-key", "create", "--name", "reader"}).status, 0);

  const auto listed = run({"api-key", "list", "--json"});
  ASSERT_EQ(listed.status, 0);
  EXPECT_EQ(listed.out.find(secret), std::string::npos);
  const auto keys = nlohmann::json::parse(listed.out);
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys[0]["key"], key);
  EXPECT_EQ(keys[0]["name"], "Podverse sync");
  EXPECT_EQ(keys[0]["write"], true);
  EXPECT_EQ(keys[1]["write"], false);
  EXPECT_TRUE(keys[0]["id"].is_number_integer());
  EXPECT_TRUE(keys[0]["created_at"].is_string());
  EXPECT_TRUE(keys[0]["revoked_at"].is_null());
  EXPECT_FALSE(keys[0].contains("secret"));

  const auto table = run({"api-key", "list"});
  ASSERT_EQ(table.status, 0);
  EXPECT_NE(table.out.find(key + "\twrite\t"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("\tPodverse sync\n"), std::string::npos) << table.out;
  EXPECT_EQ(table.out.find(secret), std::string::npos);

  const auto revoked = run({"api-key", "revoke", key});
  ASSERT_EQ(revoked.status, 0);
  EXPECT_EQ(revoked.out, "revoked " + key + "\n");
  const auto after = nlohmann::json::parse(run({"api-key", "list", "--json"}).out);
  EXPECT_TRUE(after[0]["revoked_at"].is_string());
  EXPECT_TRUE(after[1]["revoked_at"].is_null());

  const auto again = run_collecting(database_url(), {"api-key", "revoke", key});
  EXPECT_EQ(again.status, 2);
  EXPECT_EQ(again.err, "podcrawl: no active API key " + key + "\n");
}

TEST_F(CliDatabase, ApiKeyCommandsRefuseBadUsageWith2) {
  const std::vector<std::vector<std::string>> commands = {
      {"api-key"},
      {"api-key", "create"},
      {"api-key", "create", "--name", ""},
      {"api-key", "create", "--name", std::string(101, 'x')},
      {"api-key", "create", "--name", "two\nlines"},
      {"api-key", "revoke"},
      {"api-key", "revoke", "NOSUCHKEY00000000000"},
  };
  for (const auto& command : commands) {
    const auto result = run_collecting(database_url(), command);
    EXPECT_EQ(result.status, 2) << command.back() << result.err;
  }
  EXPECT_EQ(nlohmann::json::parse(run({"api-key", "list", "--json"}).out).size(), 0u);
}

TEST(Cli, ApiKeySubcommandsHaveHelp) {
  for (const char* command : {"create", "list", "revoke"}) {
    const auto result = podcrawl({"api-key", command, "--help"});
    EXPECT_EQ(result.status, 0) << command;
    EXPECT_NE(result.out.find("Usage"), std::string::npos) << command;
  }
}

} // namespace
} // namespace podcrawl

#include "api_fixture.hpp"

#include <chrono>
#include <ctime>

#include <gtest/gtest.h>

#include "podcrawl/core/hash.hpp"

namespace podcrawl::testing {

using namespace std::chrono_literals;

void ApiServe::SetUp() {
  DirectoryTest::SetUp();
  if (IsSkipped()) { // no test database
    return;
  }
  m_tech->set(tech_feed(), "\"tech-1\"");
  m_tech->serve(m_feeds, "/tech.xml");
  m_feeds.serve_feed("/ar.xml", arabic_feed(), "application/rss+xml", "\"ar-1\"");
  add_opml({m_feeds.url("/tech.xml"), m_feeds.url("/ar.xml")});
  const auto crawled = run({"--allow-private-networks", "crawl"});
  ASSERT_EQ(crawled.status, 0) << crawled.out;
  m_key = create_key("tests");
}

ApiKey ApiServe::create_key(const std::string& name, bool write) {
  std::vector<std::string> arguments = {"api-key", "create", "--name", name};
  if (write) {
    arguments.emplace_back("--write");
  }
  const auto made = run(arguments);
  EXPECT_EQ(made.status, 0) << made.out;
  ApiKey key;
  const auto value_of = [&](const std::string& label) {
    const auto at = made.out.find(label);
    if (at == std::string::npos) {
      return std::string();
    }
    const auto start = at + label.size();
    return made.out.substr(start, made.out.find('\n', start) - start);
  };
  key.key = value_of("api key: ");
  key.secret = value_of("api secret: ");
  EXPECT_EQ(key.key.size(), 20U) << made.out;
  EXPECT_FALSE(key.secret.empty()) << made.out;
  return key;
}

int ApiServe::start_serve(const std::string& api_lines, const std::vector<std::string>& global) {
  const auto config = m_dir.path() / "serve.toml";
  write_file(config, "[serve]\naccess_log = false\n[api]\n" + api_lines);
  std::vector<std::string> arguments = {"--config", config.string()};
  arguments.insert(arguments.end(), global.begin(), global.end());
  for (const char* argument : {"serve", "--port", "0", "--locales", "en,ar", "--now", k_api_now}) {
    arguments.emplace_back(argument);
  }
  m_serve = std::make_unique<ChildProcess>(command(arguments));
  const auto out = m_serve->wait_for_output("/\n", 60s);
  if (!out) {
    ADD_FAILURE() << "serve did not start";
    return 0;
  }
  return std::stoi(out->substr(out->rfind(':') + 1));
}

std::vector<std::string> ApiServe::signed_with(const ApiKey& key, const std::string& date) {
  return {"User-Agent: podcrawl-tests/1.0", "X-Auth-Key: " + key.key, "X-Auth-Date: " + date,
          "Authorization: " + core::sha1_hex(key.key + key.secret + date)};
}

std::vector<std::string> ApiServe::signed_now() const {
  return signed_with(m_key, std::to_string(std::time(nullptr)));
}

} // namespace podcrawl::testing

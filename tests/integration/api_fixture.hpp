#pragma once

#include <memory>
#include <string>
#include <vector>

#include "directory_fixture.hpp"
#include "support/http_client.hpp"
#include "support/loopback_server.hpp"

namespace podcrawl::testing {

// The clock `podcrawl serve` is started with (--now), for its pages' relative dates.
constexpr const char* k_api_now = "2026-12-01T00:00:00Z";

// An API key as `podcrawl api-key create` prints it.
struct ApiKey {
  std::string key;
  std::string secret;
};

// A directory of two crawled loopback feeds (tech_feed() at /tech.xml, arabic_feed() at /ar.xml)
// and one API key, for tests of the APIs `podcrawl serve` answers. SetUp skips the test when
// there is no test database.
class ApiServe : public DirectoryTest {
protected:
  void SetUp() override;

  // Create a key with `podcrawl api-key create --name name` (and --write).
  ApiKey create_key(const std::string& name, bool write = false);
  // Start the live directory with these [api] lines (and podcrawl's global options before the
  // command); the port it listens on, 0 (and a failure) when it did not start within a minute.
  int start_serve(const std::string& api_lines = "", const std::vector<std::string>& global = {});

  // The headers of a request signed as Podcast Index's clients sign it, with this date header.
  static std::vector<std::string> signed_with(const ApiKey& key, const std::string& date);
  // Signed with m_key and the time now.
  std::vector<std::string> signed_now() const;
  // GET target, signed now.
  Answer api(int port, const std::string& target) { return get(port, target, signed_now()); }

  LoopbackServer m_feeds;
  std::shared_ptr<ChangingFeed> m_tech = std::make_shared<ChangingFeed>();
  std::unique_ptr<ChildProcess> m_serve;
  ApiKey m_key;
};

} // namespace podcrawl::testing

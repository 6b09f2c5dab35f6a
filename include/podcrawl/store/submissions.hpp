#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "podcrawl/store/database.hpp"

namespace podcrawl::store {

// A podcast sent with the live directory's form, waiting for the operator's review.
struct Submission {
  std::int64_t id = 0;
  std::string url;   // the feed's normalized URL
  std::string given; // as it was sent
  std::string client;
  std::int64_t submitted_at = 0; // Unix seconds
};

// The submissions waiting for review ([submit] review).
class Submissions {
public:
  explicit Submissions(Database& database);

  // Queue the feed `url` (normalized) as sent (`given`) by `client`; false when it waits
  // already.
  bool queue(const std::string& url, const std::string& given, const std::string& client);
  // Every submission waiting, oldest first.
  std::vector<Submission> waiting();
  std::optional<Submission> find(std::int64_t id);
  // Take a submission out of the queue, accepted or rejected; false when none has that id.
  bool remove(std::int64_t id);

private:
  Database::Impl* m_impl;
};

} // namespace podcrawl::store

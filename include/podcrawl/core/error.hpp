#pragma once

#include <stdexcept>
#include <string>

namespace podcrawl::core {

// Bad usage or bad input from the user: the CLI prints the message and exits 2.
class UsageError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// A failure of the environment (database unreachable, disk full, missing files): exit 1.
class EnvironmentError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

} // namespace podcrawl::core

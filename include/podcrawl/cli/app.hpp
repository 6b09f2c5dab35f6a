#pragma once

namespace podcrawl::cli {

// Run the podcrawl command line. Returns the process exit status: 0 success, 2 bad usage or
// bad input, 1 a failure of the environment. The only place errors become exit statuses.
int run(int argc, char** argv);

} // namespace podcrawl::cli

#include "podcrawl/cli/app.hpp"

int main(int argc, char** argv) {
  return podcrawl::cli::run(argc, argv);
}

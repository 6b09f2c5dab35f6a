#include <spdlog/spdlog.h>

#include "podcrawl/core/stop_signals.hpp"
#include "podcrawl/http/server.hpp"

namespace podcrawl::http {

void serve_until_signal(Server& server) {
  core::StopSignals signals;
  signals.wait();
  signals.restore();
  spdlog::info("stopping: finishing the requests in flight");
  server.stop();
  if (!server.wait()) {
    spdlog::warn("stopped with requests still in flight after the drain timeout");
  }
}

} // namespace podcrawl::http

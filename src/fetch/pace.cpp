#include "podcrawl/fetch/pace.hpp"

#include <algorithm>

namespace podcrawl::fetch {

namespace {

// A timeout or a cut connection halves the pace. A 429 or 503 cuts less: the host says where
// its limit is, and its Retry-After already holds the crawl back. A latency rise cuts less
// still, since a slower answer is a milder sign than a refusal.
constexpr double k_load_cut = 0.5;
constexpr double k_throttle_cut = 0.7;
// Past the level at which the host last throttled, the pace grows this much slower: the limit
// is probed now and then, not pushed through each round trip. Each throttle doubles the
// slowdown, up to the most: a host that keeps refusing is probed ever more rarely, so its pauses
// do not come back every few seconds.
constexpr double k_probe_slowdown = 8;
constexpr double k_max_probe_slowdown = 64;
// Below the level at which the host last throttled, the pace grows back this many per round
// trip: up to there the host answered cleanly before.
constexpr double k_recovery_speed = 4;
constexpr double k_latency_cut = 0.75;
// A latency rise: the smoothed latency above this many times the lowest seen, plus the slack
// (so that hosts answering in a millisecond are not cut for answering in three).
constexpr double k_latency_rise = 3.0;
constexpr double k_latency_slack_seconds = 0.05;
// Weight of each answer in the smoothed latency.
constexpr double k_latency_weight = 0.2;
// Longest pause one Retry-After may impose on a host; a 429 or 503 without one pauses for the
// short default.
constexpr double k_max_pause_seconds = 86400;
constexpr double k_default_pause_seconds = 1;

// The host name of a host_key.
std::string_view name_of(std::string_view key) {
  if (key.starts_with('[')) {
    return key.substr(1, key.find(']') - 1);
  }
  const auto colon = key.rfind(':');
  return colon == std::string_view::npos ? key : key.substr(0, colon);
}

} // namespace

std::string host_key(const net::Url& url) {
  const bool ipv6 = url.host.find(':') != std::string::npos;
  std::string key = ipv6 ? "[" + url.host + "]" : url.host;
  const int default_port = url.scheme == "https" ? 443 : 80;
  if (url.port && *url.port != default_port) {
    key += ":" + std::to_string(*url.port);
  }
  return key;
}

HostPace::HostPace(PaceBounds bounds, double start, bool learned)
    : m_bounds(bounds),
      m_pace(std::clamp(start, static_cast<double>(bounds.floor),
                        static_cast<double>(std::max(bounds.floor, bounds.ceiling)))),
      m_doubling(!learned) {}

int HostPace::allowed() const {
  return std::clamp(static_cast<int>(m_pace), std::max(1, m_bounds.floor),
                    std::max(1, std::max(m_bounds.floor, m_bounds.ceiling)));
}

bool HostPace::may_start(int in_flight, double now) const {
  return in_flight < allowed() && now >= m_paused_until && now >= m_next_start;
}

PaceTicket HostPace::on_start(int in_flight, double now) {
  ++m_requests;
  m_peak = std::max(m_peak, in_flight + 1);
  if (m_bounds.requests_per_second > 0) {
    m_next_start = std::max(now, m_next_start) + 1.0 / m_bounds.requests_per_second;
  }
  if (in_flight + 1 >= allowed()) {
    m_filled_sequence = m_next_sequence;
  }
  return {m_next_sequence++, now, in_flight + 1};
}

void HostPace::cut(double factor, const PaceTicket& ticket, double from) {
  m_doubling = false;
  // One cut per round trip: the answers to transfers started before it carry no new news.
  if (ticket.sequence < m_cut_sequence) {
    return;
  }
  m_pace = std::max(static_cast<double>(m_bounds.floor), from * factor);
  m_cut_sequence = m_next_sequence;
}

void HostPace::on_answer(const PaceTicket& ticket, Load load, double now,
                         std::optional<std::int64_t> retry_after_seconds) {
  const double latency = std::max(0.0, now - ticket.started_at);
  m_latency_sum += latency;
  ++m_answers;
  switch (load) {
    case Load::throttled: {
      ++m_throttled;
      const double pause =
          retry_after_seconds
              ? std::clamp(static_cast<double>(*retry_after_seconds), 0.0, k_max_pause_seconds)
              : k_default_pause_seconds;
      if (now + pause > m_paused_until) {
        m_waited += now + pause - std::max(now, m_paused_until);
        m_paused_until = now + pause;
      }
      if (ticket.sequence >= m_cut_sequence) {
        // The first refusal of a round trip tells the level: what the host had in hand when the
        // refused transfer started. The pace may be past it (while doubling, say).
        const double level = std::min(m_pace, static_cast<double>(ticket.window));
        m_probe_slowdown = m_probe_slowdown > 0
                               ? std::min(k_max_probe_slowdown, m_probe_slowdown * 2)
                               : k_probe_slowdown;
        m_throttled_at = level;
        // Cut from what the host had in hand, as TCP cuts from the data in flight, though to no
        // less than half the pace: a refusal with few in hand may come from a rate limit.
        cut(k_throttle_cut, ticket, std::max(level, m_pace * k_load_cut / k_throttle_cut));
      }
      return;
    }
    case Load::overloaded:
      ++m_overloaded;
      cut(k_load_cut, ticket, m_pace);
      return;
    case Load::neutral:
      return;
    case Load::clean:
      break;
  }
  m_base_latency = m_base_latency < 0 ? latency : std::min(m_base_latency, latency);
  m_smoothed_latency = m_smoothed_latency < 0 ? latency
                                              : m_smoothed_latency * (1 - k_latency_weight) +
                                                    latency * k_latency_weight;
  if (ticket.sequence < m_cut_sequence) {
    return; // started before the last cut: its answer says nothing of the pace since
  }
  if (m_smoothed_latency > m_base_latency * k_latency_rise + k_latency_slack_seconds) {
    cut(k_latency_cut, ticket, m_pace);
    // Judged afresh from here: the rise has been answered.
    m_smoothed_latency = m_base_latency;
    return;
  }
  if (!m_filled_sequence || *m_filled_sequence < ticket.sequence) {
    return; // the host was not asked for all it may take: its answer says nothing of more
  }
  // Doubling adds one per answer (a whole window per round trip); after it, 1/pace per answer
  // adds one per round trip; back below the last throttle level, a few per round trip.
  const double below_throttle = m_throttled_at - 1;
  double step = m_doubling ? 1.0 : 1.0 / std::max(1.0, m_pace);
  if (m_throttled_at > 0 && m_pace >= below_throttle) {
    step /= m_probe_slowdown;
  } else if (m_throttled_at > 0) {
    step = std::min(below_throttle - m_pace, std::max(step, k_recovery_speed / m_pace));
  }
  m_pace += step;
  m_pace = std::min(m_pace, static_cast<double>(std::max(m_bounds.floor, m_bounds.ceiling)));
}

HostFigures HostPace::figures(std::string host) const {
  HostFigures figures;
  figures.host = std::move(host);
  figures.concurrency = m_pace;
  figures.peak = m_peak;
  figures.requests = m_requests;
  figures.throttled = m_throttled;
  figures.overloaded = m_overloaded;
  figures.waited_seconds = m_waited;
  figures.mean_latency_seconds =
      m_answers > 0 ? m_latency_sum / static_cast<double>(m_answers) : 0.0;
  return figures;
}

Pacer::Pacer(const core::CrawlConfig& crawl) : m_crawl(crawl) {}

void Pacer::learn(const std::map<std::string, double>& paces) {
  m_learned = paces;
}

PaceBounds Pacer::bounds_for(std::string_view key) const {
  const std::string_view name = name_of(key);
  const auto matches = [](std::string_view host, std::string_view rule) {
    return host == rule || (host.size() > rule.size() && host.ends_with(rule) &&
                            host[host.size() - rule.size() - 1] == '.');
  };
  PaceBounds bounds;
  bounds.floor = 1;
  bounds.ceiling = std::max(m_crawl.per_host, m_crawl.per_host_max);
  const core::HostRule* best = nullptr;
  for (const core::HostRule& rule : m_crawl.hosts) {
    if ((matches(key, rule.host) || matches(name, rule.host)) &&
        (best == nullptr || rule.host.size() > best->host.size())) {
      best = &rule;
    }
  }
  if (best != nullptr) {
    bounds.ceiling = best->ceiling.value_or(bounds.ceiling);
    bounds.floor = std::min(best->floor.value_or(bounds.floor), bounds.ceiling);
    bounds.requests_per_second = best->requests_per_second.value_or(0);
  }
  return bounds;
}

HostPace& Pacer::host(const std::string& name) {
  auto found = m_hosts.find(name);
  if (found != m_hosts.end()) {
    return found->second;
  }
  const PaceBounds bounds = bounds_for(name);
  const auto learned = m_learned.find(name);
  const bool known = learned != m_learned.end();
  const double start = known ? learned->second : std::max<double>(bounds.floor, m_crawl.per_host);
  return m_hosts.emplace(name, HostPace(bounds, start, known)).first->second;
}

std::vector<HostFigures> Pacer::figures() const {
  std::vector<HostFigures> all;
  all.reserve(m_hosts.size());
  for (const auto& [name, pace] : m_hosts) {
    all.push_back(pace.figures(name));
  }
  return all;
}

} // namespace podcrawl::fetch

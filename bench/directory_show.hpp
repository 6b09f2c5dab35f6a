#pragma once

// The shows of bench_directory: a multilingual directory made up from a seed, one show at a
// time, each a pure function of its ShowSpec (no state is shared between shows, so any number of
// threads can generate them and a later run can regenerate a show exactly).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "podcrawl/feed/model.hpp"

namespace podcrawl::bench {

// 2025-06-10T12:00:00Z: the default "now" of a generated directory, so runs are reproducible.
inline constexpr std::int64_t k_default_now = 1'749'556'800;

struct ShowSpec {
  std::uint64_t seed = 1;
  std::int64_t number = 1; // the show's number: its feed URL and all its content follow from it
  int episodes = 20;       // the episodes every show carries when first generated
  int extra_episodes = 0;  // newer episodes gained since (bench_directory --add-episode-...)
  std::int64_t now = k_default_now; // every episode is published before this time
};

// The feed URL of show `number`: https://feeds.bench.example/show-000123.xml.
std::string show_feed_url(std::int64_t number);

// The number of the show whose feed URL show_feed_url made; nullopt for any other URL.
std::optional<std::int64_t> show_number(std::string_view feed_url);

// The show as feed::parse_feed would hand it to the store for the show's feed: titles, authors
// and sanitized HTML descriptions in one of the 20 languages of the site's locales (ar, bn, de, en,
// es, fa, fr, he, hi, id, it, ja, ko, pl, pt-BR, ru, tr, ur, zh-CN, zh-TW), the language tag as the
// parser canonicalizes the declared spelling ("pt-br" -> "pt-BR"; "jp" -> none), 1-3 categories,
// and spec.episodes + spec.extra_episodes episodes, newest first, published over the months or
// years before spec.now (extra episode j an hour before spec.now, plus j minutes). Deterministic:
// the same spec gives the same show, and the episodes of a spec with fewer extra episodes are the
// same episodes. Thread-safe.
feed::Show generate_show(const ShowSpec& spec);

// Where show `number` comes in the order bench_directory picks shows to gain an episode: the
// shows with the smallest values come first. A pure function of its arguments.
std::uint64_t pick_order(std::uint64_t seed, std::int64_t number);

} // namespace podcrawl::bench

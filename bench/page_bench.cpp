// Rendering one show page from its model, per locale: the CPU a live page costs besides its
// database queries (bench_directory's generated shows, page 1, 20 episodes).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "directory_show.hpp"
#include "podcrawl/core/config.hpp"
#include "podcrawl/l10n/localizer.hpp"
#include "podcrawl/model/pages.hpp"
#include "podcrawl/render/site.hpp"

namespace {

namespace render = podcrawl::render;
namespace model = podcrawl::model;

// Distinct shows, so that phrase and format caches see what a pass over a directory shows them.
constexpr std::int64_t k_shows = 256;

std::vector<model::ShowPage> generated_pages() {
  std::vector<model::ShowPage> pages;
  for (std::int64_t number = 1; number <= k_shows; ++number) {
    podcrawl::bench::ShowSpec spec;
    spec.number = number;
    model::WholeShow whole;
    whole.show.show = podcrawl::bench::generate_show(spec);
    whole.show.slug = podcrawl::l10n::slugify(whole.show.show.title) + "-" + std::to_string(number);
    whole.show.feed_url = podcrawl::bench::show_feed_url(number);
    whole.show.added_at = spec.now - 86400 * 30;
    auto& parsed = whole.show.show.episodes;
    for (std::size_t i = 0; i < parsed.size(); ++i) {
      std::string slug = podcrawl::l10n::slugify(parsed[i].title) + "-" + std::to_string(i);
      whole.show.episodes.push_back({std::move(parsed[i]), std::move(slug), std::nullopt});
    }
    parsed.clear();
    for (const auto& name : whole.show.show.categories) {
      whole.categories.push_back({podcrawl::l10n::slugify(name), name, "en", 0});
    }
    pages.push_back(model::show_page_of(whole, 1));
  }
  return pages;
}

void show_page(benchmark::State& state, const char* locale) {
  const auto pages = generated_pages();
  render::SiteOptions options;
  options.locales = {"ar", "en"};
  options.site_url = "https://podcasts.example";
  options.templates_dir = std::string(podcrawl::core::source_dir()) + "/templates";
  options.locales_dir = std::string(podcrawl::core::source_dir()) + "/config/locales";
  render::Renderer renderer(options);
  std::size_t next = 0;
  std::int64_t bytes = 0;
  for (auto _ : state) {
    auto page = renderer.show_page(pages[next], locale, podcrawl::bench::k_default_now);
    bytes += static_cast<std::int64_t>(page.html.size());
    benchmark::DoNotOptimize(page);
    next = (next + 1) % pages.size();
  }
  state.SetBytesProcessed(bytes);
}

BENCHMARK_CAPTURE(show_page, ar, "ar")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(show_page, en, "en")->Unit(benchmark::kMicrosecond);

} // namespace

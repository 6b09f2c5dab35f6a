// The text analysis of search on a field as a save indexes it (Google Benchmark; no database).
#include <benchmark/benchmark.h>

#include <string>

#include "podcrawl/search/analyze.hpp"

namespace {

// A field of about k_max_indexed_bytes made of a sentence repeated.
std::string field(const std::string& sentence) {
  std::string text;
  while (text.size() + sentence.size() <= podcrawl::search::k_max_indexed_bytes) {
    text += sentence;
  }
  return text;
}

void index_text(benchmark::State& state, const std::string& sentence) {
  const std::string text = field(sentence);
  for (auto _ : state) {
    benchmark::DoNotOptimize(podcrawl::search::index_text(text));
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}

} // namespace

BENCHMARK_CAPTURE(index_text, english,
                  std::string("In this episode we talk about compilers, linkers and the "
                              "2024 release of our favourite tools. "))
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(index_text, english_with_one_accent,
                  std::string("In this episode we talk about compilers, linkers and the "
                              "2024 release of our favourite tools: café. "))
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(index_text, japanese,
                  std::string("今日はコンパイラとリンカーについて話します。毎日テック雑談。"))
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(index_text, arabic, std::string("نتحدث في هذه الحلقة عن المترجمات والأدوات. "))
    ->Unit(benchmark::kMicrosecond);

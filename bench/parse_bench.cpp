// Throughput of parse + normalize on a generated podcast feed, in bytes per second.
#include <benchmark/benchmark.h>

#include <string>

#include "podcrawl/feed/parser.hpp"

namespace {

// A feed shaped like a long-running real show: iTunes fields, HTML show notes, entities.
std::string generated_feed(int episodes) {
  std::string feed = R"(<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
     xmlns:content="http://purl.org/rss/1.0/modules/content/">
<channel><title>Benchmark Show</title><link>https://bench.example/</link>
<language>en-us</language><itunes:author>Bench</itunes:author>
<itunes:category text="Technology"><itunes:category text="Podcasting"/></itunes:category>
<description>A show for measuring.</description>)";
  for (int i = 0; i < episodes; ++i) {
    const std::string n = std::to_string(i);
    feed += "<item><title>Episode " + n + ": parsing &amp; normalizing</title><guid>bench-" + n +
            "</guid><pubDate>Mon, 07 Jun 2021 10:00:00 +0000</pubDate>"
            "<enclosure url=\"https://media.bench.example/" +
            n +
            ".mp3\" type=\"audio/mpeg\" length=\"12345678\"/>"
            "<itunes:duration>1:02:03</itunes:duration><itunes:episode>" +
            n + "</itunes:episode><link>https://bench.example/episodes/" + n +
            "</link>"
            "<content:encoded><![CDATA[<p>Show notes with <a href=\"/links/" +
            n +
            "\">a relative link</a>, <b>bold</b> text and a list:</p><ul><li>one</li>"
            "<li>two</li></ul><p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed "
            "do eiusmod tempor incididunt ut labore et dolore magna aliqua.</p>]]>"
            "</content:encoded></item>";
  }
  return feed + "</channel></rss>";
}

void parse_feed(benchmark::State& state) {
  const std::string feed = generated_feed(static_cast<int>(state.range(0)));
  podcrawl::feed::ParseOptions options;
  options.feed_url = "https://bench.example/feed.xml";
  for (auto _ : state) {
    auto result = podcrawl::feed::parse_feed(feed, options);
    benchmark::DoNotOptimize(result);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(feed.size()));
  state.counters["feed_bytes"] = static_cast<double>(feed.size());
}
BENCHMARK(parse_feed)->Arg(10)->Arg(300)->Arg(3000)->Unit(benchmark::kMillisecond);

} // namespace

#include "podcrawl/http/cache.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <thread>
#include <vector>

namespace podcrawl::http {
namespace {

constexpr std::int64_t k_now = 1767225600;
constexpr std::int64_t k_never = std::numeric_limits<std::int64_t>::max();

std::shared_ptr<const CachedPage> page(std::size_t body_bytes, std::vector<std::string> tags = {},
                                       std::int64_t expires_at = k_never) {
  auto made = std::make_shared<CachedPage>();
  made->identity = std::make_shared<const std::string>(body_bytes, 'x');
  made->etag = "\"e\"";
  made->content_type = "text/html; charset=utf-8";
  made->expires_at = expires_at;
  made->tags = std::move(tags);
  return made;
}

// The size of a page of body_bytes under a one-letter key with no tags.
std::size_t entry_size(std::size_t body_bytes) {
  return cached_size("k", *page(body_bytes));
}

TEST(HttpPageCache, FindsWhatWasInsertedAndCountsHitsAndMisses) {
  PageCache cache(1 << 20);
  const auto stored = page(100);
  cache.insert("/en/", stored);
  EXPECT_EQ(cache.find("/en/", k_now), stored);
  EXPECT_EQ(cache.find("/ar/", k_now), nullptr);
  EXPECT_EQ(cache.hits(), 1u);
  EXPECT_EQ(cache.misses(), 1u);
  EXPECT_EQ(cache.entries(), 1u);
  EXPECT_EQ(cache.bytes(), cached_size("/en/", *stored));
}

TEST(HttpPageCache, EvictsTheLeastRecentlyUsedFirst) {
  PageCache cache(3 * entry_size(1000));
  cache.insert("a", page(1000));
  cache.insert("b", page(1000));
  cache.insert("c", page(1000));
  ASSERT_NE(cache.find("a", k_now), nullptr); // b is now the least recently used
  cache.insert("d", page(1000));
  EXPECT_EQ(cache.find("b", k_now), nullptr);
  EXPECT_NE(cache.find("a", k_now), nullptr);
  EXPECT_NE(cache.find("c", k_now), nullptr);
  EXPECT_NE(cache.find("d", k_now), nullptr);
  cache.insert("e", page(2000)); // needs two places: a and c were used before d
  EXPECT_EQ(cache.find("a", k_now), nullptr);
  EXPECT_EQ(cache.find("c", k_now), nullptr);
  EXPECT_NE(cache.find("d", k_now), nullptr);
  EXPECT_NE(cache.find("e", k_now), nullptr);
}

TEST(HttpPageCache, StaysWithinItsByteLimit) {
  const std::size_t limit = 50000;
  PageCache cache(limit);
  for (int i = 0; i < 500; ++i) {
    cache.insert("/show/" + std::to_string(i), page(static_cast<std::size_t>(100 + i * 37 % 4000)));
    ASSERT_LE(cache.bytes(), limit) << i;
  }
  EXPECT_GT(cache.entries(), 5u);
  cache.clear();
  EXPECT_EQ(cache.bytes(), 0u);
  EXPECT_EQ(cache.entries(), 0u);
}

TEST(HttpPageCache, DoesNotCacheAPageLargerThanTheLimit) {
  PageCache cache(entry_size(1000));
  cache.insert("k", page(1000));
  ASSERT_EQ(cache.entries(), 1u);
  cache.insert("big", page(1001));
  EXPECT_EQ(cache.find("big", k_now), nullptr);
  EXPECT_NE(cache.find("k", k_now), nullptr); // nothing was evicted for it
  cache.insert("k", page(1001));              // a new version too big: the old one goes
  EXPECT_EQ(cache.find("k", k_now), nullptr);
  EXPECT_EQ(cache.bytes(), 0u);
  cache.insert("k", nullptr);
  EXPECT_EQ(cache.entries(), 0u);
}

TEST(HttpPageCache, ReplacesThePageUnderAKey) {
  PageCache cache(1 << 20);
  cache.insert("k", page(10));
  const auto newer = page(5000);
  cache.insert("k", newer);
  EXPECT_EQ(cache.find("k", k_now), newer);
  EXPECT_EQ(cache.entries(), 1u);
  EXPECT_EQ(cache.bytes(), cached_size("k", *newer));
}

TEST(HttpPageCache, InvalidatesEveryPageCarryingATag) {
  PageCache cache(1 << 20);
  cache.insert("/en/show/1", page(10, {"show:1", "home"}));
  cache.insert("/ar/show/1", page(10, {"show:1"}));
  cache.insert("/en/show/2", page(10, {"show:2", "home"}));
  cache.insert("/en/", page(10, {"home"}));
  cache.invalidate_tag("show:1");
  EXPECT_EQ(cache.find("/en/show/1", k_now), nullptr);
  EXPECT_EQ(cache.find("/ar/show/1", k_now), nullptr);
  EXPECT_NE(cache.find("/en/show/2", k_now), nullptr);
  EXPECT_EQ(cache.entries(), 2u);
  cache.invalidate_tag("show:1"); // nothing left under it
  cache.invalidate_tag("unknown");
  EXPECT_EQ(cache.entries(), 2u);
  cache.invalidate_tag("home");
  EXPECT_EQ(cache.entries(), 0u);
  EXPECT_EQ(cache.bytes(), 0u);
  // A key cached again after its tag was invalidated is indexed afresh.
  cache.insert("/en/", page(10, {"home"}));
  cache.invalidate_tag("home");
  EXPECT_EQ(cache.entries(), 0u);
}

TEST(HttpCachedPage, MakesEachCodingOnlyWhenAskedAndKeepsItOnlyWhenSmaller) {
  std::string html;
  for (int i = 0; i < 200; ++i) {
    html += "<li>episode " + std::to_string(i) + "</li>";
  }
  const auto made = page_of(html);
  EXPECT_TRUE(coding_pending(*made, ContentCoding::gzip));
  EXPECT_TRUE(coding_pending(*made, ContentCoding::brotli));
  EXPECT_FALSE(coding_pending(*made, ContentCoding::identity));
  EXPECT_EQ(body_in(*made, ContentCoding::gzip), nullptr);

  const auto coded = with_coding(*made, ContentCoding::brotli);
  EXPECT_FALSE(coding_pending(*coded, ContentCoding::brotli));
  EXPECT_TRUE(coding_pending(*coded, ContentCoding::gzip)); // made only when asked for
  ASSERT_NE(body_in(*coded, ContentCoding::brotli), nullptr);
  EXPECT_LT(body_in(*coded, ContentCoding::brotli)->size(), html.size());
  EXPECT_EQ(body_in(*coded, ContentCoding::identity), made->identity); // shared, not copied
  const auto both = with_coding(*coded, ContentCoding::gzip);
  ASSERT_NE(body_in(*both, ContentCoding::gzip), nullptr);
  EXPECT_EQ(body_in(*both, ContentCoding::brotli), body_in(*coded, ContentCoding::brotli));
  EXPECT_GT(cached_size("k", *both), cached_size("k", *made));

  // Short bodies are never compressed; random bytes do not shrink and are not kept.
  EXPECT_FALSE(coding_pending(*page_of("<p>short</p>"), ContentCoding::gzip));
  std::string noise;
  std::uint32_t state = 12345;
  for (int i = 0; i < 4096; ++i) {
    state = state * 1103515245u + 12345u;
    noise += static_cast<char>(state >> 24);
  }
  const auto incompressible = with_coding(*page_of(noise), ContentCoding::gzip);
  EXPECT_FALSE(coding_pending(*incompressible, ContentCoding::gzip));
  EXPECT_EQ(body_in(*incompressible, ContentCoding::gzip), nullptr);
}

TEST(HttpPageCache, ReplaceSwapsOnlyThePageItExpects) {
  PageCache cache(1 << 20);
  const auto first = page(1000, {"show:a"});
  cache.insert("/en/a/", first);
  auto bigger = std::make_shared<CachedPage>(*first);
  bigger->gzip = std::make_shared<const std::string>(300, 'g');
  cache.replace("/en/a/", first.get(), bigger);
  EXPECT_EQ(cache.find("/en/a/", k_now), bigger);
  EXPECT_EQ(cache.bytes(), cached_size("/en/a/", *bigger));

  // A page invalidated (or replaced) meanwhile is not brought back.
  cache.replace("/en/a/", first.get(), page(10, {"show:a"}));
  EXPECT_EQ(cache.find("/en/a/", k_now), bigger);
  cache.invalidate_tag("show:a");
  cache.replace("/en/a/", bigger.get(), bigger);
  EXPECT_EQ(cache.find("/en/a/", k_now), nullptr);
  EXPECT_EQ(cache.entries(), 0u);
  EXPECT_EQ(cache.bytes(), 0u);
}

TEST(HttpPageCache, DropsAnExpiredPageAsAMiss) {
  PageCache cache(1 << 20);
  cache.insert("k", page(10, {"t"}, k_now + 60));
  EXPECT_NE(cache.find("k", k_now + 59), nullptr);
  EXPECT_EQ(cache.find("k", k_now + 60), nullptr);
  EXPECT_EQ(cache.entries(), 0u);
  EXPECT_EQ(cache.bytes(), 0u);
  EXPECT_EQ(cache.misses(), 1u);
  cache.insert("k", page(10, {"t"}, k_now + 120)); // and its tag index went with it
  cache.invalidate_tag("t");
  EXPECT_EQ(cache.entries(), 0u);
}

TEST(HttpPageCache, KeepsItsCountsTrueUnderTwoThreads) {
  PageCache cache(200 * entry_size(1000));
  constexpr int k_operations = 20000;
  // Every other lookup is of one of 20 hot pages, which stay cached (fewer than 200 lookups of
  // both threads fall between two of the same hot page), so hits are certain whatever the
  // threads' timing; the rest cycle through 300 cold pages, more than the cache holds, so that
  // pages are evicted all along.
  auto work = [&](int thread) {
    for (int i = 0; i < k_operations; ++i) {
      const std::string key = i % 2 == 0 ? "/hot/" + std::to_string(i / 2 % 20)
                                         : "/show/" + std::to_string((i * 7 + thread) % 300);
      if (!cache.find(key, k_now)) {
        cache.insert(key, page(1000, {"show:" + std::to_string(i % 10)}));
      }
      if (i % 1000 == 999) {
        cache.invalidate_tag("show:" + std::to_string(i % 10));
      }
    }
  };
  std::thread first(work, 0);
  std::thread second(work, 1);
  first.join();
  second.join();
  EXPECT_EQ(cache.hits() + cache.misses(), 2u * k_operations);
  EXPECT_GT(cache.hits(), 0u);
  EXPECT_LE(cache.bytes(), 200 * entry_size(1000));
}

} // namespace
} // namespace podcrawl::http

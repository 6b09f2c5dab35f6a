#include "podcrawl/core/hash.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace podcrawl::core {
namespace {

struct HashCase {
  std::string input;
  const char* expected;
};

TEST(Sha1, MatchesTheRfc3174TestVectorsAndTheBlockBoundaries) {
  std::string repeated;
  for (int i = 0; i < 10; ++i) {
    repeated += "0123456701234567012345670123456701234567012345670123456701234567";
  }
  const HashCase cases[] = {
      {"abc", "a9993e364706816aba3e25717850c26c9cd0d89d"},
      {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
       "84983e441c3bd26ebaae4aa1f95129e5e54670f1"},
      {std::string(1'000'000, 'a'), "34aa973cd4c4daa4f61eeb2bdbad27316534016f"},
      {repeated, "dea356a2cddd90c7a7ecedc5ebb563934f460452"},
      {"", "da39a3ee5e6b4b0d3255bfef95601890afd80709"},
      {std::string(55, 'a'), "c1c8bbdc22796e28c0e15163d20899b65621d65a"},
      {std::string(56, 'a'), "c2db330f6083854c99d4b5bfb6e8f29f201be699"},
      {std::string(64, 'a'), "0098ba824b5c16427bd7a1122a5a442a25ec644d"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(sha1_hex(c.input), c.expected) << c.input.size() << " bytes";
  }
}

TEST(ContentHash, IsFnv1a64AsSixteenHexDigits) {
  const HashCase cases[] = {
      {"", "cbf29ce484222325"},
      {"a", "af63dc4c8601ec8c"},
      {"foobar", "85944171f73967e8"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(content_hash(c.input), c.expected) << c.input;
  }
  EXPECT_NE(content_hash("<rss>1</rss>"), content_hash("<rss>2</rss>"));
}

TEST(WordHash, ChangesWithEveryBitOfTheInputAndWithItsLength) {
  std::string body;
  for (int i = 0; i < 1000; ++i) { // not a multiple of 8: the tail counts too
    body += static_cast<char>('a' + i * 7 % 26);
  }
  std::set<std::uint64_t> seen{word_hash_64(body)};
  for (std::size_t bit = 0; bit < body.size() * 8; ++bit) {
    std::string flipped = body;
    flipped[bit / 8] = static_cast<char>(flipped[bit / 8] ^ (1 << (bit % 8)));
    EXPECT_TRUE(seen.insert(word_hash_64(flipped)).second) << "bit " << bit;
  }
  for (std::size_t zeros = 0; zeros <= 64; ++zeros) {
    EXPECT_TRUE(seen.insert(word_hash_64(std::string(zeros, '\0'))).second) << zeros;
  }
}

TEST(WordHash, IsTheSameOnEveryMachine) {
  // Read little-endian whatever the machine's order: these values hold everywhere.
  EXPECT_EQ(word_hash_64(""), 0x1e90fe102805b64eULL);
  EXPECT_EQ(word_hash_64("<p>hello</p>"), 0xe880cbf3b0c2c515ULL);
}

TEST(UuidV5, MatchesPublishedNameBasedUuids) {
  // The Podcasting 2.0 namespace's own example, and RFC 4122's DNS namespace.
  EXPECT_EQ(uuid_v5("ead4c236-bf58-58c6-a2c6-a6b28d128cb6", "mp3s.nashownotes.com/pc20rss.xml"),
            "917393e3-1b1e-5cef-ace4-edaa54e1f810");
  EXPECT_EQ(uuid_v5("6ba7b810-9dad-11d1-80b4-00c04fd430c8", "python.org"),
            "886313e1-3b8a-5372-9b90-0c9aee199e5d");
}

TEST(UuidV5, RejectsANamespaceThatIsNotAUuid) {
  for (const char* space :
       {"", "not-a-uuid", "ead4c236-bf58-58c6-a2c6-a6b28d128cb",
        "ead4c236-bf58-58c6-a2c6-a6b28d128cb6a", "gad4c236-bf58-58c6-a2c6-a6b28d128cb6"}) {
    EXPECT_EQ(uuid_v5(space, "example.org/feed"), "") << space;
  }
}

} // namespace
} // namespace podcrawl::core

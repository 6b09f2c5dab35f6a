#include "podcrawl/http/encoding.hpp"

#include <brotli/decode.h>
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdint>
#include <string>
#include <vector>

namespace podcrawl::http {
namespace {

struct CodingCase {
  std::string accept_encoding;
  ContentCoding expected;
};

TEST(HttpChooseCoding, FollowsQValuesAndPrefersBrotliThenGzip) {
  const std::vector<CodingCase> cases = {
      {"", ContentCoding::identity},
      {"   ", ContentCoding::identity},
      {"gzip", ContentCoding::gzip},
      {"x-gzip", ContentCoding::gzip},
      {"GZip", ContentCoding::gzip},
      {"br", ContentCoding::brotli},
      {"gzip, deflate, br", ContentCoding::brotli},
      {"gzip;q=1.0, br;q=1", ContentCoding::brotli},
      {"br;q=0.5, gzip", ContentCoding::gzip},
      {"br;q=0.9,gzip;q=0.8", ContentCoding::brotli},
      {"br ; q=0.2 , gzip ; q=0.3", ContentCoding::gzip},
      {"gzip;Q=0.4;level=9, br;q=0.3", ContentCoding::gzip},
      {"*", ContentCoding::brotli},
      {"*;q=0.5, gzip", ContentCoding::gzip},
      {"br;q=0.9, *", ContentCoding::gzip},
      {"gzip;q=0.001", ContentCoding::gzip},
      {"identity", ContentCoding::identity},
      {"identity, gzip;q=0.5", ContentCoding::identity},
      {"gzip, identity;q=0", ContentCoding::gzip},
      {"*;q=0, gzip;q=0.1", ContentCoding::gzip},
      {"br, br;q=0", ContentCoding::brotli}, // the first mention wins
  };
  for (const auto& [accept_encoding, expected] : cases) {
    EXPECT_EQ(choose_coding(accept_encoding), expected) << accept_encoding;
  }
}

TEST(HttpChooseCoding, FallsBackToIdentityWhenNothingUsableIsAccepted) {
  const std::vector<std::string> cases = {
      "deflate",       "zstd, compress", "gzip;q=0, br;q=0",
      "identity;q=0",  "*;q=0",          "*;q=0, identity;q=0",
      "gzip;q=1.5",    // q over 1
      "gzip;q=abc",    // not a number
      "gzip;q=0.1234", // more than three decimals
      "gzip;q=",       "br;q=-1",        ";q=1",
      ",,,",
  };
  for (const auto& accept_encoding : cases) {
    EXPECT_EQ(choose_coding(accept_encoding), ContentCoding::identity) << accept_encoding;
  }
}

TEST(HttpChooseCoding, ReadsOnlyTheBoundedStartOfHostileValues) {
  std::string long_tail = "br, ";
  while (long_tail.size() < 100 * k_max_accept_encoding_bytes) {
    long_tail += "junk;q=0.5, ";
  }
  EXPECT_EQ(choose_coding(long_tail), ContentCoding::brotli);

  std::string late = std::string(2 * k_max_accept_encoding_bytes, 'x') + ", br";
  EXPECT_EQ(choose_coding(late), ContentCoding::identity);

  std::string many;
  for (std::size_t i = 0; i < k_max_accept_encoding_elements; ++i) {
    many += "x" + std::to_string(i) + ",";
  }
  EXPECT_EQ(choose_coding(many + "gzip"), ContentCoding::identity);

  // The bound falls inside "gzip;q=0.5": that element goes, not read as "gzip;" (q=1).
  const std::string cut = std::string(k_max_accept_encoding_bytes - 6, 'x') + ",gzip;q=0.5";
  EXPECT_EQ(choose_coding(cut), ContentCoding::identity);
  EXPECT_EQ(choose_coding(cut.substr(0, k_max_accept_encoding_bytes)), ContentCoding::gzip);
}

TEST(HttpChooseCoding, NamesEachCodingForContentEncoding) {
  EXPECT_STREQ(to_string(ContentCoding::identity), "identity");
  EXPECT_STREQ(to_string(ContentCoding::gzip), "gzip");
  EXPECT_STREQ(to_string(ContentCoding::brotli), "br");
}

std::string inflate_gzip(const std::string& compressed) {
  z_stream stream{};
  EXPECT_EQ(inflateInit2(&stream, 15 + 16), Z_OK);
  std::string out;
  std::vector<char> chunk(16384);
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  stream.avail_in = static_cast<uInt>(compressed.size());
  int code = Z_OK;
  while (code == Z_OK) {
    stream.next_out = reinterpret_cast<Bytef*>(chunk.data());
    stream.avail_out = static_cast<uInt>(chunk.size());
    code = inflate(&stream, Z_NO_FLUSH);
    out.append(chunk.data(), chunk.size() - stream.avail_out);
  }
  EXPECT_EQ(code, Z_STREAM_END);
  EXPECT_EQ(stream.avail_in, 0u) << "bytes after the gzip member";
  inflateEnd(&stream);
  return out;
}

std::string decompress_brotli(const std::string& compressed, std::size_t expected_size) {
  std::string out(expected_size + 1, '\0');
  std::size_t size = out.size();
  EXPECT_EQ(BrotliDecoderDecompress(compressed.size(),
                                    reinterpret_cast<const std::uint8_t*>(compressed.data()), &size,
                                    reinterpret_cast<std::uint8_t*>(out.data())),
            BROTLI_DECODER_RESULT_SUCCESS);
  out.resize(size);
  return out;
}

std::vector<std::string> sample_bodies() {
  std::string page = "<!doctype html><html lang=\"ar\"><body>";
  for (int i = 0; page.size() < 300000; ++i) {
    page += "<li><a href=\"/show/" + std::to_string(i) + "\">حلقة " + std::to_string(i * 7919) +
            "</a></li>\n";
  }
  std::string noise;
  std::uint32_t state = 12345;
  for (int i = 0; i < 70000; ++i) {
    state = state * 1103515245 + 12345;
    noise += static_cast<char>(state >> 24);
  }
  return {"", "a", page + "</body></html>", noise};
}

TEST(HttpCompression, GzipDecodesBackToTheInput) {
  for (const auto& body : sample_bodies()) {
    const std::string compressed = gzip(body);
    EXPECT_EQ(compressed.substr(0, 2), "\x1f\x8b");
    EXPECT_EQ(inflate_gzip(compressed), body) << body.size();
  }
}

TEST(HttpCompression, BrotliDecodesBackToTheInput) {
  for (const auto& body : sample_bodies()) {
    const std::string compressed = brotli(body);
    EXPECT_EQ(decompress_brotli(compressed, body.size()), body) << body.size();
  }
}

TEST(HttpCompression, ShrinksMarkupSeveralFold) {
  const std::string page = sample_bodies()[2];
  EXPECT_LT(gzip(page).size() * 4, page.size());
  EXPECT_LT(brotli(page).size(), gzip(page).size());
}

} // namespace
} // namespace podcrawl::http

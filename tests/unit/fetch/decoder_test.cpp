#include "decoder_internal.hpp"

#include <gtest/gtest.h>
#include <zlib.h>

#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/loopback_server.hpp"

namespace podcrawl::fetch::internal {
namespace {

constexpr std::size_t k_no_cap = std::numeric_limits<std::size_t>::max();

// The body as a deflate stream: zlib-wrapped (window_bits 15) or raw (-15).
std::string deflate_stream(const std::string& body, int window_bits) {
  z_stream stream{};
  if (deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, window_bits, 8,
                   Z_DEFAULT_STRATEGY) != Z_OK) {
    throw std::runtime_error("deflateInit2 failed");
  }
  std::string compressed(deflateBound(&stream, body.size()), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(body.data()));
  stream.avail_in = static_cast<uInt>(body.size());
  stream.next_out = reinterpret_cast<Bytef*>(compressed.data());
  stream.avail_out = static_cast<uInt>(compressed.size());
  const int code = deflate(&stream, Z_FINISH);
  compressed.resize(stream.total_out);
  deflateEnd(&stream);
  if (code != Z_STREAM_END) {
    throw std::runtime_error("deflate did not finish");
  }
  return compressed;
}

// A feed-like body long enough that every codec needs several output chunks.
std::string sample_body() {
  std::string body = "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel>";
  for (int i = 0; i < 2000; ++i) {
    body += "<item><guid>episode-" + std::to_string(i) + "</guid></item>";
  }
  return body + "</channel></rss>";
}

struct Encoded {
  const char* content_encoding;
  std::function<std::string(const std::string&)> encode;
};

const std::vector<Encoded>& encodings() {
  static const std::vector<Encoded> k_encodings = {
      {"identity", [](const std::string& body) { return body; }},
      {"", [](const std::string& body) { return body; }},
      {"gzip", testing::gzip},
      {"x-gzip", testing::gzip},
      {" GZip ", testing::gzip},
      {"deflate", [](const std::string& body) { return deflate_stream(body, 15); }},
      {"deflate", [](const std::string& body) { return deflate_stream(body, -15); }},
      {"br", testing::brotli},
      {"zstd", testing::zstd},
  };
  return k_encodings;
}

struct Decoded {
  DecodeStatus status = DecodeStatus::ok;
  std::string body;
  bool complete = false;
};

// Feed `encoded` in pieces of `piece` bytes, stopping at the first status that is not ok.
Decoded decode(const std::string& content_encoding, const std::string& encoded, std::size_t piece,
               std::size_t max_bytes = k_no_cap) {
  auto decoder = make_decoder(content_encoding);
  if (!decoder) {
    throw std::runtime_error("no decoder for " + content_encoding);
  }
  Decoded decoded;
  for (std::size_t at = 0; at < encoded.size() && decoded.status == DecodeStatus::ok; at += piece) {
    decoded.status =
        decoder->write(std::string_view(encoded).substr(at, piece), decoded.body, max_bytes);
  }
  decoded.complete = decoder->complete();
  return decoded;
}

TEST(BodyDecoder, DecodesEveryAcceptedEncodingWhateverThePieces) {
  const std::string body = sample_body();
  for (const auto& encoding : encodings()) {
    const std::string encoded = encoding.encode(body);
    for (const std::size_t piece :
         {std::size_t{1}, std::size_t{7}, std::size_t{4096}, encoded.size()}) {
      SCOPED_TRACE(std::string(encoding.content_encoding) + " in pieces of " +
                   std::to_string(piece));
      const Decoded decoded = decode(encoding.content_encoding, encoded, piece);
      EXPECT_EQ(decoded.status, DecodeStatus::ok);
      EXPECT_TRUE(decoded.complete);
      EXPECT_EQ(decoded.body, body);
    }
  }
}

// Regression: a compressed body cut before its end marker used to be taken as a shorter feed.
TEST(BodyDecoder, AStreamCutBeforeItsEndMarkerIsNeverComplete) {
  const std::string body = sample_body();
  for (const auto& encoding : encodings()) {
    const std::string encoded = encoding.encode(body);
    if (encoded == body) {
      continue; // an unencoded body has no end marker to miss
    }
    for (const std::size_t kept :
         {std::size_t{0}, std::size_t{1}, encoded.size() / 2, encoded.size() - 1}) {
      SCOPED_TRACE(std::string(encoding.content_encoding) + " cut to " + std::to_string(kept));
      const Decoded decoded = decode(encoding.content_encoding, encoded.substr(0, kept), 4096);
      EXPECT_EQ(decoded.status, DecodeStatus::ok);
      EXPECT_FALSE(decoded.complete);
    }
  }
}

TEST(BodyDecoder, BytesThatAreNotTheEncodingAreCorrupt) {
  const std::string garbage(64, '\xff');
  for (const char* content_encoding : {"gzip", "deflate", "br", "zstd"}) {
    SCOPED_TRACE(content_encoding);
    EXPECT_EQ(decode(content_encoding, garbage, 16).status, DecodeStatus::corrupt);
  }
}

TEST(BodyDecoder, StopsAtTheCapOnDecodedBytes) {
  const std::string body(1024 * 1024, 'x'); // compresses to a few kilobytes
  for (const auto& encoding : encodings()) {
    SCOPED_TRACE(encoding.content_encoding);
    const Decoded decoded = decode(encoding.content_encoding, encoding.encode(body), 4096, 10000);
    EXPECT_EQ(decoded.status, DecodeStatus::too_large);
    EXPECT_LE(decoded.body.size(), 10000u);
  }
}

TEST(BodyDecoder, ABodyExactlyAtTheCapFits) {
  const std::string body(10000, 'x');
  for (const auto& encoding : encodings()) {
    SCOPED_TRACE(encoding.content_encoding);
    const Decoded decoded = decode(encoding.content_encoding, encoding.encode(body), 4096, 10000);
    EXPECT_EQ(decoded.status, DecodeStatus::ok);
    EXPECT_EQ(decoded.body, body);
  }
}

TEST(BodyDecoder, ConcatenatedZstdFramesAreOneBody) {
  const std::string encoded = testing::zstd("first,") + testing::zstd("second");
  const Decoded decoded = decode("zstd", encoded, 5);
  EXPECT_EQ(decoded.status, DecodeStatus::ok);
  EXPECT_TRUE(decoded.complete);
  EXPECT_EQ(decoded.body, "first,second");
}

TEST(BodyDecoder, KnowsNoOtherEncodingNorAStackOfThem) {
  for (const char* content_encoding :
       {"compress", "x-compress", "lzma", "gzip, br", "br,gzip", "gzip;q=1", "bzip2"}) {
    EXPECT_EQ(make_decoder(content_encoding), nullptr) << content_encoding;
  }
}

} // namespace
} // namespace podcrawl::fetch::internal

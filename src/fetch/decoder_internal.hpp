#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace podcrawl::fetch::internal {

// How feeding a decoder went.
enum class DecodeStatus {
  ok,        // every byte given so far was decoded
  too_large, // the decoded body would pass its cap; nothing past the cap was kept
  corrupt    // the bytes are not a valid stream of the encoding
};

// Undoes one HTTP Content-Encoding as the body streams in. libcurl's own decoding accepts a
// compressed stream that stops before its end marker (a cut connection then looks like a short
// but good body), so podcrawl decodes itself and insists on the end marker.
class BodyDecoder {
public:
  virtual ~BodyDecoder() = default;
  // Decode the next `input` bytes of the body, appending the output to `out`, which never grows
  // past `max_bytes`. After anything but ok, the decoder must not be fed again.
  virtual DecodeStatus write(std::string_view input, std::string& out, std::size_t max_bytes) = 0;
  // True once the stream reached its end marker (always true for an unencoded body). Bytes
  // after a gzip, deflate or br end marker are ignored, as libcurl does; a zstd body may hold
  // several frames and is complete at the end of each.
  virtual bool complete() const = 0;
  // The encoding's name as it appears in Content-Encoding ("gzip", "br"...).
  virtual std::string_view name() const = 0;
};

// Largest zstd window accepted (8 MiB, what RFC 8878 asks HTTP decoders to support): bounds the
// memory a hostile frame can make the decoder allocate.
inline constexpr int k_max_zstd_window_log = 23;

// A decoder for a Content-Encoding header value: empty or "identity" (the body as it is),
// "gzip" / "x-gzip", "deflate" (zlib, or raw deflate as some servers send), "br", "zstd";
// names compare without case. Returns nullptr for anything else, a list of several encodings
// included: podcrawl never asks for stacked encodings, so none are decoded.
std::unique_ptr<BodyDecoder> make_decoder(std::string_view content_encoding);

} // namespace podcrawl::fetch::internal

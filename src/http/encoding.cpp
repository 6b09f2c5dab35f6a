#include "podcrawl/http/encoding.hpp"

#include <array>
#include <cstdint>
#include <limits>
#include <new>
#include <optional>
#include <stdexcept>

#include <brotli/encode.h>
#include <zlib.h>

#include "podcrawl/core/ascii.hpp"

namespace podcrawl::http {

namespace {

constexpr int k_gzip_window_bits = 15 + 16; // 32 KiB window, gzip wrapper
constexpr int k_gzip_memory_level = 8;
constexpr int k_brotli_window_bits = 22;
constexpr int k_q_scale = 1000;        // q-values in thousandths
constexpr int k_implicit_identity = 1; // identity unlisted: acceptable, but preferred last

// A qvalue (RFC 9110 section 12.4.2) in thousandths; nullopt when malformed.
std::optional<int> parse_qvalue(std::string_view text) {
  if (text.empty() || (text[0] != '0' && text[0] != '1') || text.size() > 5 ||
      (text.size() > 1 && text[1] != '.')) {
    return std::nullopt;
  }
  int value = (text[0] - '0') * k_q_scale;
  int scale = k_q_scale / 10;
  for (const char c : text.substr(std::min<std::size_t>(2, text.size()))) {
    if (c < '0' || c > '9') {
      return std::nullopt;
    }
    value += (c - '0') * scale;
    scale /= 10;
  }
  return value <= k_q_scale ? std::optional<int>(value) : std::nullopt;
}

// The q of one element's parameters ("; q=0.5; other=x"); nullopt when its q is malformed.
std::optional<int> element_q(std::string_view parameters) {
  int q = k_q_scale;
  while (!parameters.empty()) {
    const std::size_t end = std::min(parameters.find(';'), parameters.size());
    const std::string_view parameter = core::trim(parameters.substr(0, end), core::k_http_space);
    parameters.remove_prefix(std::min(end + 1, parameters.size()));
    if (parameter.size() >= 2 && core::ascii_lower(parameter[0]) == 'q' && parameter[1] == '=') {
      const auto parsed = parse_qvalue(parameter.substr(2));
      if (!parsed) {
        return std::nullopt;
      }
      q = *parsed;
    }
  }
  return q;
}

// The q given to each coding we know, and to "*"; the first mention of each wins.
struct Weights {
  std::optional<int> brotli, gzip, identity, any;

  std::optional<int>* slot(std::string_view name) {
    if (core::equals_ignoring_ascii_case(name, "br")) {
      return &brotli;
    }
    if (core::equals_ignoring_ascii_case(name, "gzip") ||
        core::equals_ignoring_ascii_case(name, "x-gzip")) {
      return &gzip;
    }
    if (core::equals_ignoring_ascii_case(name, "identity")) {
      return &identity;
    }
    return name == "*" ? &any : nullptr;
  }
};

Weights read_weights(std::string_view value) {
  if (value.size() > k_max_accept_encoding_bytes) {
    // The element cut in two by the bound is dropped with the rest.
    const std::size_t last_comma = value.rfind(',', k_max_accept_encoding_bytes);
    value = last_comma == std::string_view::npos ? std::string_view() : value.substr(0, last_comma);
  }
  Weights weights;
  for (std::size_t element = 0; element < k_max_accept_encoding_elements && !value.empty();
       ++element) {
    const std::size_t end = std::min(value.find(','), value.size());
    const std::string_view item = value.substr(0, end);
    value.remove_prefix(std::min(end + 1, value.size()));
    const std::size_t semicolon = std::min(item.find(';'), item.size());
    std::optional<int>* slot =
        weights.slot(core::trim(item.substr(0, semicolon), core::k_http_space));
    if (!slot || *slot) {
      continue;
    }
    *slot = element_q(item.substr(semicolon));
  }
  return weights;
}

} // namespace

ContentCoding choose_coding(std::string_view accept_encoding) {
  const Weights weights = read_weights(core::trim(accept_encoding, core::k_http_space));
  const int any = weights.any.value_or(0);
  const int identity = weights.identity.value_or(weights.any ? any : k_implicit_identity);
  // In order of preference at equal q.
  const std::array<std::pair<ContentCoding, int>, 3> candidates = {{
      {ContentCoding::brotli, weights.brotli.value_or(any)},
      {ContentCoding::gzip, weights.gzip.value_or(any)},
      {ContentCoding::identity, identity},
  }};
  ContentCoding best = ContentCoding::identity;
  int best_q = 0;
  for (const auto& [coding, q] : candidates) {
    if (q > best_q) {
      best = coding;
      best_q = q;
    }
  }
  return best;
}

const char* to_string(ContentCoding coding) {
  switch (coding) {
    case ContentCoding::gzip:
      return "gzip";
    case ContentCoding::brotli:
      return "br";
    case ContentCoding::identity:
      break;
  }
  return "identity";
}

std::string gzip(std::string_view bytes) {
  if (bytes.size() > std::numeric_limits<uInt>::max() / 2) {
    throw std::length_error("too large to gzip in one call");
  }
  z_stream stream{};
  if (deflateInit2(&stream, k_gzip_level, Z_DEFLATED, k_gzip_window_bits, k_gzip_memory_level,
                   Z_DEFAULT_STRATEGY) != Z_OK) {
    throw std::bad_alloc();
  }
  // deflateBound is enough for one deflate(Z_FINISH) call to finish.
  std::string out(deflateBound(&stream, static_cast<uLong>(bytes.size())), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  stream.avail_in = static_cast<uInt>(bytes.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  const int result = deflate(&stream, Z_FINISH);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  if (result != Z_STREAM_END) {
    throw std::bad_alloc();
  }
  return out;
}

std::string brotli(std::string_view bytes) {
  std::size_t size = BrotliEncoderMaxCompressedSize(bytes.size());
  if (size == 0) {
    throw std::bad_alloc();
  }
  std::string out(size, '\0');
  if (!BrotliEncoderCompress(k_brotli_quality, k_brotli_window_bits, BROTLI_MODE_TEXT, bytes.size(),
                             reinterpret_cast<const std::uint8_t*>(bytes.data()), &size,
                             reinterpret_cast<std::uint8_t*>(out.data()))) {
    throw std::bad_alloc();
  }
  out.resize(size);
  return out;
}

} // namespace podcrawl::http

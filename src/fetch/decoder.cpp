#include <brotli/decode.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <array>
#include <cstdint>

#include "decoder_internal.hpp"
#include "podcrawl/core/ascii.hpp"

namespace podcrawl::fetch::internal {

namespace {

// Output produced per call into a codec, and input handed to zlib per call (its counters are
// 32-bit).
constexpr std::size_t k_chunk_bytes = 16 * 1024;

DecodeStatus append_bounded(std::string& out, const void* data, std::size_t size,
                            std::size_t max_bytes) {
  if (size > max_bytes || out.size() > max_bytes - size) {
    return DecodeStatus::too_large;
  }
  out.append(static_cast<const char*>(data), size);
  return DecodeStatus::ok;
}

class IdentityDecoder final : public BodyDecoder {
public:
  DecodeStatus write(std::string_view input, std::string& out, std::size_t max_bytes) override {
    return append_bounded(out, input.data(), input.size(), max_bytes);
  }
  bool complete() const override { return true; }
  std::string_view name() const override { return "identity"; }
};

// gzip, and deflate in both the zlib wrapping HTTP asks for and the raw form some servers send.
class ZlibDecoder final : public BodyDecoder {
public:
  enum class Format { gzip, deflate };

  explicit ZlibDecoder(Format format) : m_format(format) {
    if (format == Format::gzip) {
      start(16 + MAX_WBITS); // gzip wrapper only
    }
  }
  ~ZlibDecoder() override {
    if (m_started) {
      inflateEnd(&m_stream);
    }
  }
  ZlibDecoder(const ZlibDecoder&) = delete;
  ZlibDecoder& operator=(const ZlibDecoder&) = delete;

  DecodeStatus write(std::string_view input, std::string& out, std::size_t max_bytes) override {
    if (m_format == Format::deflate && !m_started) {
      // The first two bytes tell a zlib stream from raw deflate.
      const std::size_t wanted = std::min(input.size(), 2 - m_head.size());
      m_head.append(input.substr(0, wanted));
      input.remove_prefix(wanted);
      if (m_head.size() < 2) {
        return DecodeStatus::ok;
      }
      start(is_zlib_header(m_head) ? MAX_WBITS : -MAX_WBITS);
      if (const DecodeStatus status = inflate_all(m_head, out, max_bytes);
          status != DecodeStatus::ok) {
        return status;
      }
    }
    return inflate_all(input, out, max_bytes);
  }
  bool complete() const override { return m_done; }
  std::string_view name() const override { return m_format == Format::gzip ? "gzip" : "deflate"; }

private:
  static bool is_zlib_header(std::string_view head) {
    const auto method = static_cast<unsigned char>(head[0]);
    const auto flags = static_cast<unsigned char>(head[1]);
    return (method & 0x0f) == Z_DEFLATED && (method * 256 + flags) % 31 == 0;
  }

  void start(int window_bits) {
    m_started = inflateInit2(&m_stream, window_bits) == Z_OK;
    m_failed = !m_started;
  }

  DecodeStatus inflate_all(std::string_view input, std::string& out, std::size_t max_bytes) {
    while (!input.empty() && !m_done) {
      const std::size_t slice = std::min(input.size(), k_chunk_bytes);
      if (const DecodeStatus status = inflate_slice(input.substr(0, slice), out, max_bytes);
          status != DecodeStatus::ok) {
        return status;
      }
      input.remove_prefix(slice);
    }
    return DecodeStatus::ok;
  }

  DecodeStatus inflate_slice(std::string_view input, std::string& out, std::size_t max_bytes) {
    if (m_failed) {
      return DecodeStatus::corrupt;
    }
    m_stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data()));
    m_stream.avail_in = static_cast<uInt>(input.size());
    std::array<unsigned char, k_chunk_bytes> buffer;
    do {
      m_stream.next_out = buffer.data();
      m_stream.avail_out = static_cast<uInt>(buffer.size());
      const int code = inflate(&m_stream, Z_NO_FLUSH);
      if (code != Z_OK && code != Z_STREAM_END && code != Z_BUF_ERROR) {
        m_failed = true;
        return DecodeStatus::corrupt;
      }
      const std::size_t produced = buffer.size() - m_stream.avail_out;
      if (append_bounded(out, buffer.data(), produced, max_bytes) != DecodeStatus::ok) {
        m_failed = true;
        return DecodeStatus::too_large;
      }
      if (code == Z_STREAM_END) {
        m_done = true;
        return DecodeStatus::ok;
      }
      if (code == Z_BUF_ERROR) {
        return DecodeStatus::ok; // every byte consumed, waiting for more
      }
    } while (m_stream.avail_in > 0 || m_stream.avail_out == 0);
    return DecodeStatus::ok;
  }

  Format m_format;
  z_stream m_stream{};
  std::string m_head; // deflate only: the first bytes, until the wrapping is known
  bool m_started = false;
  bool m_failed = false;
  bool m_done = false;
};

struct BrotliStateDeleter {
  void operator()(BrotliDecoderState* state) const { BrotliDecoderDestroyInstance(state); }
};

class BrotliBodyDecoder final : public BodyDecoder {
public:
  BrotliBodyDecoder() : m_state(BrotliDecoderCreateInstance(nullptr, nullptr, nullptr)) {}

  DecodeStatus write(std::string_view input, std::string& out, std::size_t max_bytes) override {
    if (!m_state) {
      return DecodeStatus::corrupt;
    }
    std::size_t available_in = input.size();
    const auto* next_in = reinterpret_cast<const std::uint8_t*>(input.data());
    std::array<std::uint8_t, k_chunk_bytes> buffer;
    while (!m_done) {
      std::size_t available_out = buffer.size();
      std::uint8_t* next_out = buffer.data();
      const BrotliDecoderResult result = BrotliDecoderDecompressStream(
          m_state.get(), &available_in, &next_in, &available_out, &next_out, nullptr);
      if (result == BROTLI_DECODER_RESULT_ERROR) {
        return DecodeStatus::corrupt;
      }
      if (append_bounded(out, buffer.data(), buffer.size() - available_out, max_bytes) !=
          DecodeStatus::ok) {
        return DecodeStatus::too_large;
      }
      m_done = result == BROTLI_DECODER_RESULT_SUCCESS;
      if (result == BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT) {
        break;
      }
    }
    return DecodeStatus::ok;
  }
  bool complete() const override { return m_done; }
  std::string_view name() const override { return "br"; }

private:
  std::unique_ptr<BrotliDecoderState, BrotliStateDeleter> m_state;
  bool m_done = false;
};

struct ZstdContextDeleter {
  void operator()(ZSTD_DCtx* context) const { ZSTD_freeDCtx(context); }
};

// zstd: a body is one or more complete frames.
class ZstdBodyDecoder final : public BodyDecoder {
public:
  ZstdBodyDecoder() : m_context(ZSTD_createDCtx()) {
    if (m_context) {
      ZSTD_DCtx_setParameter(m_context.get(), ZSTD_d_windowLogMax, k_max_zstd_window_log);
    }
  }

  DecodeStatus write(std::string_view input, std::string& out, std::size_t max_bytes) override {
    if (!m_context) {
      return DecodeStatus::corrupt;
    }
    ZSTD_inBuffer in{input.data(), input.size(), 0};
    std::array<char, k_chunk_bytes> buffer;
    // A full output buffer may leave decoded bytes inside the context: call until it is not.
    bool output_full = false;
    while (in.pos < in.size || output_full) {
      ZSTD_outBuffer chunk{buffer.data(), buffer.size(), 0};
      const std::size_t hint = ZSTD_decompressStream(m_context.get(), &chunk, &in);
      if (ZSTD_isError(hint) != 0) {
        return DecodeStatus::corrupt;
      }
      if (append_bounded(out, buffer.data(), chunk.pos, max_bytes) != DecodeStatus::ok) {
        return DecodeStatus::too_large;
      }
      m_frame_done = hint == 0;
      output_full = chunk.pos == chunk.size;
    }
    return DecodeStatus::ok;
  }
  bool complete() const override { return m_frame_done; }
  std::string_view name() const override { return "zstd"; }

private:
  std::unique_ptr<ZSTD_DCtx, ZstdContextDeleter> m_context;
  bool m_frame_done = false;
};

std::string normalized(std::string_view text) {
  return core::ascii_lower(core::trim(text));
}

} // namespace

std::unique_ptr<BodyDecoder> make_decoder(std::string_view content_encoding) {
  const std::string encoding = normalized(content_encoding);
  if (encoding.empty() || encoding == "identity") {
    return std::make_unique<IdentityDecoder>();
  }
  if (encoding == "gzip" || encoding == "x-gzip") {
    return std::make_unique<ZlibDecoder>(ZlibDecoder::Format::gzip);
  }
  if (encoding == "deflate") {
    return std::make_unique<ZlibDecoder>(ZlibDecoder::Format::deflate);
  }
  if (encoding == "br") {
    return std::make_unique<BrotliBodyDecoder>();
  }
  if (encoding == "zstd") {
    return std::make_unique<ZstdBodyDecoder>();
  }
  return nullptr;
}

} // namespace podcrawl::fetch::internal

#include "podcrawl/art/image.hpp"

#include <gtest/gtest.h>
#include <vips/vips.h>
#include <zlib.h>

#include <array>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

// Every image here is made by the test with libvips (or, for the oversized PNG, byte by byte),
// so that what each case holds is known exactly.
namespace podcrawl::art {
namespace {

using namespace std::string_view_literals;

struct ImageUnref {
  void operator()(VipsImage* image) const { g_object_unref(image); }
};
using Image = std::unique_ptr<VipsImage, ImageUnref>;

class ArtTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() { ASSERT_EQ(VIPS_INIT("unit_art"), 0); }
};

// A `width` x `height` image of noise with `bands` bands of 8 bits.
Image noise(int width, int height, int bands = 3) {
  std::vector<VipsImage*> planes;
  for (int band = 0; band < bands; ++band) {
    VipsImage* plane = nullptr;
    EXPECT_EQ(vips_gaussnoise(&plane, width, height, "mean", 128.0, "sigma", 40.0, nullptr), 0);
    planes.push_back(plane);
  }
  VipsImage* joined = nullptr;
  EXPECT_EQ(vips_bandjoin(planes.data(), &joined, bands, nullptr), 0);
  for (VipsImage* plane : planes) {
    g_object_unref(plane);
  }
  VipsImage* bytes = nullptr;
  EXPECT_EQ(vips_cast_uchar(joined, &bytes, nullptr), 0);
  g_object_unref(joined);
  return Image(bytes);
}

std::string take(void* buffer, std::size_t length) {
  std::string bytes(static_cast<const char*>(buffer), length);
  g_free(buffer);
  return bytes;
}

std::string saved(VipsImage* image, const char* suffix) {
  void* buffer = nullptr;
  std::size_t length = 0;
  EXPECT_EQ(vips_image_write_to_buffer(image, suffix, &buffer, &length, nullptr), 0)
      << vips_error_buffer();
  return take(buffer, length);
}

Image loaded(const std::string& bytes) {
  VipsImage* image = vips_image_new_from_buffer(bytes.data(), bytes.size(), "", "access",
                                                VIPS_ACCESS_RANDOM, nullptr);
  EXPECT_NE(image, nullptr) << vips_error_buffer();
  return Image(image);
}

PreparedArt prepare(const std::string& bytes, ImageLimits limits = {}) {
  return prepare_art(bytes, limits, k_art_widths);
}

// A greyscale PNG of `side` x `side` pixels of one bit, all zero, compressed as far as zlib
// goes: a decompression bomb, 50 MB of pixel rows for 20,000 pixels a side, in a small file.
std::string huge_png(std::uint32_t side) {
  const auto big_endian = [](std::uint32_t value) {
    std::string out(4, '\0');
    for (int i = 0; i < 4; ++i) {
      out[i] = static_cast<char>((value >> (24 - 8 * i)) & 0xff);
    }
    return out;
  };
  const auto chunk = [&](std::string_view type, const std::string& data) {
    std::string body = std::string(type) + data;
    const auto crc =
        crc32(0, reinterpret_cast<const Bytef*>(body.data()), static_cast<uInt>(body.size()));
    return big_endian(static_cast<std::uint32_t>(data.size())) + body +
           big_endian(static_cast<std::uint32_t>(crc));
  };
  std::string header = big_endian(side) + big_endian(side);
  header += std::string("\x01\x00\x00\x00\x00", 5); // 1 bit, grey, deflate, no filter, no interlace
  z_stream stream{};
  EXPECT_EQ(deflateInit(&stream, Z_BEST_COMPRESSION), Z_OK);
  const std::string row((side + 7) / 8 + 1, '\0');
  std::string compressed;
  std::array<unsigned char, 64 * 1024> out{};
  for (std::uint32_t y = 0; y <= side; ++y) {
    const bool last = y == side;
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(row.data()));
    stream.avail_in = last ? 0 : static_cast<uInt>(row.size());
    do {
      stream.next_out = out.data();
      stream.avail_out = out.size();
      deflate(&stream, last ? Z_FINISH : Z_NO_FLUSH);
      compressed.append(reinterpret_cast<const char*>(out.data()), out.size() - stream.avail_out);
    } while (stream.avail_out == 0);
  }
  deflateEnd(&stream);
  return std::string("\x89PNG\r\n\x1a\n") + chunk("IHDR", header) + chunk("IDAT", compressed) +
         chunk("IEND", "");
}

TEST(RenditionWidths, AreTheWantedWidthsNarrowerThanTheImageAndItsOwnWhenNarrower) {
  struct Case {
    int width;
    std::vector<int> widths;
  };
  const std::vector<Case> cases = {
      {3000, {160, 400, 1400}},
      {1400, {160, 400, 1400}},
      {1401, {160, 400, 1400}},
      {1000, {160, 400, 1000}},
      {400, {160, 400}},
      {300, {160, 300}},
      {100, {100}},
      {1, {1}},
      {0, {}},
  };
  for (const Case& test : cases) {
    SCOPED_TRACE(test.width);
    EXPECT_EQ(rendition_widths(test.width, k_art_widths), test.widths);
  }
}

TEST(SniffImage, KnowsTheFourFormatsByTheirFirstBytesAndNothingElse) {
  EXPECT_EQ(sniff_image("\xff\xd8\xff\xe0"), ImageFormat::jpeg);
  EXPECT_EQ(sniff_image("\x89PNG\r\n\x1a\n...."), ImageFormat::png);
  EXPECT_EQ(sniff_image("GIF89a.."), ImageFormat::gif);
  EXPECT_EQ(sniff_image("GIF87a.."), ImageFormat::gif);
  EXPECT_EQ(sniff_image("RIFF\x10\0\0\0WEBPVP8 "sv), ImageFormat::webp);
  for (std::string_view other :
       {""sv, "<svg xmlns=\"http://www.w3.org/2000/svg\"/>"sv, "<!DOCTYPE html>"sv,
        "RIFF\0\0\0\0WAVE"sv, "\xff\xd8"sv, "\x89PNG"sv, "BM\0\0"sv, "%PDF-1.7"sv, "II*\0"sv}) {
    EXPECT_FALSE(sniff_image(other)) << other;
  }
}

TEST_F(ArtTest, EachFormatBecomesWebpRenditionsNoWiderThanTheOriginal) {
  Image source = noise(600, 300);
  for (const char* suffix : {".jpg", ".png", ".gif", ".webp"}) {
    SCOPED_TRACE(suffix);
    PreparedArt art = prepare(saved(source.get(), suffix));
    ASSERT_EQ(art.refusal, Refusal::none) << art.error;
    EXPECT_EQ(art.width, 600);
    EXPECT_EQ(art.height, 300);
    ASSERT_EQ(art.renditions.size(), 3U);
    const std::array<int, 3> widths = {160, 400, 600};
    for (std::size_t i = 0; i < widths.size(); ++i) {
      const Rendition& rendition = art.renditions[i];
      EXPECT_EQ(rendition.width, widths[i]);
      EXPECT_EQ(rendition.height, widths[i] / 2);
      ASSERT_EQ(sniff_image(rendition.webp), ImageFormat::webp);
      Image decoded = loaded(rendition.webp);
      EXPECT_EQ(vips_image_get_width(decoded.get()), rendition.width);
      EXPECT_EQ(vips_image_get_height(decoded.get()), rendition.height);
      EXPECT_EQ(vips_image_get_bands(decoded.get()), 3);
    }
  }
}

TEST_F(ArtTest, AppliesTheExifOrientationAndKeepsNoMetadataGpsIncluded) {
  Image source = noise(300, 200);
  VipsImage* tagged = nullptr;
  ASSERT_EQ(vips_copy(source.get(), &tagged, nullptr), 0);
  Image image(tagged);
  vips_image_set_int(image.get(), VIPS_META_ORIENTATION, 6); // stored turned a quarter
  vips_image_set_string(image.get(), "exif-ifd3-GPSLatitudeRef", "N");
  vips_image_set_string(image.get(), "exif-ifd3-GPSLatitude", "51/1 30/1 0/1");
  const std::string jpeg = saved(image.get(), ".jpg");
  // The file the test made does carry the orientation and the position.
  Image reread = loaded(jpeg);
  ASSERT_NE(vips_image_get_typeof(reread.get(), VIPS_META_EXIF_NAME), 0U);
  ASSERT_NE(vips_image_get_typeof(reread.get(), "exif-ifd3-GPSLatitude"), 0U);
  int orientation = 0;
  ASSERT_EQ(vips_image_get_int(reread.get(), VIPS_META_ORIENTATION, &orientation), 0);
  ASSERT_EQ(orientation, 6);

  PreparedArt art = prepare(jpeg);
  ASSERT_EQ(art.refusal, Refusal::none) << art.error;
  EXPECT_EQ(art.width, 200); // upright
  EXPECT_EQ(art.height, 300);
  ASSERT_FALSE(art.renditions.empty());
  for (const Rendition& rendition : art.renditions) {
    EXPECT_EQ(rendition.height, rendition.width * 3 / 2);
    Image decoded = loaded(rendition.webp);
    EXPECT_EQ(vips_image_get_typeof(decoded.get(), VIPS_META_EXIF_NAME), 0U);
    EXPECT_EQ(vips_image_get_typeof(decoded.get(), "exif-ifd3-GPSLatitude"), 0U);
    EXPECT_EQ(vips_image_get_typeof(decoded.get(), VIPS_META_XMP_NAME), 0U);
    EXPECT_EQ(vips_image_get_typeof(decoded.get(), VIPS_META_ICC_NAME), 0U);
    EXPECT_EQ(rendition.webp.find("GPS"), std::string::npos);
    EXPECT_EQ(rendition.webp.find("EXIF"), std::string::npos);
    EXPECT_EQ(rendition.webp.find("XMP "), std::string::npos);
  }
}

TEST_F(ArtTest, ConvertsCmykAndSixteenBitImagesToEightBitSrgb) {
  Image cmyk = noise(500, 500, 4);
  VipsImage* as_cmyk = nullptr;
  ASSERT_EQ(vips_copy(cmyk.get(), &as_cmyk, "interpretation", VIPS_INTERPRETATION_CMYK, nullptr),
            0);
  Image cmyk_image(as_cmyk);
  const std::string cmyk_jpeg = saved(cmyk_image.get(), ".jpg");
  ASSERT_EQ(vips_image_get_bands(loaded(cmyk_jpeg).get()), 4); // the file is CMYK

  Image rgb = noise(500, 250);
  VipsImage* wide = nullptr;
  ASSERT_EQ(vips_cast_ushort(rgb.get(), &wide, nullptr), 0);
  Image wide_image(wide);
  VipsImage* as_rgb16 = nullptr;
  ASSERT_EQ(
      vips_copy(wide_image.get(), &as_rgb16, "interpretation", VIPS_INTERPRETATION_RGB16, nullptr),
      0);
  Image rgb16(as_rgb16);
  void* buffer = nullptr;
  std::size_t length = 0;
  ASSERT_EQ(vips_pngsave_buffer(rgb16.get(), &buffer, &length, "bitdepth", 16, nullptr), 0);
  const std::string png16 = take(buffer, length);
  ASSERT_EQ(vips_image_get_format(loaded(png16).get()), VIPS_FORMAT_USHORT); // 16 bits a band

  for (const std::string* bytes : {&cmyk_jpeg, &png16}) {
    PreparedArt art = prepare(*bytes);
    ASSERT_EQ(art.refusal, Refusal::none) << art.error;
    ASSERT_FALSE(art.renditions.empty());
    Image decoded = loaded(art.renditions.back().webp);
    EXPECT_EQ(vips_image_get_bands(decoded.get()), 3);
    EXPECT_EQ(vips_image_get_format(decoded.get()), VIPS_FORMAT_UCHAR);
    EXPECT_EQ(vips_image_get_interpretation(decoded.get()), VIPS_INTERPRETATION_sRGB);
  }
}

TEST_F(ArtTest, TakesTheFirstFrameOfAnAnimation) {
  Image frames = noise(100, 300); // three frames of 100 x 100, stacked
  VipsImage* animated = nullptr;
  ASSERT_EQ(vips_copy(frames.get(), &animated, nullptr), 0);
  Image animation(animated);
  vips_image_set_int(animation.get(), VIPS_META_PAGE_HEIGHT, 100);
  const std::string gif = saved(animation.get(), ".gif");
  int pages = 0;
  Image all(vips_image_new_from_buffer(gif.data(), gif.size(), "", "n", -1, nullptr));
  ASSERT_TRUE(all);
  ASSERT_EQ(vips_image_get_int(all.get(), VIPS_META_N_PAGES, &pages), 0);
  ASSERT_EQ(pages, 3);

  PreparedArt art = prepare(gif);
  ASSERT_EQ(art.refusal, Refusal::none) << art.error;
  EXPECT_EQ(art.width, 100);
  EXPECT_EQ(art.height, 100);
}

TEST_F(ArtTest, RefusesAPngOfTwentyThousandPixelsASideBeforeDecodingIt) {
  const std::string bomb = huge_png(20000);
  ASSERT_LT(bomb.size(), 200U * 1024);
  PreparedArt art = prepare(bomb);
  EXPECT_EQ(art.refusal, Refusal::too_many_pixels);
  EXPECT_NE(art.error.find("20000 x 20000"), std::string::npos) << art.error;
  EXPECT_TRUE(art.renditions.empty());
  // Within a larger bound it is read: the bound, not the format, refused it.
  ImageLimits roomy;
  roomy.max_pixels = 20000LL * 20000;
  EXPECT_NE(prepare(huge_png(2000), roomy).refusal, Refusal::too_many_pixels);
}

// Regression: a JPEG 4,120 x 1 pixels was shrunk on load by 2, its height to zero, and
// libvips aborted the process ("bad dimensions"). fuzz_art found it.
TEST_F(ArtTest, ReadsVeryThinImagesWithoutShrinkingASideToNothing) {
  for (const auto& [width, height] :
       {std::pair{4120, 1}, std::pair{1, 4120}, std::pair{3000, 7}, std::pair{2900, 15}}) {
    SCOPED_TRACE(std::to_string(width) + " x " + std::to_string(height));
    PreparedArt art = prepare(saved(noise(width, height, 1).get(), ".jpg"));
    ASSERT_EQ(art.refusal, Refusal::none) << art.error;
    EXPECT_EQ(art.width, width);
    EXPECT_EQ(art.height, height);
    ASSERT_FALSE(art.renditions.empty());
    for (const Rendition& rendition : art.renditions) {
      EXPECT_GE(rendition.height, 1);
      EXPECT_GE(rendition.width, 1);
    }
  }
}

TEST_F(ArtTest, RefusesATruncatedJpeg) {
  const std::string jpeg = saved(noise(800, 600).get(), ".jpg");
  PreparedArt art = prepare(jpeg.substr(0, jpeg.size() / 2));
  EXPECT_EQ(art.refusal, Refusal::broken);
  EXPECT_FALSE(art.error.empty());
  EXPECT_TRUE(art.renditions.empty());
  EXPECT_EQ(prepare(jpeg).refusal, Refusal::none); // whole, the same file is read
}

TEST_F(ArtTest, RefusesWhatIsNotAnImageWhateverItsName) {
  const std::vector<std::string> others = {
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\">"
      "<script>alert(1)</script><rect width=\"10\" height=\"10\"/></svg>",
      "<?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\"/>",
      "<!DOCTYPE html><html><head><title>Not found</title></head><body>gone</body></html>",
      "",
      std::string("\xff\xd8\xff\xe0 but nothing after", 22),
  };
  for (std::size_t i = 0; i < others.size(); ++i) {
    SCOPED_TRACE(i);
    PreparedArt art = prepare(others[i]);
    EXPECT_NE(art.refusal, Refusal::none);
    EXPECT_TRUE(art.renditions.empty());
  }
  EXPECT_EQ(prepare(others[0]).refusal, Refusal::not_an_image);
  EXPECT_EQ(prepare(others[2]).refusal, Refusal::not_an_image);
  EXPECT_EQ(prepare(others[4]).refusal, Refusal::broken);
}

TEST_F(ArtTest, RefusesAFileOverTheByteBoundBeforeReadingIt) {
  std::string big = saved(noise(64, 64).get(), ".jpg");
  big.resize(40 * 1024 * 1024, '\0');
  PreparedArt art = prepare(big);
  EXPECT_EQ(art.refusal, Refusal::too_many_bytes);
  EXPECT_FALSE(art.format); // refused before its bytes were looked at
}

} // namespace
} // namespace podcrawl::art

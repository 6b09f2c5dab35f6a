#include "podcrawl/art/helper.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/images.hpp"

namespace podcrawl::art {
namespace {

PreparedArt sample() {
  PreparedArt art;
  art.format = ImageFormat::png;
  art.width = 600;
  art.height = 300;
  art.renditions = {
      {160, 80, std::string("RIFF\0\n\xff", 7)}, {400, 200, "second"}, {600, 300, ""}};
  return art;
}

TEST(ArtAnswer, ComesBackAsItWasSent) {
  const PreparedArt art = sample();
  const std::optional<PreparedArt> back = decode_answer(encode_answer(art));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->refusal, Refusal::none);
  EXPECT_EQ(back->format, ImageFormat::png);
  EXPECT_EQ(back->width, 600);
  EXPECT_EQ(back->height, 300);
  ASSERT_EQ(back->renditions.size(), 3U);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(back->renditions[i].width, art.renditions[i].width);
    EXPECT_EQ(back->renditions[i].height, art.renditions[i].height);
    EXPECT_EQ(back->renditions[i].webp, art.renditions[i].webp);
  }
  PreparedArt refused;
  refused.refusal = Refusal::too_many_pixels;
  refused.error = "the image is 20000 x 20000 pixels\nover \xff";
  const std::optional<PreparedArt> refusal = decode_answer(encode_answer(refused));
  ASSERT_TRUE(refusal);
  EXPECT_EQ(refusal->refusal, Refusal::too_many_pixels);
  EXPECT_FALSE(refusal->format);
  EXPECT_EQ(refusal->error.substr(0, 22), "the image is 20000 x 2");
  EXPECT_TRUE(refusal->renditions.empty());
}

TEST(ArtAnswer, RefusesFramesItDidNotWrite) {
  const std::string good = encode_answer(sample());
  const std::vector<std::string> bad = {
      "",
      "{}",
      "{\"refusal\":\"none\",\"renditions\":[]}", // no line end
      "{\"refusal\":\"maybe\",\"renditions\":[]}\n",
      "{\"refusal\":\"none\",\"renditions\":[{\"bytes\":5}]}\nabc",
      "{\"refusal\":\"none\",\"renditions\":[{\"bytes\":-1}]}\n",
      "{\"refusal\":\"none\",\"renditions\":[]}\nleft over",
      "not json\n",
      "{\"refusal\":\"none\",\"error\":5,\"renditions\":[]}\n",
      "{\"refusal\":\"none\",\"width\":\"wide\",\"renditions\":[]}\n",
      "{\"refusal\":\"none\",\"renditions\":[{\"bytes\":0,\"height\":[]}]}\n",
      "{\"refusal\":\"none\",\"format\":7,\"renditions\":[]}\n",
      good.substr(0, good.size() - 1),
      good + "x",
  };
  for (const std::string& frame : bad) {
    EXPECT_FALSE(decode_answer(frame)) << frame;
  }
}

TEST(ArtHelper, PreparesImagesInItsOwnProcessOneAfterAnother) {
  ArtHelper helper(PODCRAWL_ART_HELPER, ImageLimits{});
  const PreparedArt first = helper.prepare(testing::noise_jpeg(500, 500));
  ASSERT_EQ(first.refusal, Refusal::none) << first.error;
  EXPECT_EQ(first.format, ImageFormat::jpeg);
  ASSERT_EQ(first.renditions.size(), 3U);
  EXPECT_EQ(first.renditions.back().width, 500);
  EXPECT_EQ(first.renditions.back().webp.substr(0, 4), "RIFF");
  EXPECT_EQ(helper.prepare("<svg onload=\"alert(1)\"/>").refusal, Refusal::not_an_image);
  const PreparedArt third = helper.prepare(testing::noise_jpeg(100, 50));
  ASSERT_EQ(third.refusal, Refusal::none) << third.error;
  EXPECT_EQ(third.renditions.back().width, 100);
}

TEST(ArtHelper, PassesItsBoundsToTheHelper) {
  ImageLimits limits;
  limits.max_pixels = 100 * 100;
  ArtHelper helper(PODCRAWL_ART_HELPER, limits);
  EXPECT_EQ(helper.prepare(testing::noise_jpeg(101, 100)).refusal, Refusal::too_many_pixels);
  EXPECT_EQ(helper.prepare(testing::noise_jpeg(100, 100)).refusal, Refusal::none);
  limits.max_bytes = 10;
  ArtHelper small(PODCRAWL_ART_HELPER, limits);
  EXPECT_EQ(small.prepare(testing::noise_jpeg(10, 10)).refusal, Refusal::too_many_bytes);
}

TEST(ArtHelper, RefusesTheImageWhenTheHelperDiesOrCannotStart) {
  ArtHelper dying("/bin/true", ImageLimits{}); // exits at once, answering nothing
  for (int attempt = 0; attempt < 2; ++attempt) {
    const PreparedArt art = dying.prepare(testing::noise_jpeg(20, 20));
    EXPECT_EQ(art.refusal, Refusal::broken);
    EXPECT_FALSE(art.error.empty());
  }
  ArtHelper missing("/nonexistent/podcrawl-art", ImageLimits{});
  const PreparedArt art = missing.prepare(testing::noise_jpeg(20, 20));
  EXPECT_EQ(art.refusal, Refusal::broken);
  EXPECT_NE(art.error.find("cannot start"), std::string::npos) << art.error;
}

} // namespace
} // namespace podcrawl::art

#include "podcrawl/art/helper.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <array>
#include <sstream>
#include <string>
#include <vector>

#include "podcrawl/core/error.hpp"
#include "support/images.hpp"
#include "support/temp_dir.hpp"

namespace podcrawl::art {
namespace {

// Bytes that start as a WebP file does, with `rest` after the header.
std::string webp(std::string_view rest) {
  return std::string("RIFF\0\n\xff\0WEBP", 12) + std::string(rest);
}

PreparedArt sample() {
  PreparedArt art;
  art.format = ImageFormat::png;
  art.width = 600;
  art.height = 300;
  art.renditions = {{160, 80, webp("first")}, {400, 200, webp("")}, {600, 300, webp("\n\0")}};
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

TEST(ArtAnswer, RefusesRenditionsTheCrawlerDidNotAskFor) {
  std::vector<PreparedArt> bad(6, sample());
  bad[0].renditions.pop_back();         // a width missing
  bad[1].renditions[2].width = 1400;    // wider than the original
  bad[2].renditions[1].webp = "<html>"; // not WebP
  bad[3].renditions[0].height = 301;    // taller than the original
  bad[4].renditions[0].height = 0;      // no height
  bad[5].width = 0;                     // no original
  for (std::size_t i = 0; i < bad.size(); ++i) {
    EXPECT_FALSE(decode_answer(encode_answer(bad[i]))) << i;
  }
  EXPECT_TRUE(decode_answer(encode_answer(sample())));
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

// A stand-in helper: a shell script at `dir`/helper running `body`.
std::filesystem::path script(const testing::TempDir& dir, const std::string& body) {
  const std::filesystem::path path = dir.path() / "helper";
  testing::write_file(path, "#!/bin/sh\n" + body + "\n");
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
  return path;
}

TEST(ArtHelper, RefusesTheImageWhenTheHelperDiesAndFailsLoudlyWhenItCannotStart) {
  ArtHelper dying("/bin/true", ImageLimits{}); // exits at once, answering nothing
  for (int attempt = 0; attempt < 2; ++attempt) {
    const PreparedArt art = dying.prepare(testing::noise_jpeg(20, 20));
    EXPECT_EQ(art.refusal, Refusal::broken);
    EXPECT_FALSE(art.error.empty());
  }
  ArtHelper missing("/nonexistent/podcrawl-art", ImageLimits{});
  EXPECT_THROW(missing.prepare(testing::noise_jpeg(20, 20)), core::EnvironmentError);
}

TEST(ArtHelper, KillsAHelperThatSendsHalfAnAnswer) {
  const testing::TempDir dir;
  // A frame announcing 64 bytes, one of them, then silence.
  ArtHelper stalling(script(dir, "printf '\\100\\0\\0\\0\\0\\0\\0\\0{'; exec sleep 600"),
                     ImageLimits{}, std::chrono::milliseconds(300));
  const PreparedArt art = stalling.prepare(testing::noise_jpeg(20, 20));
  EXPECT_EQ(art.refusal, Refusal::broken);
}

TEST(ArtHelper, GivesTheHelperNoneOfTheCrawlersFilesOrEnvironment) {
  const testing::TempDir dir;
  std::array<int, 2> pipe_ends{-1, -1};
  ASSERT_EQ(pipe(pipe_ends.data()), 0); // not close-on-exec, as a careless library's would be
  ASSERT_EQ(dup2(pipe_ends[0], 77), 77);
  ASSERT_EQ(dup2(pipe_ends[1], 78), 78);
  const testing::ScopedEnv secret("PODCRAWL_DATABASE_URL", "postgresql://secret@db/podcrawl");
  const testing::ScopedEnv kept("VIPS_CONCURRENCY", "1");
  // The script records what it was given, then answers nonsense (after the files are written).
  const std::filesystem::path out = dir.path();
  ArtHelper helper(script(dir, "env > '" + out.string() + "/env'; ls /proc/$$/fd > '" +
                                   out.string() + "/fds'; printf x"),
                   ImageLimits{});
  EXPECT_EQ(helper.prepare(testing::noise_jpeg(20, 20)).refusal, Refusal::broken);
  close(77);
  close(78);
  close(pipe_ends[0]);
  close(pipe_ends[1]);
  const std::string environment = testing::read_file(out / "env");
  EXPECT_EQ(environment.find("secret"), std::string::npos) << environment;
  EXPECT_NE(environment.find("VIPS_CONCURRENCY=1"), std::string::npos) << environment;
  std::istringstream fds(testing::read_file(out / "fds"));
  for (std::string fd; fds >> fd;) {
    EXPECT_NE(fd, "77");
    EXPECT_NE(fd, "78");
  }
}

} // namespace
} // namespace podcrawl::art

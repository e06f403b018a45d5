// The viewer's recording never replaces a file: one that exists makes the next recording go to
// the first free numbered name beside it.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "apps/viewer/recording_session.hpp"
#include "engine/scene.hpp"
#include "engine/world.hpp"

namespace fs = std::filesystem;

namespace {

std::string contents(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(RecordingSession, AnExistingFileIsKeptAndTheRecordingNumbered) {
  const fs::path dir = fs::path(::testing::TempDir()) / "hb-viewer-recording";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path asked = dir / "run.h5";
  EXPECT_EQ(hb::viewer::unusedRecordingPath(asked), asked);

  const std::string sceneJson = R"({"name": "r", "statics": [{"type": "ground", "height": 0}],
      "bodies": [{"shape": {"type": "sphere", "radius": 0.1}, "pose": {"p": [0, 0, 1]}}]})";
  hb::World world(hb::parseScene(sceneJson, dir));
  hb::viewer::RecordingSession session;
  for (int n = 1; n <= 3; ++n) {
    session.start(asked, world, sceneJson, 1);
    const fs::path expected = n == 1 ? asked : dir / ("run-" + std::to_string(n) + ".h5");
    EXPECT_EQ(session.file(), expected);
    world.step();
    session.record(world);
    session.stop();
  }
  const std::string first = contents(asked);
  EXPECT_FALSE(first.empty());
  // A fourth goes to run-4.h5; the three before are as they were.
  EXPECT_EQ(hb::viewer::unusedRecordingPath(asked), dir / "run-4.h5");
  EXPECT_EQ(contents(asked), first);
  fs::remove_all(dir);
}

}  // namespace

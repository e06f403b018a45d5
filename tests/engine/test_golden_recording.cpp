// A recorded run of the shipped funnel against the digest its recording had when
// tests/engine/data/golden-recording.txt was written: any change of behaviour, or of the file
// format, changes the bytes. A change meant to keep behaviour (a refactoring, a faster data
// path) must pass it unchanged; a change of behaviour meant as such updates the file with the
// digest the failure prints, and says so in its commit.

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "engine/recording/recorder.hpp"
#include "engine/run_file_checksum.hpp"
#include "engine/scene.hpp"
#include "engine/world.hpp"
#include "tests/process_temp_dir.hpp"

namespace hb {
namespace {

namespace fs = std::filesystem;

const fs::path kSource = HB_SOURCE_DIR;
const fs::path kGolden = kSource / "tests/engine/data/golden-recording.txt";

/// The golden file's digest: "fnv1a64 <16 hex digits>" and "bytes <count>" lines.
FileDigest readGolden() {
  std::ifstream in(kGolden);
  std::string key, hex;
  FileDigest golden;
  while (in >> key) {
    if (key == "fnv1a64") {
      in >> hex;
      golden.fnv1a64 = std::stoull(hex, nullptr, 16);
    } else if (key == "bytes") {
      in >> golden.bytes;
    } else {
      std::getline(in, key);  // a comment line
    }
  }
  return golden;
}

TEST(GoldenRecording, TheFunnelRunRecordsTheSameBytes) {
#ifndef HB_GOLDEN_BITS
  GTEST_SKIP() << "a sanitized or -march=native build computes other last bits";
#endif
  SceneDescription scene = loadScene(kSource / "assets/scenes/funnel.json");
  // The recording names the asset folder as the scene gave it: relative to the source tree, so
  // that the bytes do not depend on where the tree is checked out.
  const fs::path before = fs::current_path();
  fs::current_path(kSource);
  struct BackWhenDone {
    fs::path to;
    ~BackWhenDone() { fs::current_path(to); }
  } back{before};
  scene.assetDir = "assets/ycb";
  scene.spawner->count = 24;
  scene.spawner->interval = 0.04;
  World world(scene);
  world.setThreads(2);  // the workers' paths too; every count gives the same bits
  const fs::path file = test::processTempDir("heavyball-test-golden-") / "funnel.h5";
  RecordingMetadata meta;
  meta.sceneJson = R"({"name": "funnel", "golden": true})";
  meta.seed = scene.spawner->seed;
  {
    Recorder recorder(file, world, meta);
    world.addObserver([&](const World& w) { recorder.record(w); });
    for (int step = 0; step < 180; ++step) world.step();  // 1.5 s: 24 drops, and them landing
    recorder.close();
  }
  const FileDigest digest = digestFile(file);
  const FileDigest golden = readGolden();
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(digest.fnv1a64));
  EXPECT_TRUE(digest.fnv1a64 == golden.fnv1a64 && digest.bytes == golden.bytes)
      << "the funnel's recording changed: if the change of behaviour is meant, write\n"
      << "fnv1a64 " << hex << "\nbytes " << digest.bytes << "\ninto " << kGolden.string();
  fs::remove(file);
}

}  // namespace
}  // namespace hb

#include "engine/obj_mesh.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "engine/json_read.hpp"
#include "temp_dir_test.hpp"

namespace hb {
namespace {

namespace fs = std::filesystem;

const fs::path kYcbDir = fs::path(HB_SOURCE_DIR) / "assets" / "ycb";

/// A fresh directory per test, removed afterwards.
class ObjMeshFiles : public test::TempDirTest {
 protected:
  ObjMeshFiles() : TempDirTest("hb_obj_mesh_") {}

  /// Loads `text` and returns the MeshLoadError message (fails the test if nothing is thrown).
  std::string errorOf(const std::string& text) {
    const fs::path path = write("mesh.obj", text);
    try {
      loadObjMesh(path);
    } catch (const MeshLoadError& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.rfind(path.string() + ": ", 0), 0u) << message;
      return message;
    }
    ADD_FAILURE() << "no MeshLoadError for:\n" << text;
    return {};
  }
};

constexpr const char* kTriangle = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";

TEST(ObjMesh, LoadsMasterChefCanWithReadmeCounts) {
  const ObjMesh mesh = loadObjMesh(kYcbDir / "002_master_chef_can" / "textured.obj");
  // The `v` count of the YCB README; faces are the "16k".
  EXPECT_EQ(mesh.vertices.size(), 8006u);
  EXPECT_EQ(mesh.triangles.size(), 16384u);
  Eigen::Vector3d lo = mesh.vertices.front(), hi = mesh.vertices.front();
  for (const auto& v : mesh.vertices) {
    lo = lo.cwiseMin(v);
    hi = hi.cwiseMax(v);
  }
  const Eigen::Vector3d extents = hi - lo;
  EXPECT_NEAR(extents.x(), 0.1025, 1e-4);
  EXPECT_NEAR(extents.y(), 0.1024, 1e-4);
  EXPECT_NEAR(extents.z(), 0.1402, 1e-4);
  // First vertex of the file, as written (no recentring).
  EXPECT_NEAR(mesh.vertices[0].x(), -0.061088, 1e-7);
  EXPECT_NEAR(mesh.vertices[0].y(), -0.035114, 1e-7);
  EXPECT_NEAR(mesh.vertices[0].z(), 0.002747, 1e-7);
  for (const auto& t : mesh.triangles) {
    for (int i : t) {
      ASSERT_GE(i, 0);
      ASSERT_LT(i, static_cast<int>(mesh.vertices.size()));
    }
  }
}

TEST(ObjMesh, LoadsEveryShippedYcbObject) {
  // Folder and `v` count, from assets/ycb/README.md.
  const std::pair<const char*, size_t> objects[] = {
      {"002_master_chef_can", 8006},
      {"003_cracker_box", 8194},
      {"004_sugar_box", 8194},
      {"005_tomato_soup_can", 8178},
      {"006_mustard_bottle", 8194},
      {"007_tuna_fish_can", 8194},
      {"011_banana", 8194},
      {"013_apple", 8194},
      {"015_peach", 8194},
      {"021_bleach_cleanser", 8194},
      {"024_bowl", 8194},
      {"025_mug", 8188},
      {"035_power_drill", 8194},
      {"036_wood_block", 8194},
      {"037_scissors", 8188},
      {"042_adjustable_wrench", 8092},
      {"048_hammer", 8194},
      {"050_medium_clamp", 8192},
      {"055_baseball", 8194},
      {"061_foam_brick", 8194},
  };
  for (const auto& [folder, numVertices] : objects) {
    const ObjMesh mesh = loadObjMesh(kYcbDir / folder / "textured.obj");
    EXPECT_EQ(mesh.vertices.size(), numVertices) << folder;
    EXPECT_EQ(mesh.triangles.size(), 16384u) << folder;
  }
}

TEST_F(ObjMeshFiles, MissingFile) {
  const fs::path path = dir_ / "absent.obj";
  try {
    loadObjMesh(path);
    FAIL() << "no exception";
  } catch (const MeshLoadError& e) {
    EXPECT_EQ(std::string(e.what()), path.string() + ": no such file");
  }
}

TEST_F(ObjMeshFiles, DirectoryIsNotAFile) {
  EXPECT_THROW(loadObjMesh(dir_), MeshLoadError);
}

// A file past 256 MiB (here a sparse one, taking no disk) is refused by its size, unread.
TEST_F(ObjMeshFiles, TooLargeAFileIsRefusedUnread) {
  const fs::path path = dir_ / "huge.obj";
  std::ofstream(path) << "v 0 0 0\n";
  fs::resize_file(path, kMaxObjFileBytes + 1);
  try {
    loadObjMesh(path);
    FAIL() << "no exception";
  } catch (const MeshLoadError& e) {
    EXPECT_EQ(std::string(e.what()),
              path.string() + ": 268435457 bytes, more than an OBJ file may have (256 MiB)");
  }
  fs::remove(path);
}

// A device would be read forever; only regular files are meshes.
TEST(ObjMesh, DeviceIsNotAFile) {
  try {
    loadObjMesh("/dev/zero");
    FAIL() << "no exception";
  } catch (const MeshLoadError& e) {
    EXPECT_EQ(std::string(e.what()), "/dev/zero: not a regular file");
  }
}

TEST_F(ObjMeshFiles, ParseErrorZeroIndex) {
  const std::string message = errorOf(std::string(kTriangle) + "f 0 1 2\n");
  EXPECT_NE(message.find("parse error"), std::string::npos) << message;
}

TEST_F(ObjMeshFiles, ParseErrorBadNumber) {
  const std::string message = errorOf("v 0 0 0\nv 1 abc 0\nv 0 1 0\nf 1 2 3\n");
  EXPECT_NE(message.find("line 2: vertex 1: cannot parse coordinate 'abc'"), std::string::npos)
      << message;
}

TEST_F(ObjMeshFiles, ParseErrorTooFewCoordinates) {
  const std::string message = errorOf("v 0 0 0\nv 1 0\nv 0 1 0\nf 1 2 3\n");
  EXPECT_NE(message.find("vertex 1 has 2 coordinates, expected 3"), std::string::npos) << message;
}

TEST_F(ObjMeshFiles, NoVertices) {
  EXPECT_NE(errorOf("").find("no vertices"), std::string::npos);
  EXPECT_NE(errorOf("# only a comment\nvn 0 0 1\n").find("no vertices"), std::string::npos);
}

TEST_F(ObjMeshFiles, NoFaces) {
  EXPECT_NE(errorOf(kTriangle).find("no faces"), std::string::npos);
  // Lines and points are not faces.
  EXPECT_NE(errorOf(std::string(kTriangle) + "l 1 2\np 3\n").find("no faces"), std::string::npos);
  // Where only the hull of the vertices is taken (a `mesh` shape), a point cloud is enough.
  const ObjMesh cloud =
      loadObjMesh(write("cloud.obj", std::string(kTriangle) + "v 0 0 1\n"), ObjFaces::Optional);
  EXPECT_EQ(cloud.vertices.size(), 4u);
  EXPECT_TRUE(cloud.triangles.empty());
  MeshHullCache hulls;
  EXPECT_EQ(hulls.hull(dir_ / "cloud.obj")->numVertices(), 4);
}

TEST_F(ObjMeshFiles, NanCoordinateNamesTheVertex) {
  const std::string message = errorOf("v 0 0 0\nv 1 0 0\n# comment\nv 0 nan 0\nf 1 2 3\n");
  EXPECT_NE(message.find("line 4: vertex 2 has a non-finite coordinate 'nan'"), std::string::npos)
      << message;
}

// Finite but beyond heavyball's lengths: named as such, not a "collinear" hull of overflowed
// squares.
TEST_F(ObjMeshFiles, HugeCoordinateNamesTheVertex) {
  const std::string message = errorOf("v 0 0 0\nv 1e300 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\n");
  EXPECT_NE(message.find("vertex 1 has a coordinate beyond 1000000"), std::string::npos) << message;
}

TEST_F(ObjMeshFiles, InfiniteCoordinateNamesTheVertex) {
  EXPECT_NE(errorOf("v inf 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n").find("vertex 0 has a non-finite"),
            std::string::npos);
  // Overflows double.
  EXPECT_NE(errorOf("v 0 0 0\nv 1e400 0 0\nv 0 1 0\nf 1 2 3\n").find("vertex 1 has a non-finite"),
            std::string::npos);
  // Finite as a double but beyond float, and beyond heavyball's lengths either way.
  const std::string message = errorOf("v 0 0 0\nv 1 0 0\nv 0 -1e39 0\nf 1 2 3\n");
  EXPECT_TRUE(message.find("vertex 2 has a non-finite") != std::string::npos ||
              message.find("vertex 2 has a coordinate beyond") != std::string::npos)
      << message;
}

TEST_F(ObjMeshFiles, FaceIndexOutOfRange) {
  const std::string message = errorOf(std::string(kTriangle) + "f 1 2 3\nf 1 2 4\n");
  EXPECT_NE(message.find("face 1 references vertex 4 (1-based), out of range 1..3"),
            std::string::npos)
      << message;
  // Relative index before the first vertex.
  EXPECT_NE(errorOf(std::string(kTriangle) + "f -1 -2 -4\n").find("out of range"),
            std::string::npos);
  // In a quad (tinyobjloader's own triangulation would drop it silently).
  EXPECT_NE(errorOf(std::string(kTriangle) + "v 1 1 0\nf 1 2 9 3\n").find("references vertex 9"),
            std::string::npos);
}

TEST_F(ObjMeshFiles, PolygonsAreFanTriangulated) {
  const fs::path path = write("poly.obj",
                              "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv -0.5 0.5 0\n"
                              "f 1 2 3 4\n"
                              "f 1/1/1 2/2/2 3/3/3 4/4/4 5/5/5\n");
  const ObjMesh mesh = loadObjMesh(path);
  ASSERT_EQ(mesh.vertices.size(), 5u);
  ASSERT_EQ(mesh.triangles.size(), 5u);
  EXPECT_EQ(mesh.triangles[0], (std::array<int, 3>{0, 1, 2}));
  EXPECT_EQ(mesh.triangles[1], (std::array<int, 3>{0, 2, 3}));
  EXPECT_EQ(mesh.triangles[4], (std::array<int, 3>{0, 3, 4}));
}

TEST_F(ObjMeshFiles, RelativeIndicesCrlfAndMissingMaterial) {
  const fs::path path = write("crlf.obj",
                              "mtllib absent.mtl\r\nusemtl nothing\r\n"
                              "v 0 0 0\r\nv +1.5 0 0\r\nv 0 .25 -0\r\nf -3 -2 -1\r\n");
  const ObjMesh mesh = loadObjMesh(path);
  ASSERT_EQ(mesh.vertices.size(), 3u);
  EXPECT_EQ(mesh.vertices[1], Eigen::Vector3d(1.5, 0, 0));
  EXPECT_EQ(mesh.vertices[2], Eigen::Vector3d(0, 0.25, 0));
  ASSERT_EQ(mesh.triangles.size(), 1u);
  EXPECT_EQ(mesh.triangles[0], (std::array<int, 3>{0, 1, 2}));
}

}  // namespace
}  // namespace hb

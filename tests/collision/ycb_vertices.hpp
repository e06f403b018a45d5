#pragma once
// Vertex positions of a YCB mesh shipped in assets/ycb, read here ("v x y z" records) so that the
// collision tests need no mesh loader.

#include <Eigen/Core>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace hb::test {

inline std::vector<Eigen::Vector3d> ycbVertices(const std::string& name) {
  std::ifstream in(std::string(HB_SOURCE_DIR) + "/assets/ycb/" + name + "/textured.obj");
  std::vector<Eigen::Vector3d> vertices;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("v ", 0) != 0) continue;
    std::istringstream fields(line.substr(2));
    Eigen::Vector3d p;
    fields >> p.x() >> p.y() >> p.z();
    vertices.push_back(p);
  }
  return vertices;
}

}  // namespace hb::test

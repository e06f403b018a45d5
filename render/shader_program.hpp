#pragma once
// A linked GLSL program built from embedded shader files, with uniform setters by name
// (locations looked up once and cached).

#include <Eigen/Core>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace hb {

/// A shader failed to compile or link; the message names the files and holds the driver's log.
class ShaderError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ShaderProgram {
 public:
  /// Each stage is "#version 330 core" followed by the named files (shader_sources.hpp) in order,
  /// so shared code such as lighting.glsl comes first. Throws ShaderError.
  ShaderProgram(const std::vector<std::string_view>& vertexFiles,
                const std::vector<std::string_view>& fragmentFiles);
  ~ShaderProgram();
  ShaderProgram(const ShaderProgram&) = delete;
  ShaderProgram& operator=(const ShaderProgram&) = delete;

  void use() const;
  void set(const char* name, int value);
  void set(const char* name, bool value) { set(name, value ? 1 : 0); }
  void set(const char* name, float value);
  void set(const char* name, const Eigen::Vector2f& value);
  void set(const char* name, const Eigen::Vector3f& value);
  void set(const char* name, const Eigen::Vector4f& value);
  void set(const char* name, const Eigen::Matrix3f& value);
  void set(const char* name, const Eigen::Matrix4f& value);

 private:
  int location(const char* name);

  unsigned id_ = 0;
  std::unordered_map<std::string, int> locations_;
};

}  // namespace hb

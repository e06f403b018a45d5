#pragma once
// Draws a LineList as GL_LINES from one streamed vertex buffer.

#include <Eigen/Core>
#include <memory>

#include "render/line_list.hpp"
#include "render/shader_program.hpp"

namespace hb {

class LineRenderer {
 public:
  LineRenderer();
  ~LineRenderer();
  LineRenderer(const LineRenderer&) = delete;
  LineRenderer& operator=(const LineRenderer&) = delete;

  /// With `onTop`, lines show through surfaces (no depth test).
  void draw(const LineList& lines, const Eigen::Matrix4f& viewProjection, bool onTop);

 private:
  std::unique_ptr<ShaderProgram> program_;
  unsigned vao_ = 0, vbo_ = 0;
  size_t capacity_ = 0;  // vertices the buffer holds
};

}  // namespace hb

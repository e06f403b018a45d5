#include "render/line_renderer.hpp"

#include <cstddef>

#include "render/gl.hpp"

namespace hb {

LineRenderer::LineRenderer()
    : program_(std::make_unique<ShaderProgram>(std::vector<std::string_view>{"lines.vert"},
                                               std::vector<std::string_view>{"lines.frag"})) {
  glGenVertexArrays(1, &vao_);
  glGenBuffers(1, &vbo_);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(LineVertex),
                        reinterpret_cast<const void*>(offsetof(LineVertex, position)));
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(LineVertex),
                        reinterpret_cast<const void*>(offsetof(LineVertex, color)));
  glBindVertexArray(0);
}

LineRenderer::~LineRenderer() {
  glDeleteBuffers(1, &vbo_);
  glDeleteVertexArrays(1, &vao_);
}

void LineRenderer::draw(const LineList& lines, const Eigen::Matrix4f& viewProjection, bool onTop) {
  if (lines.empty()) return;
  const auto& v = lines.vertices();
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  // Grow geometrically; otherwise orphan and refill the store so the driver need not wait.
  if (v.size() > capacity_) capacity_ = v.size() * 3 / 2;
  glBufferData(GL_ARRAY_BUFFER, capacity_ * sizeof(LineVertex), nullptr, GL_STREAM_DRAW);
  glBufferSubData(GL_ARRAY_BUFFER, 0, v.size() * sizeof(LineVertex), v.data());
  program_->use();
  program_->set("uViewProjection", viewProjection);
  if (onTop) glDisable(GL_DEPTH_TEST);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glDrawArrays(GL_LINES, 0, static_cast<GLsizei>(v.size()));
  glDisable(GL_BLEND);
  glEnable(GL_DEPTH_TEST);
  glBindVertexArray(0);
}

}  // namespace hb

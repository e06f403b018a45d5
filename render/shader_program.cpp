#include "render/shader_program.hpp"

#include "render/gl.hpp"
#include "render/shader_sources.hpp"

namespace hb {
namespace {

std::string joinNames(const std::vector<std::string_view>& files) {
  std::string names;
  for (std::string_view f : files) names += (names.empty() ? "" : "+") + std::string(f);
  return names;
}

GLuint compile(GLenum stage, const std::vector<std::string_view>& files) {
  std::string text = "#version 330 core\n";
  for (std::string_view f : files) {
    text += shaderSource(f);
    text += '\n';
  }
  const GLuint shader = glCreateShader(stage);
  const char* source = text.c_str();
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[4096] = {};
    glGetShaderInfoLog(shader, sizeof log, nullptr, log);
    glDeleteShader(shader);
    throw ShaderError("shader " + joinNames(files) + " does not compile: " + log);
  }
  return shader;
}

}  // namespace

ShaderProgram::ShaderProgram(const std::vector<std::string_view>& vertexFiles,
                             const std::vector<std::string_view>& fragmentFiles) {
  const GLuint vertex = compile(GL_VERTEX_SHADER, vertexFiles);
  GLuint fragment = 0;
  try {
    fragment = compile(GL_FRAGMENT_SHADER, fragmentFiles);
  } catch (...) {
    glDeleteShader(vertex);
    throw;
  }
  id_ = glCreateProgram();
  glAttachShader(id_, vertex);
  glAttachShader(id_, fragment);
  glLinkProgram(id_);
  // The program keeps the compiled code; the shader objects can go.
  glDeleteShader(vertex);
  glDeleteShader(fragment);
  GLint ok = 0;
  glGetProgramiv(id_, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[4096] = {};
    glGetProgramInfoLog(id_, sizeof log, nullptr, log);
    glDeleteProgram(id_);
    throw ShaderError("program " + joinNames(vertexFiles) + " / " + joinNames(fragmentFiles) +
                      " does not link: " + log);
  }
}

ShaderProgram::~ShaderProgram() {
  if (id_) glDeleteProgram(id_);
}

void ShaderProgram::use() const {
  glUseProgram(id_);
}

int ShaderProgram::location(const char* name) {
  const auto it = locations_.find(name);
  if (it != locations_.end()) return it->second;
  // -1 for uniforms the compiler removed: glUniform* ignores it.
  const int loc = glGetUniformLocation(id_, name);
  locations_.emplace(name, loc);
  return loc;
}

void ShaderProgram::set(const char* name, int value) {
  glUniform1i(location(name), value);
}
void ShaderProgram::set(const char* name, float value) {
  glUniform1f(location(name), value);
}
void ShaderProgram::set(const char* name, const Eigen::Vector2f& v) {
  glUniform2f(location(name), v.x(), v.y());
}
void ShaderProgram::set(const char* name, const Eigen::Vector3f& v) {
  glUniform3f(location(name), v.x(), v.y(), v.z());
}
void ShaderProgram::set(const char* name, const Eigen::Vector4f& v) {
  glUniform4f(location(name), v.x(), v.y(), v.z(), v.w());
}
// Eigen matrices are column-major, as OpenGL expects.
void ShaderProgram::set(const char* name, const Eigen::Matrix3f& m) {
  glUniformMatrix3fv(location(name), 1, GL_FALSE, m.data());
}
void ShaderProgram::set(const char* name, const Eigen::Matrix4f& m) {
  glUniformMatrix4fv(location(name), 1, GL_FALSE, m.data());
}

}  // namespace hb

#include "render/window.hpp"

#include "render/gl.hpp"
// After glad: GLFW is built with GLFW_INCLUDE_NONE.
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <cstdlib>

namespace hb {
namespace {

std::string& lastGlfwError() {
  static std::string error;
  return error;
}

void onGlfwError(int, const char* description) {
  lastGlfwError() = description;
}

const char* env(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : nullptr;
}

}  // namespace

std::string displayProblem() {
  if (!env("DISPLAY") && !env("WAYLAND_DISPLAY"))
    return "neither DISPLAY nor WAYLAND_DISPLAY is set";
  return {};
}

Window::Window(const WindowOptions& options) {
  if (std::string problem = displayProblem(); !problem.empty()) throw NoDisplayError(problem);
  glfwSetErrorCallback(onGlfwError);
  if (!glfwInit()) throw NoDisplayError("GLFW cannot initialise: " + lastGlfwError());
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_SAMPLES, options.samples);
  window_ =
      glfwCreateWindow(options.width, options.height, options.title.c_str(), nullptr, nullptr);
  if (!window_) {
    const std::string error = lastGlfwError();
    glfwTerminate();
    throw std::runtime_error("cannot open an OpenGL 3.3 core window: " + error);
  }
  glfwMakeContextCurrent(window_);
  if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress))) {
    glfwDestroyWindow(window_);
    glfwTerminate();
    throw std::runtime_error("cannot load the OpenGL 3.3 entry points");
  }
  glfwSwapInterval(options.vsync ? 1 : 0);
  if (options.samples > 0) glEnable(GL_MULTISAMPLE);
  glDescription_ = std::string("OpenGL ") + reinterpret_cast<const char*>(glGetString(GL_VERSION)) +
                   " (" + reinterpret_cast<const char*>(glGetString(GL_RENDERER)) + ")";

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  iniFile_ = options.imguiIniFile;
  ImGui::GetIO().IniFilename = iniFile_.empty() ? nullptr : iniFile_.c_str();
  ImGui::StyleColorsDark();
  ImGuiStyle& style = ImGui::GetStyle();
  style.WindowRounding = 4.0f;
  style.FrameRounding = 3.0f;
  style.GrabRounding = 3.0f;
  style.Colors[ImGuiCol_WindowBg].w = 0.90f;
  // Installed before ImGui's callbacks, which chain to it.
  glfwSetWindowUserPointer(window_, this);
  glfwSetKeyCallback(window_, onKey);
  ImGui_ImplGlfw_InitForOpenGL(window_, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
}

Window::~Window() {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window_);
  glfwTerminate();
}

bool Window::shouldClose() const {
  return glfwWindowShouldClose(window_);
}
void Window::requestClose() {
  glfwSetWindowShouldClose(window_, GLFW_TRUE);
}

void Window::onKey(GLFWwindow* window, int key, int, int action, int mods) {
  if (action == GLFW_RELEASE) return;
  auto* self = static_cast<Window*>(glfwGetWindowUserPointer(window));
  self->keyPresses_.push_back({key, mods, action == GLFW_REPEAT});
}

void Window::beginFrame() {
  keyPresses_.clear();
  glfwPollEvents();
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
}

void Window::drawUi() {
  ImGui::Render();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

bool Window::softwareRenderer() const {
  for (const char* name : {"llvmpipe", "softpipe", "swrast", "SwiftShader"}) {
    if (glDescription_.find(name) != std::string::npos) return true;
  }
  return false;
}

void Window::present() {
  glfwSwapBuffers(window_);
}
void Window::finishDrawing() {
  glFinish();
}

int Window::framebufferWidth() const {
  int w = 0, h = 0;
  glfwGetFramebufferSize(window_, &w, &h);
  return w;
}
int Window::framebufferHeight() const {
  int w = 0, h = 0;
  glfwGetFramebufferSize(window_, &w, &h);
  return h;
}
int Window::width() const {
  int w = 0, h = 0;
  glfwGetWindowSize(window_, &w, &h);
  return w;
}
int Window::height() const {
  int w = 0, h = 0;
  glfwGetWindowSize(window_, &w, &h);
  return h;
}

}  // namespace hb

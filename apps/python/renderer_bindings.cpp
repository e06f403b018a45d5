// heavyball.Renderer: images of a World without a window (colour, depth in metres, body
// indices), on an offscreen OpenGL context (render/offscreen/).

#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>

#include "apps/python/bindings.hpp"
#include "engine/world.hpp"
#include "render/offscreen/offscreen_renderer.hpp"

namespace py = pybind11;

namespace hb::python {
namespace {

class PythonRenderer {
 public:
  PythonRenderer(py::object world, int width, int height)
      : worldObject_(std::move(world)),
        world_(worldOf(worldObject_)),
        renderer_(std::make_unique<OffscreenRenderer>(width, height)) {}

  py::array_t<std::uint8_t> render(const std::optional<py::dict>& camera) {
    const OrbitView view = camera ? viewFrom(*camera) : renderer_->homeView(world_);
    renderer_->render(world_, view);
    last_ = view;
    const Image& image = renderer_->colour();
    py::array_t<std::uint8_t> out({image.height, image.width, 3});
    std::copy(image.pixels.begin(), image.pixels.end(), out.mutable_data());
    return out;
  }

  py::array_t<float> depth() const {
    requireFrame("depth");
    py::array_t<float> out({renderer_->height(), renderer_->width()});
    std::copy(renderer_->depth().begin(), renderer_->depth().end(), out.mutable_data());
    return out;
  }

  py::array_t<int> segmentation() const {
    requireFrame("segmentation");
    py::array_t<int> out({renderer_->height(), renderer_->width()});
    std::copy(renderer_->segmentation().begin(), renderer_->segmentation().end(),
              out.mutable_data());
    return out;
  }

  py::dict camera() const {
    const OrbitView v = last_ ? *last_ : renderer_->homeView(world_);
    py::dict d;
    d["target"] = py::make_tuple(v.target.x(), v.target.y(), v.target.z());
    d["distance"] = v.distance;
    d["yaw"] = v.yaw;
    d["pitch"] = v.pitch;
    return d;
  }

  /// Where the camera of `camera` sits and looks (for checks against the geometry): its
  /// position, unit forward vector, and the unit ray through each pixel centre (H, W, 3).
  py::dict rays(const std::optional<py::dict>& cameraDict) const {
    const OrbitView view = cameraDict ? viewFrom(*cameraDict) : renderer_->homeView(world_);
    OrbitCamera camera;
    camera.setHome(view);
    const int w = renderer_->width(), h = renderer_->height();
    py::array_t<double> out({h, w, 3});
    auto o = out.mutable_unchecked<3>();
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        const Ray r = camera.rayThrough(x + 0.5, y + 0.5, w, h);
        for (int k = 0; k < 3; ++k) o(y, x, k) = r.direction[k];
      }
    }
    py::dict d;
    const Eigen::Vector3d p = camera.position(), f = camera.forward();
    d["position"] = py::make_tuple(p.x(), p.y(), p.z());
    d["forward"] = py::make_tuple(f.x(), f.y(), f.z());
    d["directions"] = out;
    return d;
  }

  std::string repr() const {
    return "<heavyball.Renderer " + std::to_string(renderer_->width()) + "x" +
           std::to_string(renderer_->height()) + (last_ ? ", rendered" : ", nothing rendered yet") +
           ">";
  }

 private:
  static OrbitView viewFrom(const py::dict& camera) {
    OrbitView view;
    for (const auto& [key, value] : camera) {
      const std::string k = py::str(key);
      if (k == "target") {
        view.target = value.cast<Eigen::Vector3d>();
      } else if (k == "distance") {
        view.distance = value.cast<double>();
      } else if (k == "yaw") {
        view.yaw = value.cast<double>();
      } else if (k == "pitch") {
        view.pitch = value.cast<double>();
      } else {
        throw py::key_error("camera." + k +
                            ": unknown key (expected target, distance, yaw, pitch)");
      }
    }
    if (!(view.target.allFinite() && std::isfinite(view.yaw) && std::isfinite(view.pitch) &&
          view.distance > 0.0 && view.distance < 1e4)) {
      throw py::value_error(
          "camera: target, yaw and pitch must be finite, distance within (0, 1e4) m");
    }
    return view;
  }

  void requireFrame(const char* what) const {
    if (!last_) throw py::value_error(std::string(what) + ": call render() first");
  }

  py::object worldObject_;  // keeps the world alive while the renderer draws it
  World& world_;
  std::unique_ptr<OffscreenRenderer> renderer_;
  std::optional<OrbitView> last_;
};

}  // namespace

void addRendererBindings(py::module_& m) {
  py::register_exception<OffscreenContextError>(m, "OffscreenRenderingError", PyExc_RuntimeError);
  py::class_<PythonRenderer>(m, "Renderer", R"(Images of a world without a window.

Renderer(world, width=640, height=480): an offscreen OpenGL 3.3 context (EGL surfaceless; Mesa's
software rasteriser without a GPU); OffscreenRenderingError (a RuntimeError) where there is
none. render(camera=None) draws the world as the viewer does and returns RGB (H, W, 3) uint8;
depth() then gives (H, W) float32 metres along the view axis (inf where nothing was drawn) and
segmentation() (H, W) int32 body indices (0: the statics, -1: nothing; the translucent funnel is
left out). camera: a dict with target [x, y, z] (m), distance (m), yaw and pitch (rad), the
viewer's orbit view; default: the viewer's opening view.)")
      .def(py::init<py::object, int, int>(), py::arg("world"), py::arg("width") = 640,
           py::arg("height") = 480)
      .def("render", &PythonRenderer::render, py::arg("camera") = py::none())
      .def("depth", &PythonRenderer::depth)
      .def("segmentation", &PythonRenderer::segmentation)
      .def_property_readonly("camera", &PythonRenderer::camera,
                             "the view of the last render (or the default one)")
      .def("rays", &PythonRenderer::rays, py::arg("camera") = py::none(),
           "the camera's position, forward vector and the unit ray through each pixel centre "
           "(H, W, 3), for checks against the geometry")
      .def("__repr__", [](const PythonRenderer& r) { return r.repr(); });
}

}  // namespace hb::python

#include "apps/python/json_bridge.hpp"

#include <cmath>
#include <string>

namespace py = pybind11;

namespace hb::python {
namespace {
// The JSON readers refuse deeper values anyway; this keeps a self-referencing list from
// recursing without end.
constexpr int kMaxDepth = 64;

nlohmann::json convert(py::handle value, const std::string& where, int depth) {
  if (depth > kMaxDepth) throw py::value_error(where + ": nested deeper than 64 levels");
  if (value.is_none()) return nullptr;
  if (py::isinstance<py::bool_>(value)) return value.cast<bool>();
  if (py::isinstance<py::int_>(value)) {
    // Beyond 64 bits a Python int is kept as a double, as a JSON parser would.
    try {
      return value.cast<long long>();
    } catch (const py::cast_error&) {
      return value.cast<double>();
    }
  }
  if (py::isinstance<py::float_>(value)) {
    // JSON text has no NaN or infinity: named here rather than read later as a null.
    const double x = value.cast<double>();
    if (!std::isfinite(x)) throw py::value_error(where + ": not a finite number");
    return x;
  }
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  if (py::isinstance<py::dict>(value)) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [key, item] : value.cast<py::dict>()) {
      if (!py::isinstance<py::str>(key)) {
        throw py::type_error(where + ": keys must be strings, got " +
                             std::string(py::str(py::type::of(key).attr("__name__"))));
      }
      const std::string name = key.cast<std::string>();
      out[name] = convert(item, where.empty() ? name : where + "." + name, depth + 1);
    }
    return out;
  }
  if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {
    nlohmann::json out = nlohmann::json::array();
    size_t i = 0;
    for (const py::handle item : value) {
      out.push_back(convert(item, where + "[" + std::to_string(i++) + "]", depth + 1));
    }
    return out;
  }
  // numpy arrays and scalars, os.PathLike: through their Python equivalents.
  if (py::hasattr(value, "tolist")) return convert(value.attr("tolist")(), where, depth + 1);
  if (py::hasattr(value, "__fspath__")) return value.attr("__fspath__")().cast<std::string>();
  throw py::type_error(where + ": a " + std::string(py::str(py::type::of(value).attr("__name__"))) +
                       " is not a JSON value");
}
}  // namespace

nlohmann::json toJson(py::handle value, const std::string& where) {
  return convert(value, where, 0);
}

py::object toPython(const nlohmann::ordered_json& value) {
  switch (value.type()) {
    case nlohmann::ordered_json::value_t::null:
      return py::none();
    case nlohmann::ordered_json::value_t::boolean:
      return py::bool_(value.get<bool>());
    case nlohmann::ordered_json::value_t::number_integer:
      return py::int_(value.get<long long>());
    case nlohmann::ordered_json::value_t::number_unsigned:
      return py::int_(value.get<unsigned long long>());
    case nlohmann::ordered_json::value_t::number_float:
      return py::float_(value.get<double>());
    case nlohmann::ordered_json::value_t::string:
      return py::str(value.get<std::string>());
    case nlohmann::ordered_json::value_t::array: {
      py::list out;
      for (const auto& item : value) out.append(toPython(item));
      return out;
    }
    case nlohmann::ordered_json::value_t::object: {
      py::dict out;
      for (const auto& [key, item] : value.items()) out[py::str(key)] = toPython(item);
      return out;
    }
    default:
      return py::none();
  }
}

}  // namespace hb::python

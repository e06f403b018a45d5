#pragma once
// Python values and JSON: the Python module takes the dicts of heavyball's JSON formats (query
// problems, scenes, bodies) and answers with dicts, through the same parsers as the CLI.

#include <pybind11/pybind11.h>

#include <nlohmann/json.hpp>

namespace hb::python {

/// dict, list, tuple, str, bool, int, float and None; numpy scalars and arrays by their Python
/// values. Anything else is a TypeError naming the path, e.g. "problems[2].a.radius".
nlohmann::json toJson(pybind11::handle value, const std::string& where);
pybind11::object toPython(const nlohmann::ordered_json& value);

}  // namespace hb::python

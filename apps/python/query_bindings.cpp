// heavyball.query and heavyball.query_batch: collision problems as `heavyball query` answers
// them (engine/collision_query.hpp), one at a time from dicts, or N poses of one pair at once.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "apps/python/bindings.hpp"
#include "apps/python/json_bridge.hpp"
#include "engine/collision_query.hpp"

namespace py = pybind11;

namespace hb::python {
namespace {

using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;

// Meshes loaded and boxes fitted once per process, for every call and thread.
CollisionQueries& sharedQueries() {
  static CollisionQueries queries;
  return queries;
}

// An answer as Python values, its vectors (normal, witnesses) as numpy arrays as every array
// result of the module is.
py::dict answerToPython(const nlohmann::ordered_json& answer) {
  py::dict out = toPython(answer);
  for (const auto& [key, value] : answer.items()) {
    const bool vector = value.is_array() && !value.empty() &&
                        std::all_of(value.begin(), value.end(),
                                    [](const nlohmann::ordered_json& v) { return v.is_number(); });
    if (vector) out[py::str(key)] = py::array_t<double>(py::cast(value.get<std::vector<double>>()));
  }
  return out;
}

// heavyball.query on one dict or a list of them: the answers, or the first error (its message
// prefixed with the problem's index in a list).
py::object query(py::object problems) {
  const bool single = py::isinstance<py::dict>(problems);
  std::vector<nlohmann::json> inputs;
  if (single) {
    inputs.push_back(toJson(problems, ""));
  } else {
    size_t i = 0;
    for (const py::handle item : problems) {
      inputs.push_back(toJson(item, "problems[" + std::to_string(i++) + "]"));
    }
  }
  std::vector<nlohmann::ordered_json> answers(inputs.size());
  std::optional<std::string> error;
  {
    py::gil_scoped_release released;
    for (size_t i = 0; i < inputs.size() && !error; ++i) {
      try {
        const nlohmann::json& problem = inputs[i];
        const QueryProblem parsed = sharedQueries().parse(problem);
        if (problem.contains("id")) answers[i]["id"] = problem["id"];
        answers[i].update(sharedQueries().answer(parsed));
      } catch (const std::exception& e) {
        error = single ? std::string(e.what())
                       : "problems[" + std::to_string(i) + "]: " + std::string(e.what());
      }
    }
  }
  if (error) throw py::value_error(*error);
  if (single) return answerToPython(answers.front());
  py::list out;
  for (const auto& answer : answers) out.append(answerToPython(answer));
  return out;
}

// An (N, width) array, or one row of `width` values standing for every pose.
struct Rows {
  const double* data;
  py::ssize_t count;  // -1: one row for all
  const double* row(py::ssize_t i) const { return data + (count < 0 ? 0 : i) * width; }
  py::ssize_t width;
};

Rows rows(const Array& a, py::ssize_t width, const char* name) {
  if (a.ndim() == 1 && a.shape(0) == width) return {a.data(), -1, width};
  if (a.ndim() == 2 && a.shape(1) == width) return {a.data(), a.shape(0), width};
  throw py::value_error(std::string(name) + ": expected shape (N, " + std::to_string(width) +
                        ") or (" + std::to_string(width) + ",)");
}

/// Row i of positions_<side> and quaternions_<side>.
Pose poseAt(const Rows& positions, const Rows& quaternions, py::ssize_t i, char side) {
  // Names for the messages, built only for one (this runs once per row).
  const auto name = [&](const char* array) {
    return std::string(array) + "_" + side + "[" + std::to_string(i) + "]";
  };
  const double* p = positions.row(i);
  const double* q = quaternions.row(i);
  Pose pose;
  pose.p = Eigen::Vector3d(p[0], p[1], p[2]);
  if (!pose.p.allFinite()) throw std::invalid_argument(name("positions") + ": not finite");
  if (!json_read::withinRange(pose.p)) {
    json_read::requireWithinRange(pose.p, name("positions"));  // a query line's message
  }
  pose.q = json_read::unitQuaternion(Eigen::Vector4d(q[0], q[1], q[2], q[3]), name("quaternions"));
  if (!pose.isValid()) throw std::invalid_argument(name("quaternions") + ": not finite");
  return pose;
}

py::dict queryBatch(py::dict a, py::dict b, const Array& positionsA, const Array& quaternionsA,
                    const Array& positionsB, const Array& quaternionsB, py::object variant,
                    py::object warmStart, py::object tolerance, py::object maxIterations) {
  // The shapes and options through the same parser as a query line.
  nlohmann::json problem = {{"a", toJson(a, "a")}, {"b", toJson(b, "b")}};
  if (!variant.is_none()) problem["variant"] = toJson(variant, "variant");
  if (!warmStart.is_none()) problem["warm_start"] = toJson(warmStart, "warm_start");
  if (!tolerance.is_none()) problem["tolerance"] = toJson(tolerance, "tolerance");
  if (!maxIterations.is_none()) problem["max_iterations"] = toJson(maxIterations, "max_iterations");
  const Rows pa = rows(positionsA, 3, "positions_a"), qa = rows(quaternionsA, 4, "quaternions_a");
  const Rows pb = rows(positionsB, 3, "positions_b"), qb = rows(quaternionsB, 4, "quaternions_b");
  py::ssize_t n = -1;
  for (const auto& [r, name] : {std::pair{pa, "positions_a"},
                                {qa, "quaternions_a"},
                                {pb, "positions_b"},
                                {qb, "quaternions_b"}}) {
    if (r.count < 0) continue;
    if (n >= 0 && r.count != n) {
      throw py::value_error(std::string(name) + ": " + std::to_string(r.count) +
                            " rows where the other arrays have " + std::to_string(n));
    }
    n = r.count;
  }
  if (n < 0) n = 1;

  QueryProblem parsed;
  try {
    parsed = sharedQueries().parse(problem);
  } catch (const std::exception& e) {
    throw py::value_error(e.what());
  }
  py::array_t<bool> collide(n);
  py::array_t<double> distance(n);
  py::array_t<double> normal({n, py::ssize_t{3}}), witnessA({n, py::ssize_t{3}}),
      witnessB({n, py::ssize_t{3}});
  py::array_t<int> iterations(n);
  py::array_t<bool> ok(n);
  std::vector<std::string> statuses(n);
  std::optional<std::string> error;
  {
    auto c = collide.mutable_unchecked<1>();
    auto d = distance.mutable_unchecked<1>();
    auto nn = normal.mutable_unchecked<2>();
    auto wa = witnessA.mutable_unchecked<2>();
    auto wb = witnessB.mutable_unchecked<2>();
    auto it = iterations.mutable_unchecked<1>();
    auto good = ok.mutable_unchecked<1>();
    py::gil_scoped_release released;
    try {
      for (py::ssize_t i = 0; i < n; ++i) {
        parsed.poseA = poseAt(pa, qa, i, 'a');
        parsed.poseB = poseAt(pb, qb, i, 'b');
        const CollisionResult r = sharedQueries().solve(parsed);
        c(i) = r.collide;
        d(i) = r.distance;
        for (int k = 0; k < 3; ++k) {
          nn(i, k) = r.normal[k];
          wa(i, k) = r.witnessA[k];
          wb(i, k) = r.witnessB[k];
        }
        it(i) = r.gjkIterations;
        good(i) = r.ok();
        statuses[i] = std::string(toString(r.gjkStatus));
      }
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  if (error) throw py::value_error(*error);
  py::dict out;
  out["collide"] = collide;
  out["distance"] = distance;
  out["normal"] = normal;
  out["witness_a"] = witnessA;
  out["witness_b"] = witnessB;
  out["iterations"] = iterations;
  out["ok"] = ok;
  out["status"] = py::module_::import("numpy").attr("array")(py::cast(statuses));
  return out;
}

}  // namespace

void addQueryBindings(py::module_& m) {
  m.def("query", &query, py::arg("problems"),
        R"(Collision problems in the JSON schema of `heavyball query` (docs/query.md), as one dict
or a list of dicts; returns the answer dict (or a list of them): collide, distance (negative: the
penetration depth), normal, witness_a, witness_b, iterations, epa_iterations, status, and id when
the problem has one. A bad problem raises ValueError with the CLI's message, prefixed with
"problems[i]: " in a list.)");
  m.def("query_batch", &queryBatch, py::arg("a"), py::arg("b"), py::arg("positions_a"),
        py::arg("quaternions_a"), py::arg("positions_b"), py::arg("quaternions_b"), py::kw_only(),
        py::arg("variant") = py::none(), py::arg("warm_start") = py::none(),
        py::arg("tolerance") = py::none(), py::arg("max_iterations") = py::none(),
        R"(One pair of shapes (dicts as in `query`) at N poses: positions (N, 3) and quaternions
(N, 4), w first, of unit norm; a single (3,) or (4,) row stands for all N. Solved in C++ without
the GIL. Returns a dict of numpy arrays: collide (N,), distance (N,), normal, witness_a,
witness_b (N, 3), iterations (N,), ok (N,: GJK converged) and status (N,).)");
}

}  // namespace hb::python

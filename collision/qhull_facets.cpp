// Qhull is driven through orgQhull::QhullQh, the C++ face of Qhull's reentrant qhT: it redirects
// Qhull's messages to a stream we own, so nothing reaches stderr. The higher-level headers
// (libqhullcpp/Qhull.h, QhullFacetList.h, QhullVertexSet.h) declare constructors as `Foo<T>(...)`,
// which GCC 12 rejects in C++20, so the facets are read from the reentrant C structures instead.

#include "collision/qhull_facets.hpp"

#include <libqhullcpp/QhullError.h>
#include <libqhullcpp/QhullQh.h>

#include <csetjmp>
#include <sstream>
#include <string>
#include <vector>

namespace hb {

std::vector<PolytopeFace> qhullFacets(std::span<const Eigen::Vector3d> points,
                                      const Eigen::Vector3d& centre, const char* caller,
                                      double outsideTolerance) {
  const auto fail = [caller](const std::string& what) {
    throw HullError(std::string(caller) + ": " + what);
  };
  std::vector<coordT> coords(3 * points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Eigen::Vector3d c = points[i] - centre;
    coords[3 * i] = c.x();
    coords[3 * i + 1] = c.y();
    coords[3 * i + 2] = c.z();
  }

  std::vector<PolytopeFace> facets;
  std::ostringstream messages;
  try {
    orgQhull::QhullQh qhull;
    qhull.setErrorStream(&messages);
    qhull.setOutputStream(&messages);
    qhT* qh = &qhull;
    std::string options = "qhull";
    if (outsideTolerance > 0.0) {
      std::ostringstream w;
      w.precision(17);
      w << " W" << outsideTolerance;
      options += w.str();
    }
    std::vector<char> command(options.begin(), options.end());
    command.push_back('\0');

    // Qhull reports errors by longjmp to qh->errexit. Only C calls run between setjmp and the
    // jump, so no C++ destructor is skipped.
    volatile bool completed = false;
    qh->NOerrexit = False;
    if (setjmp(qh->errexit) == 0) {
      qh_initflags(qh, command.data());
      qh_init_B(qh, coords.data(), static_cast<int>(points.size()), 3, False);
      qh_qhull(qh);
      qh_check_output(qh);
      completed = true;
    }
    qh->NOerrexit = True;
    if (!completed) {
      const std::string message = messages.str();
      fail("Qhull failed: " + message.substr(0, message.find('\n')));
    }

    for (facetT* facet = qh->facet_list; facet && facet->next; facet = facet->next) {
      PolytopeFace raw;
      raw.normal = Eigen::Vector3d(facet->normal[0], facet->normal[1], facet->normal[2]);
      vertexT *vertex, **vertexp;
      FOREACHvertex_(facet->vertices) {
        const int id = qh_pointid(qh, vertex->point);
        if (id < 0 || id >= static_cast<int>(points.size()))
          fail("Qhull returned a foreign vertex");
        raw.vertices.push_back(id);
      }
      facets.push_back(std::move(raw));
    }
  } catch (const orgQhull::QhullError& e) {
    fail(std::string("Qhull failed: ") + e.what());
  }
  return facets;
}

}  // namespace hb

#pragma once
// The Frank–Wolfe baselines of Table II (RSS 2022) as `heavyball bench gjk` methods:
//  - "fw": the open-loop step gamma_k = (k+1)/(k+2) (frank_wolfe.hpp, FrankWolfeStep::OpenLoop);
//  - "fw_active_set": Alg. 3, line search over the active set {x_k, s_k} (LineSearch), the
//    paper's "FW (Alg. 1)" column.
// Same support functions, duality-gap test and tolerance as heavyball's GJK; x_0 is the
// difference of the shapes' interior points (frank_wolfe.hpp: interiorPoint), a point of D.

#include <memory>
#include <string_view>

#include "apps/bench/common/bench_method.hpp"
#include "apps/bench/common/frank_wolfe.hpp"

namespace hb::bench {

std::unique_ptr<Method> makeFrankWolfeMethod(std::string_view name, FrankWolfeStep step,
                                             int maxIterations);

}  // namespace hb::bench

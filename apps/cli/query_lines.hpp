#pragma once
// The `heavyball query` loop: one JSON collision problem per input line, one JSON answer per
// output line (docs/query.md). A line that cannot be answered is an error object for that line.

#include <istream>
#include <ostream>

namespace hb::cli {

/// Answers every line of `in` on `out`; returns the number of error lines.
int runQueries(std::istream& in, std::ostream& out);

}  // namespace hb::cli

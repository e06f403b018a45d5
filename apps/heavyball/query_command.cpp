// `heavyball query`: answers collision problems read as JSON lines, one JSON answer per line
// (the loop: apps/cli/query_lines.cpp).

#include <spdlog/spdlog.h>

#include <cerrno>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "apps/cli/query_lines.hpp"
#include "apps/heavyball/commands.hpp"
#include "collision/defaults.hpp"
#include "engine/input_file.hpp"

namespace hb::cli {
namespace {

constexpr const char* kQueryFooter =
    R"(Input: one JSON object per line; empty lines and lines starting with '#' are skipped.
  {"id": 7,
   "a": {"type": "box", "half_extents": [0.1, 0.1, 0.1]},
   "pose_a": {"p": [0, 0, 0], "q": [1, 0, 0, 0]},
   "b": {"type": "mesh", "path": "assets/ycb/013_apple/textured.obj"},
   "pose_b": {"p": [0.3, 0, 0]},
   "variant": "nesterov"}
Shapes (metres, local frame):
  sphere radius | box half_extents [x,y,z] | capsule, cylinder radius, half_length (axis z,
  centred) | cone radius, half_length (axis z, base at -half_length, apex at +half_length) |
  ellipsoid radii [a,b,c] | mesh path: convex hull of the OBJ's vertices, in the file's frame
  (relative paths resolve against the current directory; each file is loaded once).
  Boxes and meshes are sharp unless convex_radius (m) rounds their edges and corners: at most a
  quarter of the shape's inner radius (smallest half extent; a hull's centroid to its nearest
  face).
Poses: p [x,y,z] (default 0), q [w,x,y,z] (default identity; its norm must be within 1e-6 of 1,
  it is then normalised); pose_a and pose_b default to the identity.
Options: variant gjk|vanilla|polyak|nesterov|auto (default gjk); warm_start obb|none (default
  obb: x0 = centre of A's world OBB - centre of B's; none: x0 = (1,0,0)); tolerance (GJK duality
  gap, squared metres, default 1e-8); max_iterations (default 128); id (any JSON value, echoed).
  Unknown keys are errors.
Output: one JSON object per problem line, in input order:
  {"line", "id", "collide", "distance" (signed: < 0 is minus the penetration depth), "normal"
  (unit, from A towards B), "witness_a", "witness_b", "iterations" (GJK), "epa_iterations",
  "status" (GJK), "epa_status" (when EPA ran)}; a line that cannot be parsed gives
  {"line", "id" (when readable), "error"} and the run goes on.
Limits: the input must be a regular file or - (stdin); a line may be up to 64 MiB (a longer
  one is an error line); the output may not be the input file.
Exit status: 0 when every line was answered (or the reader of stdout stopped reading early), 1
  when any line gave an error or the input or output failed while open or opening, 2 when the
  input does not exist, is not a regular file, or is the output file.)";
static_assert(defaults::kGjkTolerance == 1e-8 && defaults::kGjkMaxIterations == 128 &&
                  defaults::kMaxConvexRadiusFraction == 0.25,
              "the query help text quotes these defaults");

}  // namespace

void addQueryCommand(CLI::App& app) {
  struct Options {
    std::string input;
    std::string output;
  };
  auto options = std::make_shared<Options>();
  CLI::App* query = app.add_subcommand(
      "query", "Answer collision problems given as JSON lines (distance, normal, witnesses)");
  query
      ->add_option("-i,--input", options->input,
                   "Problems file, one JSON object per line; - = stdin")
      ->required();
  query->add_option("-o,--output", options->output, "Answers file (default: stdout)");
  query->footer(kQueryFooter);
  query->callback([options] {
    std::ifstream inFile;
    if (options->input != "-") {
      try {
        requireRegularFile(options->input);
      } catch (const InputFileError& e) {
        spdlog::error("query: input {}", e.what());
        throw CLI::RuntimeError(2);
      }
      inFile.open(options->input, std::ios::binary);
      if (!inFile.is_open()) {
        spdlog::error("query: cannot open input file '{}'", options->input);
        throw CLI::RuntimeError(1);
      }
      // Opening the output truncates it: the answers would overwrite the problems unread.
      std::error_code ec;
      if (!options->output.empty() &&
          std::filesystem::equivalent(options->input, options->output, ec)) {
        spdlog::error("query: the output file '{}' is the input file; write the answers elsewhere",
                      options->output);
        throw CLI::RuntimeError(2);
      }
    }
    // A reader that stops early (`| head`) closes the pipe: the write then fails, and the run
    // ends quietly, rather than being killed by SIGPIPE.
    if (options->output.empty()) std::signal(SIGPIPE, SIG_IGN);
    std::ofstream outFile;
    if (!options->output.empty()) {
      outFile.open(options->output);
      if (!outFile) {
        spdlog::error("query: cannot open output file '{}'", options->output);
        throw CLI::RuntimeError(1);
      }
    }
    std::istream& in = options->input == "-" ? std::cin : inFile;
    std::ostream& out = options->output.empty() ? std::cout : outFile;
    const int errors = runQueries(in, out);
    if (in.bad()) {
      spdlog::error("query: read error on '{}'", options->input);
      throw CLI::RuntimeError(1);
    }
    if (!out) {
      if (options->output.empty() && errno == EPIPE) return;
      spdlog::error("query: write error");
      throw CLI::RuntimeError(1);
    }
    if (errors > 0) throw CLI::RuntimeError(1);
  });
}

}  // namespace hb::cli

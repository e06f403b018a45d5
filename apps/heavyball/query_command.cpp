// `heavyball query`: answers collision problems read as JSON lines, one JSON answer per line.

#include <spdlog/spdlog.h>

#include <nlohmann/json.hpp>

#include <cerrno>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "apps/heavyball/commands.hpp"
#include "apps/heavyball/query_lines.hpp"
#include "collision/collide.hpp"
#include "collision/defaults.hpp"
#include "engine/collision_query.hpp"
#include "engine/input_file.hpp"
#include "engine/json_read.hpp"

namespace hb::cli {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

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
  when any line gave an error, 2 when the input cannot be read or the output cannot be written.)";
static_assert(defaults::kGjkTolerance == 1e-8 && defaults::kGjkMaxIterations == 128 &&
                  defaults::kMaxConvexRadiusFraction == 0.25,
              "the query help text quotes these defaults");

/// nlohmann's messages start with "[json.exception.parse_error.101] "; the rest is the useful part.
std::string withoutExceptionTag(const std::string& message) {
  if (!message.empty() && message.front() == '[') {
    const size_t end = message.find("] ");
    if (end != std::string::npos) return message.substr(end + 2);
  }
  return message;
}

/// JSON values nested deeper than this are refused before parsing: nlohmann's copies and dumps
/// recurse once per level, so a line of 100,000 brackets would overflow the stack.
constexpr int kMaxNesting = 64;

/// The deepest nesting of arrays and objects in `line`, brackets inside strings left out (any
/// syntax error is the parser's to report).
int nestingDepth(std::string_view line) {
  int depth = 0, deepest = 0;
  bool inString = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (inString) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        inString = false;
      }
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

/// One answer line. Invalid UTF-8 (echoed from a line's id or in a parser's message) becomes
/// U+FFFD rather than an exception that would end the run.
void writeAnswer(std::ostream& out, const ordered_json& answer) {
  out << answer.dump(-1, ' ', false, json::error_handler_t::replace) << '\n';
}

bool isSkipped(std::string_view line) {
  const size_t first = line.find_first_not_of(" \t");
  return first == std::string_view::npos || line[first] == '#';
}

}  // namespace

int runQueries(std::istream& in, std::ostream& out) {
  CollisionQueries queries;
  int errors = 0;
  int answered = 0;
  int lineNumber = 0;
  std::string line;
  for (LineRead read; (read = readBoundedLine(in, line)) != LineRead::End;) {
    ++lineNumber;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (read == LineRead::Line && isSkipped(line)) continue;

    ordered_json answer;
    answer["line"] = lineNumber;
    json problem;
    try {
      if (read == LineRead::TooLong) {
        throw std::invalid_argument("line longer than " + std::to_string(kMaxInputLineBytes >> 20) +
                                    " MiB");
      }
      if (nestingDepth(line) > kMaxNesting) {
        throw std::invalid_argument("values nested deeper than " + std::to_string(kMaxNesting) +
                                    " levels");
      }
      problem = json_read::parseUniqueKeys(line);
    } catch (const std::exception& e) {  // syntax errors, and number overflow such as 1e999
      answer["error"] = "invalid JSON: " + withoutExceptionTag(e.what());
      ++errors;
      writeAnswer(out, answer);
      continue;
    }
    try {
      if (problem.is_object() && problem.contains("id")) answer["id"] = ordered_json(problem["id"]);
      answer.update(queries.answer(problem));
      ++answered;
    } catch (const std::exception& e) {
      answer["error"] = withoutExceptionTag(e.what());
      ++errors;
    }
    writeAnswer(out, answer);
    if (!out) break;  // nothing more can be written (a full disk, a reader that left)
  }
  out.flush();
  spdlog::debug("query: {} answered, {} errors, {} meshes loaded", answered, errors,
                queries.meshCount());
  return errors;
}

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
        throw CLI::RuntimeError(2);
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
        throw CLI::RuntimeError(2);
      }
    }
    std::istream& in = options->input == "-" ? std::cin : inFile;
    std::ostream& out = options->output.empty() ? std::cout : outFile;
    const int errors = runQueries(in, out);
    if (in.bad()) {
      spdlog::error("query: read error on '{}'", options->input);
      throw CLI::RuntimeError(2);
    }
    if (!out) {
      if (options->output.empty() && errno == EPIPE) return;
      spdlog::error("query: write error");
      throw CLI::RuntimeError(2);
    }
    if (errors > 0) throw CLI::RuntimeError(1);
  });
}

}  // namespace hb::cli

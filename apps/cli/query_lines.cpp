// The `heavyball query` loop (apps/cli/query_lines.hpp): each line a JSON collision problem,
// each answer a JSON line, a line that cannot be answered an error object for that line.

#include "apps/cli/query_lines.hpp"

#include <spdlog/spdlog.h>

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "collision/collide.hpp"
#include "engine/collision_query.hpp"
#include "engine/input_file.hpp"
#include "engine/json_read.hpp"

namespace hb::cli {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

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

}  // namespace hb::cli

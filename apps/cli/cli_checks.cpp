#include "apps/cli/cli_checks.hpp"

#include <climits>
#include <sstream>
#include <string>

#include "engine/scene.hpp"

namespace hb::cli {

const CLI::Validator& simulatedSeconds() {
  static const CLI::Validator check(
      [](std::string& text) -> std::string {
        double seconds = 0.0;
        if (!CLI::detail::lexical_cast(text, seconds) || !isSimulatedTime(seconds)) {
          std::ostringstream what;
          what << "expected seconds in (0, " << kMaxSimulatedSeconds << "], got " << text;
          return what.str();
        }
        return {};
      },
      "SECONDS in (0, 1e7]");
  return check;
}

const CLI::Validator& spawnCount() {
  static const CLI::Validator check = CLI::Range(0, kMaxSpawnCount);
  return check;
}

const CLI::Validator& spawnerSeed() {
  static const CLI::Validator check = CLI::Range(0LL, static_cast<long long>(UINT_MAX));
  return check;
}

}  // namespace hb::cli

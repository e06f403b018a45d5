#include "apps/heavyball/command_names.hpp"

#include <algorithm>
#include <numeric>

namespace hb::cli {
namespace {

// Levenshtein distance by one row of the dynamic programme.
int editDistance(std::string_view a, std::string_view b) {
  std::vector<int> row(b.size() + 1);
  std::iota(row.begin(), row.end(), 0);
  for (size_t i = 1; i <= a.size(); ++i) {
    int diagonal = row[0];
    row[0] = static_cast<int>(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      const int above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::optional<std::string> nearestName(std::string_view word,
                                       const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  int bestDistance = 0;
  for (const std::string& name : candidates) {
    const int d = editDistance(word, name);
    const int limit = static_cast<int>(std::max(word.size(), name.size())) / 3;
    if (d <= limit && (!best || d < bestDistance)) {
      best = name;
      bestDistance = d;
    }
  }
  return best;
}

}  // namespace hb::cli

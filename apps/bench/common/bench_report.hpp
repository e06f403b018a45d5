#pragma once
// A benchmark's output: its text printed as it comes, or, with --json, one JSON object printed at
// the end instead: its fields, and rows gathered by table ("tables", one object per row).

#include <cstdarg>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "apps/cli/json_output.hpp"

namespace hb::bench {

class BenchReport {
 public:
  BenchReport(const std::string& bench, bool json) : json_(json) { data_ = {{"bench", bench}}; }

  bool json() const { return json_; }

  /// printf to stdout, unless the report is JSON (headers, notes, the text of a row).
  [[gnu::format(printf, 2, 3)]] void text(const char* format, ...) const {
    if (json_) return;
    va_list args;
    va_start(args, format);
    std::vprintf(format, args);
    va_end(args);
    std::fflush(stdout);  // rows show as they are measured
  }

  /// Text already formatted, unless the report is JSON.
  void text(const std::string& formatted) const { text("%s", formatted.c_str()); }

  /// A row of table `table` (JSON only; its text goes through text()).
  void row(const std::string& table, nlohmann::json values) {
    if (json_) data_["tables"][table].push_back(std::move(values));
  }

  /// A top-level field of the JSON object (the run's settings).
  nlohmann::json& operator[](const std::string& key) { return data_[key]; }

  /// Prints the JSON object (nothing for text).
  void finish() const {
    if (json_) std::printf("%s\n", jsonLine(data_).c_str());
  }

 private:
  bool json_;
  nlohmann::json data_;
};

}  // namespace hb::bench

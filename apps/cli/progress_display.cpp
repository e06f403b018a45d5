#include "apps/cli/progress_display.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace hb::cli {
namespace {

// A bar redraws often enough to look alive; log lines are rare enough to keep logs short.
constexpr auto kTerminalInterval = std::chrono::milliseconds(200);
constexpr auto kLogInterval = std::chrono::seconds(5);
constexpr int kBarWidth = 30;

std::string duration(double seconds) {
  if (!std::isfinite(seconds)) return "?";
  const long s = std::lround(seconds);
  char text[32];
  if (s >= 3600) {
    std::snprintf(text, sizeof text, "%ldh%02ldm", s / 3600, s / 60 % 60);
  } else if (s >= 60) {
    std::snprintf(text, sizeof text, "%ldm%02lds", s / 60, s % 60);
  } else {
    std::snprintf(text, sizeof text, "%lds", s);
  }
  return text;
}

}  // namespace

ProgressDisplay::ProgressDisplay(std::string what, int total, int alreadyDone)
    : what_(std::move(what)),
      total_(total),
      alreadyDone_(alreadyDone),
      terminal_(::isatty(STDERR_FILENO) != 0),
      start_(Clock::now()),
      thread_([this] { loop(); }) {}

std::unique_ptr<ProgressDisplay> ProgressDisplay::onTerminalOnly(const std::string& what,
                                                                 long total) {
  if (::isatty(STDERR_FILENO) == 0) return nullptr;
  return std::make_unique<ProgressDisplay>(
      what, static_cast<int>(std::min<long>(total, std::numeric_limits<int>::max())), 0);
}

ProgressDisplay::~ProgressDisplay() {
  finish();
}

void ProgressDisplay::finish() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
  draw(true);
}

void ProgressDisplay::loop() {
  const auto interval =
      terminal_ ? Clock::duration(kTerminalInterval) : Clock::duration(kLogInterval);
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, interval, [this] { return stopping_; })) draw(false);
}

void ProgressDisplay::advance() {
  if (doneNow_.fetch_add(1) == 0) firstDone_ = (Clock::now() - start_).count();
}

std::string ProgressDisplay::status() const {
  const int now = doneNow_.load();
  const int done = alreadyDone_ + now;
  const auto sinceStart = Clock::now() - start_;
  const double elapsed = std::chrono::duration<double>(sinceStart).count();
  // The rate counts from the first item done: start-up (loading assets) would skew the ETA.
  const double window =
      std::chrono::duration<double>(sinceStart - Clock::duration(firstDone_.load())).count();
  const double rate = now > 1 && window > 0.0 ? (now - 1) / window : 0.0;
  const double eta = rate > 0.0 ? (total_ - done) / rate : INFINITY;
  char text[160];
  std::snprintf(text, sizeof text, "%d/%d %s, %.2f %s/s, elapsed %s, ETA %s", done, total_,
                what_.c_str(), rate, what_.c_str(), duration(elapsed).c_str(),
                done >= total_ ? "0s" : duration(eta).c_str());
  return text;
}

void ProgressDisplay::draw(bool final) {
  if (!terminal_) {
    if (!final) spdlog::info("{}", status());
    return;
  }
  const int done = alreadyDone_ + doneNow_.load();
  const int filled = total_ > 0 ? kBarWidth * done / total_ : kBarWidth;
  std::string bar(filled, '#');
  bar.resize(kBarWidth, '.');
  // \r and erase-to-end-of-line redraw the same line.
  std::fprintf(stderr, "\r[%s] %s\x1b[K%s", bar.c_str(), status().c_str(), final ? "\n" : "");
  std::fflush(stderr);
}

}  // namespace hb::cli

// SPDX-License-Identifier: Apache-2.0
// A progress bar on standard error, drawn only when it is a terminal, with
// an estimate of the time left (from the rate so far).
#pragma once

#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>

namespace dxt::cli {

class ProgressBar {
 public:
  // Bytes are shown in MiB; counts (e.g. words) as plain numbers.
  enum class Unit { kBytes, kCount };

  explicit ProgressBar(std::string label, Unit unit = Unit::kBytes)
      : label_(std::move(label)), unit_(unit), enabled_(isatty(STDERR_FILENO) == 1) {}
  ~ProgressBar() { finish(); }
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  void finish() {
    if (enabled_ && drawn_) std::fputc('\n', stderr);
    drawn_ = false;
    complete_ = false;
  }

  void update(uint64_t done, uint64_t total) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (!started_) {
      start_ = now;
      started_ = true;
    }
    if (drawn_ && done < total && now - last_ < std::chrono::milliseconds(100)) return;
    // The finished line is drawn once: a caller that reports the end twice
    // (the last step, then "all done") would otherwise print it again.
    const bool complete = total != 0 && done >= total;
    if (complete && complete_) return;
    complete_ = complete;
    last_ = now;
    drawn_ = true;
    const double divisor = unit_ == Unit::kBytes ? double{1 << 20} : 1.0;
    const char* suffix = unit_ == Unit::kBytes ? " MiB" : "";
    const int decimals = unit_ == Unit::kBytes ? 1 : 0;
    const double shown = static_cast<double>(done) / divisor;
    if (total == 0) {
      std::fprintf(stderr, "\r%s %.*f%s", label_.c_str(), decimals, shown, suffix);
    } else {
      const double f = static_cast<double>(done) / static_cast<double>(total);
      const int width = 30, filled = static_cast<int>(f * width);
      std::fprintf(stderr, "\r%s [%.*s%*s] %3.0f%% %.*f/%.*f%s %s", label_.c_str(), filled,
                   "==============================", width - filled, "", 100 * f, decimals, shown, decimals,
                   static_cast<double>(total) / divisor, suffix, eta(now, f).c_str());
    }
    std::fflush(stderr);
  }

 private:
  // "ETA 1m05s" from the time so far and the fraction done f; padded so a
  // shorter estimate overwrites a longer one.
  std::string eta(std::chrono::steady_clock::time_point now, double f) const {
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    char b[64];
    if (f >= 1) {
      std::snprintf(b, sizeof b, "done in %.0fs  ", elapsed);
    } else if (f <= 0 || elapsed < 0.5) {
      std::snprintf(b, sizeof b, "ETA --        ");
    } else {
      const auto left = static_cast<long long>(elapsed * (1 - f) / f + 0.5);
      if (left >= 3600)
        std::snprintf(b, sizeof b, "ETA %lldh%02lldm    ", left / 3600, left / 60 % 60);
      else
        std::snprintf(b, sizeof b, "ETA %lldm%02llds    ", left / 60, left % 60);
    }
    return b;
  }

  std::string label_;
  Unit unit_;
  bool enabled_;
  bool drawn_ = false;
  bool complete_ = false;  // the line of done == total is on the screen
  bool started_ = false;
  std::chrono::steady_clock::time_point start_{};
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace dxt::cli

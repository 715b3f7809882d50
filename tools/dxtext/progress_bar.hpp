// A progress bar on standard error, drawn only when it is a terminal.
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
  }

  void update(uint64_t done, uint64_t total) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (drawn_ && done < total && now - last_ < std::chrono::milliseconds(100)) return;
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
      std::fprintf(stderr, "\r%s [%.*s%*s] %3.0f%% %.*f/%.*f%s", label_.c_str(), filled,
                   "==============================", width - filled, "", 100 * f, decimals, shown, decimals,
                   static_cast<double>(total) / divisor, suffix);
    }
    std::fflush(stderr);
  }

 private:
  std::string label_;
  Unit unit_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace dxt::cli

#include "progress.hpp"

#include <cstdio>

namespace ptsim::cosim {

progress_meter::progress_meter(bool enabled, double total_s)
    : enabled_(enabled), total_s_(total_s), start_(std::chrono::steady_clock::now()), last_(start_) {}

void progress_meter::update(double simulated_s) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::milliseconds(200)) return;
  last_ = now;
  const double wall = std::chrono::duration<double>(now - start_).count();
  const double frac = total_s_ > 0 ? simulated_s / total_s_ : 1;
  const int width = 30;
  const int filled = static_cast<int>(frac * width);
  const double eta = frac > 0 ? wall * (1 - frac) / frac : 0;
  std::fprintf(stderr, "\r[%.*s%*s] %3.0f%%  %.2f/%.2f s simulated  %.1f s wall  ETA %.1f s ", filled,
               "==============================", width - filled, "", frac * 100, simulated_s, total_s_, wall, eta);
  std::fflush(stderr);
  drawn_ = true;
}

void progress_meter::finish() {
  if (drawn_) std::fprintf(stderr, "\r%*s\r", 100, "");
}

}  // namespace ptsim::cosim

#pragma once
// Progress of a sweep on stderr: on a terminal, one bar redrawn in place with counts and
// an ETA (failures printed above it); otherwise one plain line per finished run.
#include <chrono>
#include <cstddef>
#include <string>

namespace ptsim::cosim::sweep {

class sweep_progress {
 public:
  /// `total`: runs this process will see finish; `tty`: draw the bar.
  sweep_progress(std::size_t total, bool tty);
  /// One run ended (here or on another rank).
  void finished(const std::string& id, bool ok, const std::string& error, double wall_s, int rank);
  /// Redraws the bar (at most a few times a second); `running` here and now.
  void tick(std::size_t running);
  /// Clears the bar.
  void close();
  /// The most the caller should wait before the next tick (ms), or -1 when there is no bar.
  int tick_ms() const { return tty_ ? 250 : -1; }
  std::size_t done() const { return ok_ + failed_; }

 private:
  void draw(std::size_t running);
  void clear_bar();
  std::size_t total_, ok_ = 0, failed_ = 0, running_ = 0;
  bool tty_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_draw_;
};

}  // namespace ptsim::cosim::sweep

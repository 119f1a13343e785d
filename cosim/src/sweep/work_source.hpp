#pragma once
// Where the runner gets run indices from: a local list, or (under MPI) rank 0's dispatcher.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace ptsim::cosim::sweep {

/// How one run ended.
struct run_result {
  std::size_t index = 0;
  bool ok = false;
  std::string error;  ///< one line; "" when ok
  double wall_s = 0;  ///< wall-clock time of the run's process (s)
};

class work_source {
 public:
  virtual ~work_source() = default;
  /// The next run to start, when one is available now. Never blocks.
  virtual std::optional<std::size_t> take() = 0;
  /// Nothing more will come from take().
  virtual bool exhausted() const = 0;
  /// Called on every turn of the runner's loop (MPI: answers requests, collects replies).
  /// Returns the longest the loop may sleep before calling it again (ms), or -1.
  virtual int service() { return -1; }
  /// A run ended here.
  virtual void finished(const run_result&) {}
  /// Hand out nothing more (the sweep is stopping).
  virtual void stop() = 0;
};

/// A fixed list of run indices, in order.
class local_queue : public work_source {
 public:
  explicit local_queue(std::vector<std::size_t> to_run) : to_run_(std::move(to_run)) {}
  std::optional<std::size_t> take() override {
    if (exhausted()) return std::nullopt;
    return to_run_[next_++];
  }
  bool exhausted() const override { return stopped_ || next_ >= to_run_.size(); }
  void stop() override { stopped_ = true; }

 private:
  std::vector<std::size_t> to_run_;
  std::size_t next_ = 0;
  bool stopped_ = false;
};

}  // namespace ptsim::cosim::sweep

#pragma once
// One background thread that runs jobs in the order they were posted: the result writer
// hands it full timeseries chunks, so that compressing and writing them (most of what
// recording costs) overlaps with the simulation instead of stalling it.
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace ptsim::postproc {

class background_jobs {
 public:
  /// At most `max_pending` jobs wait; post() blocks beyond that, which bounds the memory
  /// held when the simulation produces faster than the disk takes it. Without `threaded`,
  /// post() runs each job at once (for an HDF5 built without thread safety).
  explicit background_jobs(std::size_t max_pending, bool threaded = true);
  /// Discards what has not started, waits for the running job, and stops the thread.
  ~background_jobs();
  background_jobs(const background_jobs&) = delete;
  background_jobs& operator=(const background_jobs&) = delete;

  /// Queues a job. Rethrows (once) the exception of a job that failed earlier.
  void post(std::function<void()> job);
  /// Waits until every posted job has run. Rethrows the first failure.
  void drain();

 private:
  void loop();
  void rethrow_failure();

  std::size_t max_pending_;
  bool threaded_;
  std::mutex m_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;
  bool busy_ = false, stop_ = false;
  std::exception_ptr failure_;
  std::thread thread_;  // last: starts once the members above exist (if threaded_)
};

}  // namespace ptsim::postproc

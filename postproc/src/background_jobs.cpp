#include "background_jobs.hpp"

#include "h5_error.hpp"

namespace ptsim::postproc {

background_jobs::background_jobs(std::size_t max_pending, bool threaded)
    : max_pending_(max_pending), threaded_(threaded) {
  if (threaded_) thread_ = std::thread([this] { loop(); });
}

background_jobs::~background_jobs() {
  if (!threaded_) return;
  {
    std::lock_guard<std::mutex> lock(m_);
    stop_ = true;
    queue_.clear();
  }
  cv_.notify_all();
  thread_.join();
}

void background_jobs::post(std::function<void()> job) {
  if (!threaded_) return job();
  std::unique_lock<std::mutex> lock(m_);
  cv_.wait(lock, [&] { return queue_.size() < max_pending_ || failure_; });
  rethrow_failure();
  queue_.push_back(std::move(job));
  cv_.notify_all();
}

void background_jobs::drain() {
  std::unique_lock<std::mutex> lock(m_);
  cv_.wait(lock, [&] { return (queue_.empty() && !busy_) || failure_; });
  rethrow_failure();
}

void background_jobs::rethrow_failure() {
  if (!failure_) return;
  std::exception_ptr e = failure_;
  failure_ = nullptr;
  queue_.clear();
  std::rethrow_exception(e);
}

void background_jobs::loop() {
  // HDF5 (a thread-safe build) keeps its error-printing switch per thread: silence this one.
  h5::quiet_errors quiet;
  std::unique_lock<std::mutex> lock(m_);
  for (;;) {
    cv_.wait(lock, [&] { return stop_ || !queue_.empty(); });
    if (stop_) return;
    std::function<void()> job = std::move(queue_.front());
    queue_.pop_front();
    busy_ = true;
    lock.unlock();
    std::exception_ptr failed;
    try {
      job();
    } catch (...) {
      failed = std::current_exception();
    }
    lock.lock();
    busy_ = false;
    if (failed && !failure_) failure_ = failed;
    cv_.notify_all();
  }
}

}  // namespace ptsim::postproc

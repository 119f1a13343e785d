#include "ptsim/tlm_models/bandwidth_calendar.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace ptsim::tlm_models {

bandwidth_calendar::bandwidth_calendar(double bytes_per_s, double bucket_s)
    : bw_(bytes_per_s), bucket_s_(bucket_s), cap_(bytes_per_s * bucket_s) {
  if (!(bytes_per_s > 0) || !(bucket_s > 0)) throw std::invalid_argument("bandwidth and bucket width must be > 0");
}

std::size_t bandwidth_calendar::live_buckets() const {
  return runs_.size() == head_ ? 0 : static_cast<std::size_t>(end() - base_);
}

std::size_t bandwidth_calendar::find(std::int64_t k) const {
  // Last run whose first bucket is <= k (runs are contiguous and sorted).
  std::size_t lo = head_, hi = runs_.size();
  while (hi - lo > 1) {
    const std::size_t mid = (lo + hi) / 2;
    if (runs_[mid].first <= k) lo = mid;
    else hi = mid;
  }
  return lo;
}

std::size_t bandwidth_calendar::split_at(std::int64_t k) {
  if (k >= end()) return runs_.size();
  const std::size_t i = find(k);
  const run r = runs_[i];
  if (r.first == k) return i;
  runs_[i].count = k - r.first;
  runs_.insert(runs_.begin() + static_cast<std::ptrdiff_t>(i + 1), run{k, r.first + r.count - k, r.used});
  return i + 1;
}

void bandwidth_calendar::fill(std::int64_t k0, std::int64_t n, double used) {
  if (n <= 0) return;
  if (k0 >= end()) {
    // Past the booked span: extend it (with an empty gap first, when there is one).
    if (k0 > end()) runs_.push_back(run{end(), k0 - end(), 0.0});
    if (runs_.size() > head_ && runs_.back().used == used) runs_.back().count += n;
    else runs_.push_back(run{k0, n, used});
    return;
  }
  std::size_t m = find(k0);
  if (runs_[m].first == k0 && runs_[m].count == n && k0 + n <= end()) {
    runs_[m].used = used;  // exactly one run: refill it in place
  } else {
    const std::size_t i = split_at(k0);
    if (k0 + n < end()) split_at(k0 + n);
    // Runs i .. j-1 cover [k0, k0 + n) (or up to the end of the span); replace them.
    std::size_t j = i;
    std::int64_t covered = 0;
    while (j < runs_.size() && covered < n) covered += runs_[j++].count;
    runs_.erase(runs_.begin() + static_cast<std::ptrdiff_t>(i), runs_.begin() + static_cast<std::ptrdiff_t>(j));
    runs_.insert(runs_.begin() + static_cast<std::ptrdiff_t>(i), run{k0, n, used});
    m = i;
  }
  // Merge with equal neighbours so that the run count stays small.
  if (m + 1 < runs_.size() && runs_[m + 1].used == used) {
    runs_[m].count += runs_[m + 1].count;
    runs_.erase(runs_.begin() + static_cast<std::ptrdiff_t>(m + 1));
  }
  if (m > head_ && runs_[m - 1].used == used) {
    runs_[m - 1].count += runs_[m].count;
    runs_.erase(runs_.begin() + static_cast<std::ptrdiff_t>(m));
  }
}

double bandwidth_calendar::reserve(double start_s, double bytes) {
  if (bytes <= 0) return start_s;
  std::int64_t k = static_cast<std::int64_t>(std::floor(start_s / bucket_s_));
  double t = start_s;
  if (k < base_) {  // retired past: book from the oldest live bucket
    k = base_;
    t = static_cast<double>(k) * bucket_s_;
  }
  const double tiny = cap_ * 1e-12;
  double left = bytes;
  for (;;) {
    const bool beyond = k >= end();
    double u = 0;
    std::int64_t run_end = 0;
    if (!beyond) {
      const run& r = runs_[find(k)];
      u = r.used;
      run_end = r.first + r.count;
      if (u >= cap_ - tiny) {  // a full run: skip it whole
        k = run_end;
        t = static_cast<double>(k) * bucket_s_;
        continue;
      }
    }
    // Bucket k: capacity left after `t`, bounded by what is booked and by time.
    const double bucket_start = static_cast<double>(k) * bucket_s_;
    const double avail = std::min(cap_ - u, (bucket_start + bucket_s_ - t) * bw_);
    if (avail > 0) {
      if (left <= avail) {
        fill(k, 1, u + left);
        // Booked bytes are packed from the bucket start; we finish when ours are through.
        return std::max(t + left / bw_, bucket_start + (u + left) / bw_);
      }
      fill(k, 1, u + avail);
      left -= avail;
    }
    // The buckets after k with the same fill u (the rest of the run, or all of the empty
    // future) each take cap - u from their start: book them in closed form.
    const std::int64_t rest = beyond ? std::numeric_limits<std::int64_t>::max() : run_end - (k + 1);
    const double per = cap_ - u;
    const double whole = std::floor(left / per);
    if (rest > 0 && whole < static_cast<double>(rest)) {
      const auto n_full = static_cast<std::int64_t>(whole);
      const std::int64_t kf = k + 1 + n_full;  // the bucket where the transfer ends
      const double rem = left - whole * per;
      fill(k + 1, n_full, cap_);
      if (rem > tiny) {
        fill(kf, 1, u + rem);
        return static_cast<double>(kf) * bucket_s_ + (u + rem) / bw_;
      }
      return static_cast<double>(kf) * bucket_s_;  // the last full bucket ends there
    }
    if (rest > 0) {
      fill(k + 1, rest, cap_);
      left -= static_cast<double>(rest) * per;
    }
    k = beyond ? k + 1 : run_end;
    t = static_cast<double>(k) * bucket_s_;
    if (left <= tiny) return t;
  }
}

void bandwidth_calendar::retire_before(double now_s) {
  const std::int64_t k = static_cast<std::int64_t>(std::floor(now_s / bucket_s_));
  if (k <= base_) return;
  base_ = k;
  while (head_ < runs_.size() && runs_[head_].first + runs_[head_].count <= k) ++head_;
  if (head_ < runs_.size() && runs_[head_].first < k) {
    runs_[head_].count -= k - runs_[head_].first;
    runs_[head_].first = k;
  }
  // Drop the retired prefix now and then, not at every call.
  if (head_ == runs_.size()) {
    runs_.clear();
    head_ = 0;
  } else if (head_ >= 64 && 2 * head_ >= runs_.size()) {
    runs_.erase(runs_.begin(), runs_.begin() + static_cast<std::ptrdiff_t>(head_));
    head_ = 0;
  }
}

}  // namespace ptsim::tlm_models

#include "ptsim/tlm/bandwidth_calendar.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ptsim::tlm {

bandwidth_calendar::bandwidth_calendar(double bytes_per_s, double bucket_s)
    : bw_(bytes_per_s), bucket_s_(bucket_s), cap_(bytes_per_s * bucket_s) {
  if (!(bytes_per_s > 0) || !(bucket_s > 0)) throw std::invalid_argument("bandwidth and bucket width must be > 0");
}

double bandwidth_calendar::reserve(double start_s, double bytes) {
  if (bytes <= 0) return start_s;
  std::int64_t k = static_cast<std::int64_t>(std::floor(start_s / bucket_s_));
  double t = start_s;
  if (k < base_) {  // retired past: book from the oldest live bucket
    k = base_;
    t = static_cast<double>(k) * bucket_s_;
  }
  double left = bytes;
  for (;;) {
    while (static_cast<std::int64_t>(used_.size()) <= k - base_) used_.push_back(0.0);
    double& used = used_[static_cast<std::size_t>(k - base_)];
    const double bucket_start = static_cast<double>(k) * bucket_s_;
    const double bucket_end = bucket_start + bucket_s_;
    // Capacity left in this bucket after `t`: bounded by what others booked and by time.
    const double by_time = (bucket_end - t) * bw_;
    const double avail = std::min(cap_ - used, by_time);
    if (avail > 0) {
      const double take = std::min(avail, left);
      used += take;
      left -= take;
      if (left <= 0) {
        // Booked bytes are packed from the bucket start; we finish when ours are through.
        return std::max(t + take / bw_, bucket_start + used / bw_);
      }
    }
    ++k;
    t = static_cast<double>(k) * bucket_s_;
  }
}

void bandwidth_calendar::retire_before(double now_s) {
  const std::int64_t k = static_cast<std::int64_t>(std::floor(now_s / bucket_s_));
  while (base_ < k && !used_.empty()) {
    used_.pop_front();
    ++base_;
  }
  if (used_.empty() && base_ < k) base_ = k;
}

}  // namespace ptsim::tlm

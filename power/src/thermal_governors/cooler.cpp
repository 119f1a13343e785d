#include "ptsim/power/cooler.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "check.hpp"

namespace ptsim::power {

cooler::cooler(std::string name, opp_table states) : name_(std::move(name)), states_(std::move(states)) {
  if (states_.size() == 0) throw std::invalid_argument("cooling device '" + name_ + "': no cooling states");
}

// A new claim starts at the top (no cooling); the device goes there if nothing else holds it lower.
std::size_t cooler::bind() {
  claims_hz_.push_back(states_.max_hz());
  apply(*std::min_element(claims_hz_.begin(), claims_hz_.end()));
  return claims_hz_.size() - 1;
}

void cooler::request(std::size_t slot, double ceiling_hz) {
  claims_hz_.at(slot) = ceiling_hz;
  apply(*std::min_element(claims_hz_.begin(), claims_hz_.end()));
}

dvfs_cooler::dvfs_cooler(std::string domain, const opp_table& opps, hooks h)
    : cooler(std::move(domain), opps), hooks_(std::move(h)) {
  if (!hooks_.power_at_opps || !hooks_.request_hz || !hooks_.set_ceiling)
    throw std::invalid_argument("dvfs_cooler '" + name() + "': every hook is needed");
}

// IPA's view of the domain: power at each OPP under the current load, and at the request
// (raised to the lowest OPP when the governor asks for less).
void dvfs_cooler::estimate(cooling_device& view) const {
  hooks_.power_at_opps(view.power_at_opp_W);
  view.max_power_W = view.power_at_opp_W.back();
  view.min_power_W = view.power_at_opp_W.front();
  const opp_table& opps = states();
  view.requested_power_W = view.power_at_opp_W[opps.index_at_most(std::max(hooks_.request_hz(), opps.min_hz()))];
}

namespace {
opp_table fan_levels(int levels) {
  if (levels < 2) detail::bad_param("fan levels", "at least 2", levels);
  std::vector<opp> v;
  for (int i = 0; i < levels; ++i) v.push_back({units::hertz(i + 1.0), units::volts(1.0)});
  return opp_table(v);
}
}  // namespace

fan_cooler::fan_cooler(double min_speed, double max_speed, int levels, std::function<void(double)> set_speed)
    : cooler(fans_cooling_name, fan_levels(levels)),
      min_speed_(detail::require_positive("fan min_speed", min_speed)),
      max_speed_(max_speed),
      set_speed_(std::move(set_speed)) {
  if (!(max_speed_ >= min_speed_)) detail::bad_param("fan max_speed", "a speed >= min_speed", max_speed_);
}

double fan_cooler::speed_of_state(std::size_t state) const {
  const std::size_t top = states().size() - 1;
  return min_speed_ + (max_speed_ - min_speed_) * static_cast<double>(std::min(state, top)) / static_cast<double>(top);
}

// State k (k levels above the slowest) is the ceiling k "OPPs" below the top.
void fan_cooler::apply(double ceiling_hz) {
  const std::size_t top = states().size() - 1;
  set_speed_(speed_of_state(top - states().index_at_most(ceiling_hz)));
}

}  // namespace ptsim::power

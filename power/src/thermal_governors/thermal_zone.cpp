#include "ptsim/power/thermal_zone.hpp"

#include <stdexcept>
#include <utility>

namespace ptsim::power {

thermal_zone::thermal_zone(std::string name, std::unique_ptr<thermal_governor> gov, const thermal_zone_config& cfg, std::vector<cooler*> devices)
    : name_(std::move(name)), gov_(std::move(gov)), cfg_(cfg), devices_(std::move(devices)) {
  if (!gov_) throw std::invalid_argument("thermal zone '" + name_ + "': no governor");
  if (devices_.empty()) throw std::invalid_argument("thermal zone '" + name_ + "': no cooling device");
  for (cooler* d : devices_) {
    if (gov_->needs_power_estimates() && !d->estimates_power())
      throw std::invalid_argument("thermal zone '" + name_ + "': its governor splits a power budget, and '" +
                                  d->name() + "' states no power per cooling state");
    cooling_device v;
    v.opps = &d->states();
    v.ceiling_hz = d->states().max_hz();
    views_.push_back(v);
    slots_.push_back(d->bind());
  }
  gov_->start(cfg_, views_);
}

bool thermal_zone::poll(double now_s, double temperature_K) {
  if (now_s + 1e-12 < next_poll_s_) return false;
  for (std::size_t k = 0; k < devices_.size(); ++k) devices_[k]->estimate(views_[k]);
  gov_->update(now_s, temperature_K, views_);
  for (std::size_t k = 0; k < devices_.size(); ++k) devices_[k]->request(slots_[k], views_[k].ceiling_hz);
  next_poll_s_ = now_s + cfg_.polling_period_s;
  return true;
}

}  // namespace ptsim::power

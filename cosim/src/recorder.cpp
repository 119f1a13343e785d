#include "recorder.hpp"

#include <algorithm>

#include "ptsim/units/quantities.hpp"

namespace ptsim::cosim {

postproc::timeseries_layout timeseries_layout_for(const control_loop& loop) {
  postproc::timeseries_layout l;
  l.coords["block"] = loop.block_names();
  l.coords["component"] = loop.component_names();
  l.coords["domain"] = loop.domain_names();
  l.variables = {
      {"temperature", "block", "degC", "silicon temperature of the block at the sample time"},
      {"power", "component", "W", "component power, mean over the record period"},
      {"frequency", "domain", "Hz", "domain clock frequency, mean over the record period"},
      {"voltage", "domain", "V", "domain supply voltage, mean over the record period"},
      {"utilization", "domain", "1", "busy share of the domain's busiest unit, mean over the record period"},
      {"throttled", "domain", "1", "share of the record period with the domain below its governor's request"},
  };
  return l;
}

recorder::recorder(postproc::result_writer& w, const control_loop& loop, int ticks_per_record)
    : w_(w), loop_(loop), ticks_per_record_(ticks_per_record) {
  power_.assign(loop.component_names().size(), 0.0);
  hz_.assign(loop.domain_names().size(), 0.0);
  volts_.assign(hz_.size(), 0.0);
  util_.assign(hz_.size(), 0.0);
  throttled_.assign(hz_.size(), 0.0);
  temp_c_.assign(loop.block_names().size(), 0.0);
}

void recorder::after_tick(double now_s) {
  const auto& p = loop_.component_power_W();
  for (std::size_t i = 0; i < p.size(); ++i) power_[i] += p[i];
  for (std::size_t d = 0; d < hz_.size(); ++d) {
    hz_[d] += loop_.domain_avg_hz()[d];
    volts_[d] += loop_.domain_avg_volts()[d];
    util_[d] += loop_.domain_utilization()[d];
    throttled_[d] += loop_.domain_throttled()[d] ? 1.0 : 0.0;
  }
  if (++ticks_ < ticks_per_record_) return;
  const double n = ticks_;
  for (auto* v : {&power_, &hz_, &volts_, &util_, &throttled_})
    for (double& x : *v) x /= n;
  const auto& T = loop_.block_temperature_K();
  for (std::size_t b = 0; b < T.size(); ++b) temp_c_[b] = T[b] - units::zero_celsius_in_kelvin;
  w_.append_sample(now_s, {temp_c_.data(), power_.data(), hz_.data(), volts_.data(), util_.data(), throttled_.data()});
  for (auto* v : {&power_, &hz_, &volts_, &util_, &throttled_}) std::fill(v->begin(), v->end(), 0.0);
  ticks_ = 0;
}

}  // namespace ptsim::cosim

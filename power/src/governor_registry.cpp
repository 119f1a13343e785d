#include <sstream>

#include "governors/common.hpp"
#include "ptsim/power/governor.hpp"
#include "ptsim/power/thermal_governor.hpp"
#include "ptsim/text/nearest_name.hpp"
#include "thermal_governors/common.hpp"

namespace ptsim::power {

std::string detail::valid_list(const std::string& given, const std::vector<std::string>& names) {
  std::ostringstream os;
  if (names.empty()) {
    os << "it takes none";
  } else {
    os << "valid: ";
    for (std::size_t i = 0; i < names.size(); ++i) os << (i ? ", " : "") << names[i];
    const std::string near = text::nearest_name(given, names);
    if (!near.empty()) os << " (did you mean '" << near << "'?)";
  }
  return os.str();
}

governor_registry& governor_registry::instance() {
  static governor_registry registry;
  return registry;
}

governor_registry::governor_registry() : registry("cpufreq governor") {
  register_conservative(*this);
  register_gpu_boost(*this);
  register_ondemand(*this);
  register_performance(*this);
  register_powersave(*this);
  register_schedutil(*this);
  register_simple_ondemand(*this);
  register_userspace(*this);
}

thermal_governor_registry& thermal_governor_registry::instance() {
  static thermal_governor_registry registry;
  return registry;
}

thermal_governor_registry::thermal_governor_registry() : registry("thermal governor") {
  register_power_allocator(*this);
  register_step_wise(*this);
}

}  // namespace ptsim::power

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "governors/common.hpp"
#include "ptsim/power/governor.hpp"
#include "ptsim/text/nearest_name.hpp"

namespace ptsim::power {

namespace {

/// "valid: a, b, c" plus a suggestion when one name is close to what was given.
std::string valid_list(const std::string& given, const std::vector<std::string>& names) {
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

}  // namespace

governor_registry& governor_registry::instance() {
  static governor_registry registry;
  return registry;
}

governor_registry::governor_registry() {
  register_conservative(*this);
  register_ondemand(*this);
  register_performance(*this);
  register_powersave(*this);
  register_schedutil(*this);
  register_userspace(*this);
}

void governor_registry::register_governor(governor_info info, factory make) {
  if (info.name.empty()) throw std::invalid_argument("register_governor: empty governor name");
  if (!make) throw std::invalid_argument("register_governor: '" + info.name + "' has no factory");
  // Replacing a governor silently would make a scenario's meaning depend on link order.
  if (entries_.count(info.name))
    throw std::invalid_argument("register_governor: a governor named '" + info.name +
                                "' is already registered");
  std::string name = info.name;
  entries_.emplace(std::move(name), std::make_pair(std::move(info), std::move(make)));
}

bool governor_registry::contains(const std::string& name) const { return entries_.count(name) != 0; }

const governor_info& governor_registry::info(const std::string& name) const {
  const auto it = entries_.find(name);
  if (it == entries_.end()) {
    std::vector<std::string> names;
    for (const auto& e : entries_) names.push_back(e.first);
    throw std::invalid_argument("unknown cpufreq governor '" + name + "'; " +
                                valid_list(name, names));
  }
  return it->second.first;
}

std::unique_ptr<cpufreq_governor> governor_registry::create(const std::string& name,
                                                            const tunables& t) const {
  const governor_info& gi = info(name);
  std::vector<std::string> valid;
  for (const auto& ti : gi.tunables) valid.push_back(ti.name);
  for (const auto& kv : t) {
    if (std::find(valid.begin(), valid.end(), kv.first) == valid.end())
      throw std::invalid_argument("unknown tunable '" + kv.first + "' for cpufreq governor '" +
                                  name + "'; " + valid_list(kv.first, valid));
  }
  try {
    return entries_.at(name).second(t);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("cpufreq governor '" + name + "': " + e.what());
  }
}

std::vector<governor_info> governor_registry::list() const {
  std::vector<governor_info> out;
  for (const auto& e : entries_) out.push_back(e.second.first);  // std::map: sorted by name
  return out;
}

}  // namespace ptsim::power

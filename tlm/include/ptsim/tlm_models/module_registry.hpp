#pragma once
// The sc_module of each platform component, made by its kind. A component kind
// (scenarios/src/kinds/) runs on its role's module (compute: compute_unit, interconnect:
// interconnect, target: memory) unless it needs a module of its own: then a file under
// tlm/src/kinds/ defines `module_factory <kind>_module()` (usually unit_module<its class>())
// and one line in module_registry.cpp lists the kind. Its class derives from its role's
// module, so that sockets, routes and activity ledgers work for it as for any other.
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "ptsim/tlm_models/compute_unit.hpp"
#include "ptsim/tlm_models/domain_clock.hpp"
#include "ptsim/tlm_models/interconnect.hpp"
#include "ptsim/tlm_models/memory.hpp"
#include "ptsim/tlm_config/platform_config.hpp"

namespace ptsim::tlm_models {

/// How to make one kind's module: the member of its role is set.
struct module_factory {
  component_role role = component_role::compute;
  std::function<std::unique_ptr<compute_unit>(const compute_unit_config&, domain_clock&, double control_period_s)> unit;
  std::function<std::unique_ptr<interconnect>(const interconnect_config&, double control_period_s)> link;
  std::function<std::unique_ptr<memory>(const memory_config&, double control_period_s)> target;
};

/// A factory for a compute kind whose module is `Unit` (a compute_unit with the same constructor).
template <class Unit>
module_factory unit_module() {
  module_factory f;
  f.role = component_role::compute;
  f.unit = [](const compute_unit_config& c, domain_clock& clock, double period_s) {
    return std::make_unique<Unit>(c.name.c_str(), c, clock, period_s);
  };
  return f;
}

/// A factory for an interconnect kind whose module is `Link`.
template <class Link>
module_factory interconnect_module() {
  module_factory f;
  f.role = component_role::interconnect;
  f.link = [](const interconnect_config& c, double period_s) { return std::make_unique<Link>(c.name.c_str(), c, period_s); };
  return f;
}

/// A factory for a target kind (memory, storage, NIC) whose module is `Target`.
template <class Target>
module_factory target_module() {
  module_factory f;
  f.role = component_role::target;
  f.target = [](const memory_config& c, double period_s) { return std::make_unique<Target>(c.name.c_str(), c, period_s); };
  return f;
}

/// Kinds with modules of their own (module_registry.cpp's list, and any added with add()).
class module_registry {
 public:
  static module_registry& instance();
  /// Registers (or replaces) the module of `kind`; its factory must set its role's member.
  void add(const std::string& kind, module_factory f);
  /// The kind's own module, or its role's. Throws std::logic_error when the kind's own
  /// factory is for another role than the config's.
  std::unique_ptr<compute_unit> make_unit(const compute_unit_config& c, domain_clock& clock, double period_s) const;
  std::unique_ptr<interconnect> make_interconnect(const interconnect_config& c, double period_s) const;
  std::unique_ptr<memory> make_target(const memory_config& c, double period_s) const;

 private:
  module_registry();
  const module_factory* own(const std::string& kind, component_role role) const;
  std::map<std::string, module_factory> own_;
};

}  // namespace ptsim::tlm_models

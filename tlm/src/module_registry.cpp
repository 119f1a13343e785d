#include "ptsim/tlm_models/module_registry.hpp"

#include <stdexcept>

namespace ptsim::tlm_models {

// Kinds with an sc_module of their own, one line each: X(<kind>) \, where
// tlm/src/kinds/<kind>.cpp defines `module_factory <kind>_module()`. Every built-in kind
// runs on its role's module, so the list is empty. An explicit list, not static
// initialisers, which a linker may drop from a static library.
#define PTSIM_OWN_MODULES(X) \
  /* a kind with its own module: one line X(<kind>) \ above this one */

#define PTSIM_DECLARE_MODULE(kind) module_factory kind##_module();
PTSIM_OWN_MODULES(PTSIM_DECLARE_MODULE)
#undef PTSIM_DECLARE_MODULE

module_registry::module_registry() {
#define PTSIM_ADD_MODULE(kind) add(#kind, kind##_module());
  PTSIM_OWN_MODULES(PTSIM_ADD_MODULE)
#undef PTSIM_ADD_MODULE
}

module_registry& module_registry::instance() {
  static module_registry r;
  return r;
}

void module_registry::add(const std::string& kind, module_factory f) {
  const bool made = (f.role == component_role::compute && f.unit) ||
                    (f.role == component_role::interconnect && f.link) ||
                    (f.role == component_role::target && f.target);
  if (!made) throw std::invalid_argument("module of kind '" + kind + "': no factory for its role");
  own_[kind] = std::move(f);
}

const module_factory* module_registry::own(const std::string& kind, component_role role) const {
  const auto it = own_.find(kind);
  if (it == own_.end()) return nullptr;
  if (it->second.role != role)
    throw std::logic_error("kind '" + kind + "' has a module of another role than its configuration's");
  return &it->second;
}

std::unique_ptr<compute_unit> module_registry::make_unit(const compute_unit_config& c, domain_clock& clock,
                                                         double period_s) const {
  if (const module_factory* f = own(c.kind, component_role::compute)) return f->unit(c, clock, period_s);
  return std::make_unique<compute_unit>(c.name.c_str(), c, clock, period_s);
}

std::unique_ptr<interconnect> module_registry::make_interconnect(const interconnect_config& c, double period_s) const {
  if (const module_factory* f = own(c.kind, component_role::interconnect)) return f->link(c, period_s);
  return std::make_unique<interconnect>(c.name.c_str(), c, period_s);
}

std::unique_ptr<memory> module_registry::make_target(const memory_config& c, double period_s) const {
  if (const module_factory* f = own(c.kind, component_role::target)) return f->target(c, period_s);
  return std::make_unique<memory>(c.name.c_str(), c, period_s);
}

}  // namespace ptsim::tlm_models

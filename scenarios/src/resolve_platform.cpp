// Scenario reader: platform.supply, platform.domains and platform.components.
#include "resolve_sections.hpp"
#include "kinds/component_kind.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <filesystem>
#include <limits>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "ptsim/power/compute_power.hpp"
#include "ptsim/power/dt_opp.hpp"
#include "ptsim/power/energy_model.hpp"
#include "ptsim/thermal/floorplan_builder.hpp"
#include "ptsim/thermal/plant.hpp"
#include "ptsim/tlm_config/model_zoo.hpp"
#include "ptsim/tlm_config/operators.hpp"
#include "ptsim/tlm_config/topology.hpp"
#include "ptsim/tlm_config/training.hpp"

namespace ptsim::scenarios::detail {

// VR and PSU stages: rated power and an efficiency curve (defaults in supply_power.hpp).
void resolve_supply(const view& platform, scenario& sc) {
  sc.base_power_W = platform.si("base_power");
  // The base power is the result's row "base": a component may not take the name.
  if (sc.base_power_W > 0)
    for (const auto& [name, c] : platform.at("components").entries())
      if (name == "base")
        c.fail("a component named 'base' beside platform.base_power: the result's 'base' row is the base power "
               "(rename the component)");
  if (!platform.has("supply")) return;
  const view sv = platform.at("supply");
  auto stage = [&](const char* key, double& rated, power::efficiency_curve& curve, power::efficiency_curve def) {
    if (!sv.has(key)) return;
    const view st = sv.at(key);
    rated = st.si("rated");
    curve = std::move(def);
    if (!st.has("efficiency")) return;
    std::vector<std::pair<double, double>> pts;
    bool ok = true;
    for (const auto& p : st.at("efficiency").items()) {
      pts.emplace_back(p.num("load"), p.num("efficiency"));
      if (!(pts.back().second > 0)) p.fail("an efficiency must be above 0", "efficiency"), ok = false;
      else if (pts.size() > 1 && !(pts.back().first > pts[pts.size() - 2].first))
        p.fail("load fractions must increase along the curve", "load"), ok = false;
    }
    if (pts.empty()) st.fail("an efficiency curve needs at least one point", "efficiency"), ok = false;
    if (ok) curve = power::efficiency_curve(pts);
  };
  stage("vr", sc.supply.vr_rated_W, sc.supply.vr, power::vr_typical());
  stage("psu", sc.supply.psu_rated_W, sc.supply.psu, power::psu_80plus_titanium());
}

// A domain's vf_curve: (Hz, V) knots with increasing clocks; empty when it has none or it is bad
// (reported).
std::vector<std::pair<double, double>> vf_curve_of(const view& d, bool& bad) {
  std::vector<std::pair<double, double>> knots;
  if (!d.has("vf_curve")) return knots;
  for (const auto& k : d.at("vf_curve").items()) {
    knots.emplace_back(k.si("freq"), k.si("volt"));
    if (knots.size() > 1 && !(knots.back().first > knots[knots.size() - 2].first)) {
      k.fail("the curve's clocks must increase from point to point", "freq");
      bad = true;
    }
  }
  if (knots.empty()) {
    d.fail("a vf_curve needs at least one point", "vf_curve");
    bad = true;
  }
  return bad ? std::vector<std::pair<double, double>>{} : knots;
}

// The curve's voltage at clock f: linear between knots, flat beyond the ends.
double vf_volt(const std::vector<std::pair<double, double>>& knots, double f) {
  if (f <= knots.front().first) return knots.front().second;
  for (std::size_t i = 1; i < knots.size(); ++i)
    if (f <= knots[i].first) {
      const auto& [f0, v0] = knots[i - 1];
      const auto& [f1, v1] = knots[i];
      return v0 + (v1 - v0) * (f - f0) / (f1 - f0);
    }
  return knots.back().second;
}

void resolve_domains(const view& platform, scenario& sc) {
  for (const auto& [name, d] : platform.at("domains").entries()) {
    std::vector<power::opp> points;
    bool bad_point = false;
    const auto curve = vf_curve_of(d, bad_point);
    for (const auto& o : d.at("opps").items()) {
      // One form per point: ptsim's quantities, or the device tree's integers (Hz, uV).
      const bool plain = o.has("freq") || o.has("volt"), dt = o.has("opp-hz") || o.has("opp-microvolt");
      if (plain && dt) {
        o.fail("give freq and volt, or opp-hz and opp-microvolt, not both forms", o.has("opp-hz") ? "opp-hz" : "opp-microvolt");
        bad_point = true;
      } else if (dt) {
        if (!o.has("opp-hz") || !o.has("opp-microvolt")) {
          o.fail(std::string("missing required key '") + (o.has("opp-hz") ? "opp-microvolt" : "opp-hz") +
                 "' (the device-tree form needs opp-hz and opp-microvolt)");
          bad_point = true;
          continue;
        }
        // opp-microvolt is the target, or <target min max>: the target is what runs.
        const view uv = o.at("opp-microvolt");
        long long target = 0;
        if (uv.is_scalar()) {
          target = o.integer("opp-microvolt");
        } else {
          const auto vals = uv.items();
          if (vals.size() != 1 && vals.size() != 3) {
            uv.fail("expected <target> or <target min max> (1 or 3 values), found " + std::to_string(vals.size()));
            bad_point = true;
            continue;
          }
          // Validated integers, possibly written as 1e6 or 800000.0: read them as numbers.
          const auto micro = [](const view& v) { return static_cast<long long>(std::strtod(v.scalar().c_str(), nullptr)); };
          target = micro(vals[0]);
          if (vals.size() == 3 && !(micro(vals[1]) <= target && target <= micro(vals[2]))) {
            uv.fail("the target voltage must lie within [min, max]");
            bad_point = true;
            continue;
          }
        }
        const power::opp_table one = power::opp_table_from_dt(
            {{static_cast<std::uint64_t>(o.integer("opp-hz")), static_cast<std::uint64_t>(target)}});
        points.push_back({units::hertz(one.frequency_hz(0)), units::volts(one.voltage_v(0))});
      } else if (o.has("freq") && !o.has("volt") && !curve.empty()) {
        points.push_back({units::hertz(o.si("freq")), units::volts(vf_volt(curve, o.si("freq")))});
      } else if (!o.has("freq") || !o.has("volt")) {
        if (!(o.has("freq") && d.has("vf_curve")))  // a bad curve was reported already
          o.fail(std::string("missing required key '") + (o.has("freq") ? "volt" : "freq") +
                 "' (an operating point needs freq and volt, freq alone with the domain's vf_curve, or "
                 "opp-hz and opp-microvolt)");
        bad_point = true;
      } else {
        points.push_back({units::hertz(o.si("freq")), units::volts(o.si("volt"))});
      }
    }
    if (bad_point) continue;
    power::dvfs_domain_config dc;
    dc.name = name;
    try {
      dc.opps = power::opp_table(points);
    } catch (const std::invalid_argument& e) {
      d.fail(std::string("bad operating points: ") + e.what(), "opps");
      continue;
    }
    dc.transition_latency = units::seconds(d.si("transition_latency"));
    if (d.has("min_power_limit")) dc.min_power_limit_W = d.si("min_power_limit");
    if (d.has("max_power_limit")) dc.max_power_limit_W = d.si("max_power_limit");
    if (dc.min_power_limit_W && dc.max_power_limit_W && *dc.min_power_limit_W > *dc.max_power_limit_W)
      d.fail("min_power_limit is above max_power_limit", "min_power_limit");
    sc.domains.push_back(std::move(dc));
  }
}

namespace {
// Memory DVFS: a memory on a domain's clock, whose top OPP is where its bandwidth and
// background power are given; its throttle clock must lie within the table.
bool place_in_memory_domain(const view& c, tlm_config::memory_config& m, component_power& cp, scenario& sc,
                            component_ref& ref) {
  for (std::size_t d = 0; d < sc.domains.size(); ++d) {
    if (sc.domains[d].name != m.domain) continue;
    auto& dom = sc.domains[d];
    dom.memory = true;
    ref.domain = d;
    m.clock_max_hz = dom.opps.max_hz();
    cp.memory.max_hz = dom.opps.max_hz();
    cp.memory.max_volts = dom.opps.voltage_v(dom.opps.size() - 1);
    for (const auto& t : sc.policy.memory_throttles)
      if (t.component == m.name && t.ceiling_hz < dom.opps.min_hz())
        c.fail("throttle_freq is below the lowest OPP of domain '" + dom.name + "' (" +
                   fmt_g(dom.opps.min_hz() / 1e6) + " MHz)",
               "throttle_freq");
    return true;
  }
  return false;
}
}  // namespace

// Each component by its kind's descriptor (kinds/), then its place in the resolved
// scenario: its role's list, its power row, its DVFS domain.
void resolve_components(const view& platform, scenario& sc) {
  const view domains_view = platform.at("domains");
  std::vector<const view*> unknown_domain;
  const auto entries = platform.at("components").entries();
  std::vector<const view*> views;  // like sc.components
  for (const auto& [name, c] : entries) {
    const component_kind* kind = find_component_kind(c.str("kind"));
    if (!kind) continue;  // the schema reported it
    kind->resolve(name, c, domains_view, sc);
    component_ref ref;
    ref.name = name;
    ref.kind = kind->name;
    ref.role = kind->role;
    ref.power = sc.power.size() - 1;
    switch (kind->role) {
      case tlm_config::component_role::compute: ref.index = sc.platform.units.size() - 1; break;
      case tlm_config::component_role::interconnect: ref.index = sc.platform.interconnects.size() - 1; break;
      case tlm_config::component_role::target: ref.index = sc.platform.memories.size() - 1; break;
    }
    if (kind->role == tlm_config::component_role::compute) {
      const std::string& domain = sc.platform.units[ref.index].domain;
      for (std::size_t d = 0; d < sc.domains.size(); ++d)
        if (sc.domains[d].name == domain) ref.domain = d;
      if (ref.domain == component_ref::none) unknown_domain.push_back(&c);
      else if (kind->devfreq) sc.domains[ref.domain].devfreq = true;
    }
    if (kind->role == tlm_config::component_role::target && !sc.platform.memories[ref.index].domain.empty())
      if (!place_in_memory_domain(c, sc.platform.memories[ref.index], sc.power[ref.power], sc, ref))
        unknown_domain.push_back(&c);
    sc.components.push_back(ref);
    views.push_back(&c);
  }
  // A domain clocks compute units or memories, not both: its OPPs are one or the other's.
  for (std::size_t d = 0; d < sc.domains.size(); ++d) {
    if (!sc.domains[d].memory) continue;
    for (std::size_t i = 0; i < sc.components.size(); ++i)
      if (sc.components[i].domain == d && sc.components[i].role != tlm_config::component_role::target) {
        views[i]->fail("DVFS domain '" + sc.domains[d].name + "' clocks memories (memory DVFS); a " +
                                   sc.components[i].kind + " needs a domain of its own",
                               "domain");
        break;
      }
  }
  std::set<std::string> domains;
  for (const auto& d : sc.domains) domains.insert(d.name);
  std::string names;
  for (const auto& d : domains) names += (names.empty() ? "" : ", ") + d;
  for (const view* c : unknown_domain)
    c->fail("unknown DVFS domain '" + c->str("domain") + "' (domains: " + (names.empty() ? "none" : names) + ")",
            "domain");
}

// --- workload ----------------------------------------------------------------------

}  // namespace ptsim::scenarios::detail

// Scenario reader: policy.limits (per-domain frequency range and board power limit) and the
// domain-name patterns that policy.limits and policy.governors accept.
#include <fnmatch.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "resolve_sections.hpp"

namespace ptsim::scenarios::detail {

namespace {

bool is_pattern(const std::string& key) { return key.find_first_of("*?[") != std::string::npos; }

std::string domain_list(const scenario& sc) {
  std::string names;
  for (const auto& d : sc.domains) names += (names.empty() ? "" : ", ") + d.name;
  return names.empty() ? "none" : names;
}

std::string mhz(double hz) { return fmt_g(hz / 1e6) + " MHz"; }

// A pattern's entry is read once per domain it matches: its problems (and warnings) are
// reported at their first domain only, not once per GPU.
struct once {
  std::set<std::string> seen;
  bool first(const view& v, const std::string& key) { return seen.insert(v.path() + "\n" + key).second; }
  void fail(const view& v, const std::string& msg, const std::string& key) {
    if (first(v, key)) v.fail(msg, key);
  }
};
std::string watts(double w) { return fmt_g(w) + " W"; }

// The board by default: the domain's compute units, then every component they name as their
// first hop (connect, fabric, io) that no unit of another domain names (a GPU's own memory and
// links; not a NoC or switch shared with other domains), in the platform's order.
std::vector<std::string> default_board(const scenario& sc, std::size_t d) {
  std::set<std::string> own, others;
  for (const auto& ref : sc.components) {
    if (ref.role != tlm_config::component_role::compute) continue;
    const auto& u = sc.platform.units[ref.index];
    std::set<std::string>& into = ref.domain == d ? own : others;
    if (!u.connect.empty()) into.insert(u.connect);
    if (!u.fabric.empty()) into.insert(u.fabric);
    for (const auto& io : u.io) into.insert(io);
  }
  std::vector<std::string> board;
  for (const auto& ref : sc.components)
    if (ref.domain == d || (own.count(ref.name) && !others.count(ref.name))) board.push_back(ref.name);
  return board;
}

// The view among `views` that sets `key` for `domain`: the domain's own entry (last) wins;
// two patterns setting it are ambiguous and reported.
const view* pick(const std::vector<view>& views, const std::vector<bool>& own, const std::string& key,
                 const std::string& domain, once& report) {
  for (std::size_t i = 0; i < views.size(); ++i)
    if (own[i] && views[i].has(key)) return &views[i];
  const view* found = nullptr;
  for (std::size_t i = 0; i < views.size(); ++i) {
    if (own[i] || !views[i].has(key)) continue;
    if (found) {
      report.fail(views[i],
                  "'" + found->path() + "' and '" + views[i].path() + "' both set " + key + " of domain '" + domain +
                      "': give '" + domain + "' its own entry",
                  key);
      return nullptr;
    }
    found = &views[i];
  }
  return found;
}

// min_freq / max_freq: within the table, rounded onto it as the driver does (a maximum
// down, a minimum up), with a warning that the run also records.
void resolve_clock(const view& v, const char* key, bool is_max, const power::dvfs_domain_config& dc,
                   power::domain_limits& lim, double& out, once& report) {
  const auto& opps = dc.opps;
  const double f = v.si(key), lo = opps.min_hz(), hi = opps.max_hz();
  const double tol = 1e-6 * hi;
  if (f < lo - tol || f > hi + tol) {
    report.fail(v,
                std::string(key) + ": expected a clock within domain '" + dc.name + "' operating points " + mhz(lo) +
                    " .. " + mhz(hi) + ", found " + mhz(f),
                key);
    return;
  }
  const std::size_t i = is_max ? opps.index_at_most(f + tol) : opps.index_at_least(f - tol);
  out = opps.frequency_hz(i);
  if (std::fabs(out - f) <= tol) return;
  const std::size_t other = is_max ? std::min(i + 1, opps.size() - 1) : (i > 0 ? i - 1 : 0);
  const std::string note = std::string(key) + " " + mhz(f) + " of domain '" + dc.name + "' lies between its OPPs " +
                           mhz(opps.frequency_hz(std::min(i, other))) + " and " +
                           mhz(opps.frequency_hz(std::max(i, other))) + ": rounded " + (is_max ? "down" : "up") +
                           " to " + mhz(out) + ", as the driver does";
  v.warn(note, key);  // once per domain: each domain's clock is rounded on its own table
  lim.notes.push_back(note);
}

void resolve_board(const view* v, const scenario& sc, std::size_t d, power::domain_limits& lim, once& report) {
  if (!v) {
    lim.components = default_board(sc, d);
    return;
  }
  std::set<std::string> names;
  for (const auto& ref : sc.components) names.insert(ref.name);
  for (const auto& c : v->at("components").items()) {
    const std::string n = c.scalar();
    if (!names.count(n)) report.fail(c, "unknown component '" + n + "'", "");
    else if (std::find(lim.components.begin(), lim.components.end(), n) != lim.components.end())
      report.fail(c, "'" + n + "' is listed twice", "");
    else lim.components.push_back(n);
  }
  for (const auto& ref : sc.components)
    if (ref.domain == d && std::find(lim.components.begin(), lim.components.end(), ref.name) == lim.components.end())
      report.fail(*v,
                  "the board of domain '" + sc.domains[d].name + "' must include its own compute unit '" + ref.name +
                      "' (the limiter acts on its clock)",
                  "components");
}

power::domain_limits resolve_one(const std::vector<view>& views, const std::vector<bool>& own, const scenario& sc,
                                 std::size_t d, once& report) {
  const power::dvfs_domain_config& dc = sc.domains[d];
  power::domain_limits lim;
  lim.min_hz = dc.opps.min_hz();
  lim.max_hz = dc.opps.max_hz();
  const view* vmin = pick(views, own, "min_freq", dc.name, report);
  const view* vmax = pick(views, own, "max_freq", dc.name, report);
  if (vmin) resolve_clock(*vmin, "min_freq", false, dc, lim, lim.min_hz, report);
  if (vmax) resolve_clock(*vmax, "max_freq", true, dc, lim, lim.max_hz, report);
  if (lim.min_hz > lim.max_hz)
    report.fail(vmin ? *vmin : *vmax,
                "min_freq (" + mhz(lim.min_hz) + ") is above max_freq (" + mhz(lim.max_hz) + ") for domain '" +
                    dc.name + "'",
                vmin ? "min_freq" : "max_freq");
  if (const view* v = pick(views, own, "power", dc.name, report)) {
    const double p = v->si("power");
    const auto lo = dc.min_power_limit_W, hi = dc.max_power_limit_W;
    if ((lo && p < *lo * (1 - 1e-12)) || (hi && p > *hi * (1 + 1e-12))) {
      const std::string range = lo && hi ? watts(*lo) + " .. " + watts(*hi)
                                : lo     ? "at least " + watts(*lo)
                                         : "at most " + watts(*hi);
      report.fail(*v,
                  "power: expected a limit within domain '" + dc.name + "' power limit range " + range +
                      " (platform.domains." + dc.name + " min_power_limit, max_power_limit), found " + watts(p),
                  "power");
    }
    lim.power_W = p;
  }
  const double period = sc.control_period.value();
  if (const view* v = pick(views, own, "window", dc.name, report)) {
    lim.window_s = v->si("window");
    if (lim.window_s < period * (1 - 1e-9))
      report.fail(*v,
                  "window is shorter than the control period: expected at least " + fmt_g(period) + " s (control_period), "
                  "found " + fmt_g(lim.window_s) + " s; a limiter acts at most once a period (with a longer "
                  "control_period, set policy.limits." + dc.name + ".window to it)",
                  "window");
    else if (lim.window_s / period > 1e6)
      report.fail(*v,
                  "window (" + fmt_g(lim.window_s) + " s) spans more than 1e6 control periods: at most " +
                      fmt_g(1e6 * period) + " s",
                  "window");
    else if (report.first(*v, "window")) warn_unless_ticks(*v, "window", lim.window_s, period, false);
  } else if (lim.power_W && lim.window_s < period) {
    lim.window_s = period;  // the default window is shorter than this scenario's control period
  }
  if (const view* v = pick(views, own, "settle", dc.name, report)) lim.settle_s = v->si("settle");
  if (const view* v = pick(views, own, "recovery", dc.name, report)) lim.recovery_s = v->si("recovery");
  resolve_board(pick(views, own, "components", dc.name, report), sc, d, lim, report);
  // Said at load time rather than discovered as a run that never meets its limit.
  if (const view* v = pick(views, own, "power", dc.name, report); v && lim.power_W) {
    const double floor = floor_power_W(sc, &lim.components);
    if (*lim.power_W < floor && report.first(*v, "power floor")) {
      std::string board;
      for (const auto& c : lim.components) board += (board.empty() ? "" : ", ") + c;
      v->warn("power " + watts(*lim.power_W) + " cannot be met: the board of domain '" + dc.name + "' (" + board +
                  ") draws at least " + watts(std::round(floor * 10) / 10) +
                  " at its lowest operating point, idle, at the ambient temperature; the run will exceed the limit",
              "power");
    }
  }
  return lim;
}

// memory_freq of compute domain d: its paired memory domain's clock locked (min = max), as
// `nvidia-smi -lmc` locks a GPU's memory clock. `locked` remembers which entry locked which
// memory domain, so two domains sharing a memory cannot lock it at different clocks.
void lock_memory_clock(const view& v, scenario& sc, std::size_t d,
                       std::map<std::size_t, std::pair<double, std::string>>& locked, once& report) {
  const std::string& name = sc.domains[d].name;
  const std::size_t m = sc.memory_domain_of(d);
  if (m == component_ref::none) {
    report.fail(v,
                "memory_freq: domain '" + name + "' has no memory clock to lock (its units' memory is not on a "
                "memory DVFS domain: give the memory `domain:` and that domain an OPP table of memory clocks)",
                "memory_freq");
    return;
  }
  const power::dvfs_domain_config& mc = sc.domains[m];
  power::domain_limits probe;  // the rounding and its note, before anything is changed
  double hz = std::nan("");
  resolve_clock(v, "memory_freq", true, mc, probe, hz, report);
  if (std::isnan(hz)) return;
  auto [at, fresh] = locked.emplace(m, std::make_pair(hz, name));
  if (!fresh && at->second.first != hz) {
    report.fail(v,
                "memory_freq: domains '" + at->second.second + "' and '" + name + "' share memory domain '" + mc.name +
                    "' and lock it at different clocks (" + mhz(at->second.first) + ", " + mhz(hz) + ")",
                "memory_freq");
    return;
  }
  auto it = sc.policy.limits.find(mc.name);
  if (it == sc.policy.limits.end()) {
    power::domain_limits lim;
    lim.min_hz = mc.opps.min_hz();
    lim.max_hz = mc.opps.max_hz();
    it = sc.policy.limits.emplace(mc.name, lim).first;
  } else if (fresh && (it->second.min_hz != mc.opps.min_hz() || it->second.max_hz != mc.opps.max_hz())) {
    report.fail(v,
                "memory_freq: memory domain '" + mc.name + "' has its own min_freq/max_freq in policy.limits; "
                "set its clock in one place",
                "memory_freq");
    return;
  }
  it->second.min_hz = it->second.max_hz = hz;
  for (const auto& n : probe.notes) it->second.notes.push_back(n);
}

}  // namespace

std::vector<std::pair<std::size_t, std::vector<std::pair<view, bool>>>> entries_by_domain(const view& m,
                                                                                         const scenario& sc) {
  std::vector<std::vector<std::pair<view, bool>>> per(sc.domains.size());
  std::vector<view> own;  // applied after every pattern: a domain's own entry wins
  for (const auto& [key, v] : m.entries()) {
    if (!is_pattern(key)) {
      bool known = false;
      for (std::size_t d = 0; d < sc.domains.size(); ++d)
        if (sc.domains[d].name == key) per[d].emplace_back(v, true), known = true;
      const std::string first = v.node().IsMap() && v.node().size() ? v.node().begin()->first.Scalar() : "";
      if (!known) v.fail("unknown DVFS domain '" + key + "' (domains: " + domain_list(sc) + ")", first);
      continue;
    }
    bool any = false;
    for (std::size_t d = 0; d < sc.domains.size(); ++d)
      if (::fnmatch(key.c_str(), sc.domains[d].name.c_str(), 0) == 0) per[d].emplace_back(v, false), any = true;
    // At the entry's first key: a --set or sweep path ends there, so the message names it.
    const std::string first = v.node().IsMap() && v.node().size() ? v.node().begin()->first.Scalar() : "";
    if (!any) v.fail("the pattern '" + key + "' matches no DVFS domain (domains: " + domain_list(sc) + ")", first);
  }
  std::vector<std::pair<std::size_t, std::vector<std::pair<view, bool>>>> out;
  for (std::size_t d = 0; d < per.size(); ++d) {
    if (per[d].empty()) continue;
    // Patterns first (in the file's order), the domain's own entry last.
    std::stable_partition(per[d].begin(), per[d].end(), [](const auto& e) { return !e.second; });
    out.emplace_back(d, std::move(per[d]));
  }
  return out;
}

void resolve_limits(const view& limits, scenario& sc) {
  once report;
  std::vector<std::pair<std::size_t, view>> memory_locks;  // applied after every domain's own limits
  for (auto& [d, entries] : entries_by_domain(limits, sc)) {
    std::vector<view> views;
    std::vector<bool> own;
    for (auto& [v, is_own] : entries) views.push_back(v), own.push_back(is_own);
    sc.policy.limits[sc.domains[d].name] = resolve_one(views, own, sc, d, report);
    if (const view* v = pick(views, own, "memory_freq", sc.domains[d].name, report)) memory_locks.emplace_back(d, *v);
  }
  std::map<std::size_t, std::pair<double, std::string>> locked;
  for (const auto& [d, v] : memory_locks) lock_memory_clock(v, sc, d, locked, report);
}

}  // namespace ptsim::scenarios::detail

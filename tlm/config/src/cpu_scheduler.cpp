#include "ptsim/tlm_config/cpu_scheduler.hpp"

#include "ptsim/tlm_config/platform_config.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace ptsim::tlm_config {

namespace {
constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
// fits_capacity(): util * 1280 < capacity * 1024, the 20 % margin.
bool fits_capacity(std::uint64_t util, std::uint64_t capacity) { return util * 1280 < capacity * 1024; }
}  // namespace

std::vector<std::uint32_t> sched_config::capacities(const std::vector<double>& dmips_mhz,
                                                    const std::vector<double>& fmax_hz) {
  // topology_normalize_cpu_scale(): raw = dmips x f_max (kHz); capacity = raw x 1024 / max raw.
  std::vector<double> raw(dmips_mhz.size());
  double top = 0;
  for (std::size_t i = 0; i < raw.size(); ++i) top = std::max(top, raw[i] = dmips_mhz[i] * std::floor(fmax_hz[i] / 1e3));
  std::vector<std::uint32_t> out(raw.size(), capacity_scale);
  if (top > 0)
    for (std::size_t i = 0; i < raw.size(); ++i)
      out[i] = std::max<std::uint32_t>(1, static_cast<std::uint32_t>(std::floor(raw[i] * capacity_scale / top)));
  return out;
}

cpu_scheduler::cpu_scheduler(sched_config cfg) : cfg_(std::move(cfg)) {
  pd_cpus_.resize(cfg_.domains.size());
  for (std::size_t c = 0; c < cfg_.cpus.size(); ++c) {
    if (cfg_.cpus[c].domain >= cfg_.domains.size()) throw std::invalid_argument("sched cpu in an unknown domain");
    pd_cpus_[cfg_.cpus[c].domain].push_back(c);
  }
  for (const auto& d : cfg_.domains)
    if (d.freq_hz.empty() || d.freq_hz.size() != d.power_W.size())
      throw std::invalid_argument("performance domain '" + d.name + "' needs one power per OPP");
  freq_scale_.assign(cfg_.domains.size(), 1.0);
  dom_util_.assign(cfg_.domains.size(), 0.0);
  period_clamp_.assign(cfg_.cpus.size(), uclamp_range{0, 0});
  period_runnable_.assign(cfg_.cpus.size(), false);
  cpu_share_.assign(cfg_.cpus.size(), 0.0);
}

std::uint64_t cpu_scheduler::to_us(double s) { return s > 0 ? static_cast<std::uint64_t>(std::floor(s * 1e6 + 1e-6)) : 0; }

std::size_t cpu_scheduler::add_task(const std::string& name, std::vector<std::size_t> allowed, uclamp_range clamp) {
  if (allowed.empty()) throw std::invalid_argument("task '" + name + "' has no CPU");
  for (std::size_t c : allowed)
    if (c >= cfg_.cpus.size()) throw std::invalid_argument("task '" + name + "' on an unknown CPU");
  task t;
  t.name = name;
  t.allowed = std::move(allowed);
  t.clamp = clamp;
  t.cpu = t.allowed.front();
  t.residency_s.assign(cfg_.cpus.size(), 0.0);
  // post_init_entity_util_avg(): a new task gets half the spare capacity of its CPU.
  const std::uint32_t cap = cfg_.cpus[t.cpu].capacity, used = std::min(cap, cpu_util(t.cpu));
  t.pelt.set_util((cap - used) / 2);
  tasks_.push_back(std::move(t));
  return tasks_.size() - 1;
}

std::uint32_t cpu_scheduler::cpu_util(std::size_t c) const {
  std::uint32_t u = 0;
  for (const auto& t : tasks_)
    if (t.cpu == c) u += t.pelt.util_avg();
  return u;
}

void cpu_scheduler::advance(task& t, std::uint64_t now_us, double start_s) {
  if (now_us <= t.last_us) return;
  const sched_cpu& c = cfg_.cpus[t.cpu];
  const double scale = freq_scale_[c.domain] * c.capacity / capacity_scale;
  // Not running until the job starts (sleeping or waiting in the queue), running after.
  const std::uint64_t run_from = start_s >= 0 ? std::clamp(to_us(start_s), t.last_us, now_us) : now_us;
  t.pelt.accumulate(run_from - t.last_us, false, scale);
  t.pelt.accumulate(now_us - run_from, true, scale);
  t.last_us = now_us;
}

std::uint32_t cpu_scheduler::util_with(std::size_t c, const task& p, std::size_t dst) const {
  // cpu_util(cpu, p, dst_cpu): p's utilisation leaves the CPU it is attached to and joins dst.
  std::uint64_t u = cpu_util(c);
  const std::uint32_t pu = p.pelt.util_avg();
  if (p.cpu == c && dst != c) u -= std::min<std::uint64_t>(u, pu);
  else if (p.cpu != c && dst == c) u += pu;
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(u, cfg_.cpus[c].capacity));
}

bool cpu_scheduler::rq_clamp(std::size_t c, uclamp_range& out) const {
  bool any = false;
  out = {0, 0};
  for (const auto& t : tasks_)
    if (t.cpu == c && !t.jobs.empty()) {
      out.min = std::max(out.min, t.clamp.min);
      out.max = std::max(out.max, t.clamp.max);
      any = true;
    }
  if (!any) out = {0, capacity_scale};
  return any;
}

bool cpu_scheduler::util_fits_cpu(std::uint32_t util, std::uint32_t uclamp_min, std::uint32_t uclamp_max,
                                  std::uint32_t capacity) {
  bool fits = fits_capacity(util, capacity);
  // A task capped at or below the CPU's capacity fits it whatever its util (but capping at
  // 1024 does not make anything fit the biggest CPU).
  const bool max_fits = !(capacity == capacity_scale && uclamp_max == capacity_scale) && uclamp_max <= capacity;
  fits = fits || max_fits;
  // A boost the CPU cannot give does not fit.
  const std::uint32_t umin = std::min(uclamp_min, uclamp_max);
  if (fits && util < umin && umin > capacity) return false;
  return fits;
}

double cpu_scheduler::pd_energy(std::size_t d, std::uint32_t max_util, std::uint64_t sum_util) const {
  const sched_domain& pd = cfg_.domains[d];
  const double cap = cfg_.cpus[pd_cpus_[d].front()].capacity;
  const double fmax = pd.freq_hz.back();
  // map_util_perf (+25 %), at most the capacity, then map_util_freq and the lowest OPP at
  // or above it (em_pd_get_efficient_state).
  const double util = std::min(1.25 * max_util, cap);
  const double want = fmax * util / cap;
  std::size_t i = 0;
  while (i + 1 < pd.freq_hz.size() && pd.freq_hz[i] < want) ++i;
  // em_cpu_energy: ps->cost * sum_util / scale_cpu, cost = power * f_max / f: the power
  // at that OPP times the busy share the summed util takes of the OPP's capacity.
  return pd.power_W[i] * static_cast<double>(sum_util) / (cap * pd.freq_hz[i] / fmax);
}

double cpu_scheduler::compute_energy(std::size_t d, const task& p, std::size_t dst) const {
  std::uint32_t max_u = 0;
  std::uint64_t sum = 0;
  for (std::size_t c : pd_cpus_[d]) {
    const std::uint32_t u = util_with(c, p, dst);
    sum += u;
    // FREQUENCY_UTIL: the runqueue's clamps, with p's when it is placed here.
    uclamp_range cl;
    bool clamped = rq_clamp(c, cl);
    if (c == dst) {
      cl.min = clamped ? std::max(cl.min, p.clamp.min) : p.clamp.min;
      cl.max = clamped ? std::max(cl.max, p.clamp.max) : p.clamp.max;
      clamped = true;
    }
    std::uint32_t eff = u;
    if (clamped) eff = cl.min >= cl.max ? cl.min : std::clamp(u, cl.min, cl.max);
    max_u = std::max(max_u, std::min(eff, cfg_.cpus[c].capacity));
  }
  return pd_energy(d, max_u, sum);
}

bool cpu_scheduler::overutilized() const {
  for (std::size_t c = 0; c < cfg_.cpus.size(); ++c) {
    uclamp_range cl;
    rq_clamp(c, cl);
    if (!util_fits_cpu(cpu_util(c), cl.min, cl.max, cfg_.cpus[c].capacity)) return true;
  }
  return false;
}

std::size_t cpu_scheduler::select_cpu(task& p) {
  if (p.allowed.size() == 1) return p.allowed.front();
  const std::size_t prev = p.cpu;
  std::size_t target = none;
  if (!overutilized()) {
    // find_energy_efficient_cpu(): per performance domain the allowed CPU with the most
    // spare capacity where p fits (and prev), their energy deltas; the least wins, prev on a tie.
    double best_delta = std::numeric_limits<double>::infinity(), prev_delta = best_delta;
    std::size_t best = none;
    for (std::size_t d = 0; d < pd_cpus_.size(); ++d) {
      std::size_t max_spare_cpu = none;
      std::int64_t max_spare = -1, prev_spare = -1;
      for (std::size_t c : pd_cpus_[d]) {
        if (std::find(p.allowed.begin(), p.allowed.end(), c) == p.allowed.end()) continue;
        const std::uint32_t util = util_with(c, p, c);
        uclamp_range cl;
        const bool busy = rq_clamp(c, cl);
        const std::uint32_t umin = busy ? std::max(cl.min, p.clamp.min) : p.clamp.min;
        const std::uint32_t umax = busy ? std::max(cl.max, p.clamp.max) : p.clamp.max;
        if (!util_fits_cpu(util, umin, umax, cfg_.cpus[c].capacity)) continue;
        const std::int64_t spare = static_cast<std::int64_t>(cfg_.cpus[c].capacity) - util;
        if (c == prev) prev_spare = std::max<std::int64_t>(spare, 0);
        else if (spare > max_spare) max_spare = spare, max_spare_cpu = c;
      }
      if (max_spare_cpu == none && prev_spare < 0) continue;
      const double base = compute_energy(d, p, none);
      if (prev_spare >= 0) prev_delta = compute_energy(d, p, prev) - base;
      if (max_spare_cpu != none && max_spare > prev_spare) {
        const double delta = compute_energy(d, p, max_spare_cpu) - base;
        if (delta < best_delta) best_delta = delta, best = max_spare_cpu;
      }
    }
    if (prev_delta < std::numeric_limits<double>::infinity()) target = prev;
    if (best != none && best_delta < prev_delta) target = best;
  }
  if (target == none) {
    // Overutilised, or p fits nowhere: the load balancer's choice, the allowed CPU with the
    // most spare capacity (prev on a tie).
    ++p.fallbacks;
    std::int64_t most = std::numeric_limits<std::int64_t>::min();
    for (std::size_t c : p.allowed) {
      const std::int64_t spare = static_cast<std::int64_t>(cfg_.cpus[c].capacity) - util_with(c, p, c);
      if (spare > most || (spare == most && c == prev)) most = spare, target = c;
    }
  }
  return target;
}

std::size_t cpu_scheduler::wake(std::size_t ti, double now_s) {
  task& p = tasks_.at(ti);
  if (!p.jobs.empty()) return p.cpu;  // still runnable: its work queues behind the rest
  // sync_entity_load_avg(): the sleeping task's util decays to now before it is placed.
  advance(p, to_us(now_s), -1);
  ++p.wakeups;
  const std::size_t c = select_cpu(p);
  if (c != p.cpu) ++p.migrations;
  p.cpu = c;  // its utilisation leaves the old runqueue and joins the new one
  return c;
}

void cpu_scheduler::job_queued(std::size_t ti, const double* start_s) {
  task& p = tasks_.at(ti);
  p.jobs.push_back(start_s);
  period_runnable_[p.cpu] = true;
  period_clamp_[p.cpu].min = std::max(period_clamp_[p.cpu].min, p.clamp.min);
  period_clamp_[p.cpu].max = std::max(period_clamp_[p.cpu].max, p.clamp.max);
}

void cpu_scheduler::job_done(std::size_t ti, double start_s, double end_s) {
  task& p = tasks_.at(ti);
  if (p.jobs.empty()) throw std::logic_error("task '" + p.name + "': a job ended that was never queued");
  advance(p, to_us(end_s), start_s);
  p.jobs.erase(p.jobs.begin());
  p.residency_s[p.cpu] += end_s - start_s;
  runs_.push_back({ti, p.cpu, start_s, end_s});
}

void cpu_scheduler::tick(double now_s, const std::vector<double>& domain_freq_scale) {
  for (std::size_t d = 0; d < freq_scale_.size() && d < domain_freq_scale.size(); ++d)
    freq_scale_[d] = domain_freq_scale[d];
  const std::uint64_t now = to_us(now_s);
  for (auto& t : tasks_) {
    const double start = t.jobs.empty() ? -1 : *t.jobs.front();
    advance(t, now, start >= 0 && start <= now_s ? start : -1);
    if (!t.jobs.empty()) {
      period_runnable_[t.cpu] = true;
      period_clamp_[t.cpu].min = std::max(period_clamp_[t.cpu].min, t.clamp.min);
      period_clamp_[t.cpu].max = std::max(period_clamp_[t.cpu].max, t.clamp.max);
    }
  }
  // sugov_get_util()/effective_cpu_util(): the runqueue's util clamped by its runnable
  // tasks' clamps, at most its capacity; a shared policy takes the largest util/capacity.
  std::fill(dom_util_.begin(), dom_util_.end(), 0.0);
  for (std::size_t c = 0; c < cfg_.cpus.size(); ++c) {
    std::uint32_t u = cpu_util(c);
    if (period_runnable_[c]) {
      const uclamp_range& cl = period_clamp_[c];
      u = cl.min >= cl.max ? cl.min : std::clamp(u, cl.min, cl.max);
    }
    const double cap = cfg_.cpus[c].capacity;
    const double share = std::min(static_cast<double>(u), cap) / cap;
    cpu_share_[c] = share;
    dom_util_[cfg_.cpus[c].domain] = std::max(dom_util_[cfg_.cpus[c].domain], share);
    period_runnable_[c] = false;
    period_clamp_[c] = {0, 0};
  }
}

std::vector<sched_task_spec> sched_tasks(const workload_config& w) {
  std::vector<sched_task_spec> out;
  if (!w.scheduler.enabled) return out;
  for (std::size_t si = 0; si < w.streams.size(); ++si) {
    const stream_config& st = w.streams[si];
    for (std::size_t gi = 0; gi < st.stages.size(); ++gi) {
      const stage_config& sg = st.stages[gi];
      if (sg.parallel != parallel_kind::single && sg.parallel != parallel_kind::energy_aware) continue;
      sched_task_spec t;
      for (const auto& n : sg.all_units()) {
        std::size_t c = 0;
        while (c < w.scheduler.cpus.size() && w.scheduler.cpus[c].unit != n) ++c;
        if (c == w.scheduler.cpus.size()) break;
        t.cpus.push_back(c);
      }
      if (t.cpus.size() != sg.all_units().size()) continue;  // not all on CPU clusters: no task
      t.name = st.name + "/" + std::to_string(gi) + ":" + sg.graph.name;
      t.stream = si;
      t.stage = gi;
      t.clamp = sg.has_uclamp ? sg.uclamp : st.uclamp;
      out.push_back(std::move(t));
    }
    // An LLM stream's host work given `units`: one task for the serving engine's process.
    if (st.is_llm && !st.llm.host.units.empty()) {
      sched_task_spec t;
      for (const auto& n : st.llm.host.units)
        for (std::size_t c = 0; c < w.scheduler.cpus.size(); ++c)
          if (w.scheduler.cpus[c].unit == n) t.cpus.push_back(c);
      if (t.cpus.size() != st.llm.host.units.size()) continue;  // refused when resolved
      t.name = st.name + "/host";
      t.stream = si;
      t.llm_host = true;
      t.clamp = st.uclamp;
      out.push_back(std::move(t));
    }
  }
  return out;
}

}  // namespace ptsim::tlm_config

#pragma once
// Linux's CPU scheduler as a phone's DVFS sees it: work on CPU clusters runs as tasks with
// PELT utilisation (pelt.hpp) that stays with the task when it moves; a waking task is
// placed by Energy Aware Scheduling (kernel/sched/fair.c, find_energy_efficient_cpu) on
// the CPU whose energy-model cost rises least among those it fits with the 20 % margin;
// uclamp clamps what a task presents to placement and to schedutil, aggregated per
// runqueue by max (kernel/sched/core.c, uclamp_rq_util_with). A compute unit is one
// runqueue ("CPU"); units sharing a DVFS domain form its performance domain.
// Plain C++: times in seconds come from the caller.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ptsim/tlm_config/pelt.hpp"

namespace ptsim::tlm_config {

/// A task's utilisation clamp (Linux uclamp), 0..1024.
struct uclamp_range {
  std::uint32_t min = 0, max = capacity_scale;
};

/// One runqueue: a cpu_cluster unit.
struct sched_cpu {
  std::string unit;
  std::size_t domain = 0;          ///< index into sched_config::domains
  std::uint32_t capacity = 1024;   ///< capacity-dmips-mhz x f_max, the largest normalised to 1024
};

/// A performance domain and its energy model: the power of one of its CPUs busy at each OPP.
struct sched_domain {
  std::string name;
  std::vector<double> freq_hz;  ///< ascending
  std::vector<double> power_W;  ///< same length
};

struct sched_config {
  bool enabled = false;  ///< policy.scheduler: eas
  std::vector<sched_cpu> cpus;
  std::vector<sched_domain> domains;
  /// capacity = dmips x f_max normalised (topology_normalize_cpu_scale), floor as the kernel.
  static std::vector<std::uint32_t> capacities(const std::vector<double>& dmips_mhz, const std::vector<double>& fmax_hz);
};

/// One stretch of a task running on a CPU (for traces and the results' task runs).
struct task_run {
  std::size_t task, cpu;
  double start_s, end_s;
};

class cpu_scheduler {
 public:
  explicit cpu_scheduler(sched_config cfg);

  /// A task allowed on `allowed` CPUs (indices into cpus); its first CPU is where it is
  /// "forked": it starts there with the kernel's initial utilisation (half that CPU's spare
  /// capacity, post_init_entity_util_avg).
  std::size_t add_task(const std::string& name, std::vector<std::size_t> allowed, uclamp_range clamp);

  /// Work for `task` arrives at now_s: a sleeping task wakes and is placed (EAS, or the
  /// highest spare capacity when the system is overutilised or it fits nowhere); a task
  /// with work still queued stays where it is. Returns its CPU.
  std::size_t wake(std::size_t task, double now_s);
  /// The job just queued for the task (after wake); `start_s` is written by the unit when
  /// the job starts (negative until then) and must stay valid until job_done.
  void job_queued(std::size_t task, const double* start_s);
  /// The task's oldest job ran from start_s to end_s (= now); it sleeps when none is left.
  void job_done(std::size_t task, double start_s, double end_s);
  /// Control tick at now_s: PELT of every task advanced with each domain's frequency scale
  /// (f / f_max over the period just ended), then the utilisation schedutil reads.
  void tick(double now_s, const std::vector<double>& domain_freq_scale);

  /// What schedutil reads for domain d after the last tick: max over its CPUs of the
  /// runqueue's utilisation (its tasks' util_avg summed, clamped by the uclamp of the tasks
  /// runnable in the period, at most the capacity) / the CPU's capacity, in [0, 1].
  double domain_util(std::size_t d) const { return dom_util_[d]; }
  /// The same for one CPU (runqueue) after the last tick, in [0, 1].
  double cpu_sched_util(std::size_t c) const { return cpu_share_[c]; }
  /// The runqueue utilisation of CPU c (sum of the util_avg of its tasks), 0..1024+.
  std::uint32_t cpu_util(std::size_t c) const;
  std::uint32_t task_util(std::size_t t) const { return tasks_[t].pelt.util_avg(); }
  /// Sets a task's util_avg (tests; a task's history from elsewhere).
  void set_task_util(std::size_t t, std::uint32_t util) { tasks_[t].pelt.set_util(util); }
  std::size_t task_cpu(std::size_t t) const { return tasks_[t].cpu; }
  /// Whether some CPU does not fit its utilisation (cpu_overutilized on any CPU).
  bool overutilized() const;

  const sched_config& config() const { return cfg_; }
  std::size_t tasks() const { return tasks_.size(); }
  const std::string& task_name(std::size_t t) const { return tasks_[t].name; }
  /// Seconds task t ran on CPU c.
  double residency_s(std::size_t t, std::size_t c) const { return tasks_[t].residency_s[c]; }
  std::uint64_t migrations(std::size_t t) const { return tasks_[t].migrations; }
  std::uint64_t wakeups(std::size_t t) const { return tasks_[t].wakeups; }
  std::uint64_t fallbacks(std::size_t t) const { return tasks_[t].fallbacks; }
  const std::vector<task_run>& runs() const { return runs_; }

  // The placement rules, exposed for tests (util in capacity units).
  /// util_fits_cpu (kernel 6.2+): util with the 20 % margin, or a uclamp.max that caps it
  /// below the CPU's capacity; a uclamp.min above the capacity does not fit.
  static bool util_fits_cpu(std::uint32_t util, std::uint32_t uclamp_min, std::uint32_t uclamp_max,
                            std::uint32_t capacity);
  /// em_cpu_energy: the energy rate (W) of domain d for its CPUs' utilisations `util` (one
  /// per CPU of the domain, in the domain's CPU order) and the largest clamped utilisation
  /// `max_util`, at the OPP schedutil would pick for max_util.
  double pd_energy(std::size_t d, std::uint32_t max_util, std::uint64_t sum_util) const;

 private:
  struct task {
    std::string name;
    std::vector<std::size_t> allowed;
    uclamp_range clamp;
    pelt_signal pelt;
    std::size_t cpu = 0;
    std::uint64_t last_us = 0;
    std::vector<const double*> jobs;  ///< queued or running, oldest first
    std::vector<double> residency_s;
    std::uint64_t migrations = 0, wakeups = 0, fallbacks = 0;
  };
  static std::uint64_t to_us(double s);
  void advance(task& t, std::uint64_t now_us, double start_s);
  std::size_t select_cpu(task& p);
  /// cpu_util(cpu, p, dst): CPU c's utilisation with p moved to dst (SIZE_MAX: p stays).
  std::uint32_t util_with(std::size_t c, const task& p, std::size_t dst) const;
  /// The runnable tasks' clamps on CPU c (max-aggregated); false when none is runnable.
  bool rq_clamp(std::size_t c, uclamp_range& out) const;
  double compute_energy(std::size_t d, const task& p, std::size_t dst) const;

  sched_config cfg_;
  std::vector<std::vector<std::size_t>> pd_cpus_;
  std::vector<task> tasks_;
  std::vector<task_run> runs_;
  std::vector<double> freq_scale_, dom_util_, cpu_share_;
  std::vector<uclamp_range> period_clamp_;  ///< per CPU: runnable tasks' clamps this period
  std::vector<bool> period_runnable_;
};

}  // namespace ptsim::tlm_config

#pragma once
// The result file's tables written after the simulation: jobs (every request with its
// energy), the CPU scheduler's tasks, and what measured operator profiles held.
#include <string>
#include <vector>

#include "ptsim/postproc/metric_catalogue.hpp"
#include "ptsim/postproc/result_file.hpp"
#include "ptsim/scenarios/scenario.hpp"
#include "ptsim/tlm_config/cpu_scheduler.hpp"
#include "ptsim/tlm_models/platform.hpp"

namespace ptsim::cosim {

/// Jobs: every request, finished (with its energy from each component's whole-run energy,
/// by the loop's component index, in total and by component: job_energy), then unfinished,
/// then dropped; the stream totals count the requests that arrived from `from_s` on.
void write_jobs(const scenarios::scenario& sc, tlm_models::platform& plat, const std::vector<std::string>& component_names,
                const std::vector<double>& component_energy_J, double from_s, postproc::result_writer& writer,
                postproc::run_totals& totals);

/// The CPU scheduler's tasks: totals, residency per allowed CPU, and every run.
void write_tasks(const scenarios::scenario& sc, const tlm_config::cpu_scheduler& s, postproc::result_writer& writer);

/// Units with a measured profile: how many operators it timed and which it did not hold
/// (the roofline timed those), once per unit, as an event at `end_s` and a note.
std::vector<std::string> profile_notes(const tlm_models::platform& plat, postproc::result_writer& writer, double end_s);

}  // namespace ptsim::cosim

// ptsim sweep SWEEP.yaml [-o DIR] [-j N] [--resume] [--shard K/N] [--timeout DURATION]
// ptsim sweep --merge DIR
#include <cmath>
#include <cstdlib>
#include <iostream>

#include "commands.hpp"
#include "ptsim/cosim/sweep_runner.hpp"
#include "ptsim/scenarios/unit_parser.hpp"

namespace ptsim::cosim::cli {

namespace {

struct sweep_args {
  std::string file, out, shard, timeout, merge;
  unsigned jobs = 0;
  bool resume = false;
};

bool parse_shard(const std::string& text, unsigned& k, unsigned& n) {
  const auto slash = text.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == text.size()) return false;
  const std::string a = text.substr(0, slash), b = text.substr(slash + 1);
  if (a.find_first_not_of("0123456789") != std::string::npos || b.find_first_not_of("0123456789") != std::string::npos ||
      a.size() > 6 || b.size() > 6)
    return false;
  k = static_cast<unsigned>(std::stoul(a));
  n = static_cast<unsigned>(std::stoul(b));
  return n >= 1 && k < n;
}

int sweep(const sweep_args& a) {
  if (!a.merge.empty()) {
    if (!a.file.empty() || !a.out.empty() || a.jobs || a.resume || !a.shard.empty() || !a.timeout.empty()) {
      std::cerr << "ptsim sweep: --merge DIR takes no sweep file and no other option\n";
      return exit_bad_input;
    }
    return merge_sweep(a.merge);
  }
  if (a.file.empty()) {
    std::cerr << "ptsim sweep: give a sweep file (or --merge DIR); see ptsim sweep --help\n";
    return exit_bad_input;
  }
  sweep_options o;
  o.dir = a.out;
  o.jobs = a.jobs;
  o.resume = a.resume;
  if (!a.timeout.empty()) {
    // A bare number is seconds, the option's documented unit; anything else needs a time unit.
    char* end = nullptr;
    const double bare = std::strtod(a.timeout.c_str(), &end);
    try {
      o.timeout_s = (end != a.timeout.c_str() && *end == '\0') ? bare
                                                               : scenarios::parse_si(a.timeout, scenarios::dims::time());
    } catch (const scenarios::unit_error& e) {
      std::cerr << "ptsim sweep: --timeout: " << e.what() << "\n";
      return exit_bad_input;
    }
    // inf (or a duration no clock can reach) means no timeout, never "already expired".
    if (std::isinf(o.timeout_s) && o.timeout_s > 0) o.timeout_s = 0;
    else if (!(o.timeout_s > 0)) {
      std::cerr << "ptsim sweep: --timeout: expected a duration > 0, e.g. \"30 s\", found '" << a.timeout << "'\n";
      return exit_bad_input;
    }
  }
  if (!a.shard.empty()) {
    if (!parse_shard(a.shard, o.shard_k, o.shard_n)) {
      std::cerr << "ptsim sweep: --shard: expected K/N with 0 <= K < N (e.g. 0/4), found '" << a.shard << "'\n";
      return exit_bad_input;
    }
  } else {
    try {
      if (const auto s = slurm_array_shard()) {
        o.shard_k = s->first;
        o.shard_n = s->second;
      }
    } catch (const std::invalid_argument& e) {
      std::cerr << "ptsim sweep: " << e.what() << "\n";
      return exit_bad_input;
    }
  }
  return run_sweep(a.file, o);
}

}  // namespace

void add_sweep(CLI::App& app) {
  auto a = std::make_shared<sweep_args>();
  CLI::App* cmd = app.add_subcommand("sweep", "Run every run of a sweep file, each in its own process");
  cmd->footer(
      "Writes DIR/runs/<run_id>.h5 per run, then DIR/summary.h5 and DIR/summary.csv.\n"
      "Under mpirun (when built with MPI) the ranks share the runs. In a Slurm job array, the shard\n"
      "comes from SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT unless --shard is given.\n"
      "Exit status: 0 every run ok; 1 a run failed or has no result; 2 bad input; 130 interrupted.");
  cmd->add_option("sweep", a->file, "Sweep file (a base scenario and the paths to vary)");
  cmd->add_option("-o,--output", a->out, "Output folder (default: results/<sweep name>)")->type_name("DIR");
  cmd->add_option("-j,--jobs", a->jobs, "Runs at a time (per MPI rank; default: the usable cores)")
      ->type_name("N")
      ->check(CLI::Range(1u, 4096u));
  cmd->add_flag("--resume", a->resume, "Keep complete runs in DIR, remove partial ones, run the rest");
  cmd->add_option("--shard", a->shard, "Run only the runs whose index % N == K (K from 0)")->type_name("K/N");
  cmd->add_option("--timeout", a->timeout, "Bound on one run's wall time, e.g. \"10 min\" (a bare number is seconds; inf: no bound)")
      ->type_name("DURATION");
  cmd->add_option("--merge", a->merge, "Build DIR/summary.h5 and DIR/summary.csv from the runs in DIR (shards)")
      ->type_name("DIR");
  cmd->callback([a] {
    const int rc = sweep(*a);
    if (rc != exit_ok) throw CLI::RuntimeError(rc);
  });
}

}  // namespace ptsim::cosim::cli

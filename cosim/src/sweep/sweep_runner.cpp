// run_sweep and merge_sweep: read the sweep, prepare its folder, run the runs (locally, or
// across MPI ranks with rank 0 dispatching), then build the summary from the folder.
#include "ptsim/cosim/sweep_runner.hpp"

#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <set>
#include <utility>

#include "child_process.hpp"
#include "ptsim/postproc/output_file.hpp"
#include "machine.hpp"
#include "mpi_job.hpp"
#include "run_pool.hpp"
#include "summary_table.hpp"
#include "sweep_folder.hpp"

namespace ptsim::cosim {

using namespace sweep;

namespace {

void say(const std::string& s) {
  std::fprintf(stderr, "ptsim sweep: %s\n", s.c_str());
  std::fflush(stderr);
}

std::string one_line(const scenarios::scenario_error& e) {
  std::string out;
  for (const auto& d : e.diagnostics()) out += (out.empty() ? "" : "; ") + d.to_string();
  return out;
}

// What every rank needs to start runs.
struct sweep_context {
  scenarios::sweep_spec spec;
  sweep_folder folder{fs::path()};
  std::string exe;
  std::string base;
  std::vector<std::optional<std::string>> invalid;  // why a run cannot start, once checked
  std::vector<std::vector<std::string>> problems;   // the same, one diagnostic each
  std::vector<bool> checked;
};

// Checked here, before a process is spent on it; a bad value fails the run with its message.
std::optional<std::string> check_run(sweep_context& c, std::size_t index) {
  if (!c.checked[index]) {
    try {
      scenarios::load_sweep_run(c.spec, c.spec.runs[index]);
    } catch (const scenarios::scenario_error& e) {
      c.invalid[index] = one_line(e);
      for (const auto& d : e.diagnostics()) c.problems[index].push_back(d.to_string());
    }
    c.checked[index] = true;
  }
  return c.invalid[index];
}

launch_plan plan_run(sweep_context& c, std::size_t index) {
  const auto& run = c.spec.runs[index];
  launch_plan p;
  p.id = run.id;
  p.result = fs::absolute(c.folder.result_path(run.id));
  p.part = fs::absolute(c.folder.part_path(run.id));
  if (auto bad = check_run(c, index)) {
    p.error = *bad;
    return p;
  }
  p.argv = {c.exe, "run", c.base, "-o", p.result.string(), "--quiet"};
  for (const std::vector<scenarios::sweep_value>* values : {&std::as_const(c.spec.set), &run.values})
    for (const auto& v : *values) {
      p.argv.push_back("--set");
      p.argv.push_back(v.path + "=" + v.yaml);
    }
  if (run.seed) {
    p.argv.push_back("--seed");
    p.argv.push_back(std::to_string(*run.seed));
  }
  return p;
}

int interrupted_code(int signo) { return signo == SIGINT ? sweep_interrupted : 128 + signo; }

// Writes the summary of everything in the folder; returns the counts of `mine`.
table_counts summarize(const sweep_context& c, const share& mine, bool write) {
  const postproc::sweep_summary t = build_summary(c.spec, c.folder, nullptr);
  table_counts n;
  std::set<std::size_t> present;
  for (const auto& r : t.rows) {
    present.insert(r.index);
    if (mine.contains(r.index)) ++(r.ok ? n.ok : n.failed);
  }
  for (const auto& run : c.spec.runs)
    if (mine.contains(run.index) && !present.count(run.index)) ++n.missing;
  if (write) postproc::write_sweep_summary(c.folder.dir(), t);
  return n;
}

std::string counts_text(const table_counts& n) {
  std::string s = std::to_string(n.ok) + " ok, " + std::to_string(n.failed) + " failed";
  if (n.missing) s += ", " + std::to_string(n.missing) + " not run";
  return s;
}

}  // namespace

std::optional<std::pair<unsigned, unsigned>> slurm_array_shard() {
  const char* id = std::getenv("SLURM_ARRAY_TASK_ID");
  if (!id || !*id) return std::nullopt;
  const char* count = std::getenv("SLURM_ARRAY_TASK_COUNT");
  const char* min = std::getenv("SLURM_ARRAY_TASK_MIN");
  auto number = [](const char* name, const char* v) {
    char* end = nullptr;
    const long x = std::strtol(v, &end, 10);
    if (*end != '\0' || x < 0) throw std::invalid_argument(std::string(name) + " is '" + v + "', not a count");
    return static_cast<unsigned long>(x);
  };
  if (!count || !*count)
    throw std::invalid_argument("SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not: give --shard K/N");
  const unsigned long i = number("SLURM_ARRAY_TASK_ID", id), n = number("SLURM_ARRAY_TASK_COUNT", count);
  const unsigned long lo = (min && *min) ? number("SLURM_ARRAY_TASK_MIN", min) : 0;
  if (n == 0 || i < lo || i - lo >= n)
    throw std::invalid_argument("SLURM_ARRAY_TASK_ID " + std::to_string(i) + " is not within an array of " +
                                std::to_string(n) + " tasks from " + std::to_string(lo) +
                                ": submit a contiguous array (sbatch --array=0-" + std::to_string(n ? n - 1 : 0) +
                                ") or give --shard K/N");
  return std::make_pair(static_cast<unsigned>(i - lo), static_cast<unsigned>(n));
}

namespace {

// Every rank expands the sweep itself (the same numbering everywhere); rank 0 speaks.
int load_sweep(const std::string& sweep_file, const sweep_options& o, bool root, sweep_context& c,
               std::string& identity, fs::path& dir) {
  int status = 0;
  try {
    c.spec = scenarios::load_sweep_file(sweep_file);
    identity = scenarios::sweep_identity(c.spec);
  } catch (const scenarios::scenario_error& e) {
    if (root) std::cerr << e.what() << "\n";
    status = sweep_bad_input;
  }
  dir = !o.dir.empty() ? o.dir : fs::path("results") / c.spec.name;
  c.folder = sweep_folder(dir);
  c.exe = o.executable.empty() ? self_executable() : o.executable;
  std::error_code base_ec;  // (no base when the sweep file could not be read: status says so)
  c.base = fs::absolute(c.spec.base, base_ec).string();
  c.invalid.assign(c.spec.runs.size(), std::nullopt);
  c.problems.assign(c.spec.runs.size(), {});
  c.checked.assign(c.spec.runs.size(), false);
  return status;
}

// A sweep whose runs are all invalid (a broken base scenario, a misspelt path) is refused
// before any folder is made. Checking up to the first valid run tells, and usually costs
// one load; the others are checked as they start, beside the running runs.
int refuse_if_all_invalid(sweep_context& c, const share& mine, const std::string& sweep_file) {
  std::size_t mine_n = 0;
  std::vector<std::string> messages;
  for (const auto& run : c.spec.runs) {
    if (!mine.contains(run.index)) continue;
    ++mine_n;
    if (!check_run(c, run.index)) return 0;
    messages.insert(messages.end(), c.problems[run.index].begin(), c.problems[run.index].end());
  }
  if (mine_n == 0) return 0;
  std::set<std::string> seen;
  for (const auto& m : messages)
    if (seen.insert(m).second) std::cerr << m << "\n";
  say("every run of " + sweep_file + " is invalid; nothing was run");
  return sweep_bad_input;
}

void announce(const sweep_context& c, const fs::path& dir, std::size_t to_run, const share& mine, unsigned jobs,
              const mpi_job* mpi) {
  std::string how = std::to_string(jobs) + " at a time";
  if (mpi) how += " on each of " + std::to_string(mpi->size()) + " MPI ranks";
  std::string what = std::to_string(to_run) + " of " + std::to_string(c.spec.runs.size()) + " runs";
  if (mine.n > 1) what += " (shard " + std::to_string(mine.k) + "/" + std::to_string(mine.n) + ")";
  say(what + " of '" + c.spec.name + "' into " + dir.string() + ", " + how);
}

// The summary of this share (the whole sweep, or a shard's part): the sweep's exit status.
int write_summary(const sweep_context& c, const share& mine, const fs::path& dir, bool quiet) {
  try {
    const table_counts n = summarize(c, mine, mine.n == 1);
    if (mine.n == 1 && !quiet) {
      say("'" + c.spec.name + "': " + counts_text(n) + "; summary in " + (dir / "summary.csv").string());
      std::cout << (dir / "summary.csv").string() << "\n";
    } else if (!quiet) {
      say("shard " + std::to_string(mine.k) + "/" + std::to_string(mine.n) + ": " + counts_text(n) +
          "; when every shard is done: ptsim sweep --merge " + dir.string());
    }
    return n.failed || n.missing ? sweep_failed : sweep_ok;
  } catch (const std::exception& e) {
    say(std::string("cannot write the summary: ") + e.what());
    return sweep_failed;
  }
}

}  // namespace

int run_sweep(const std::string& sweep_file, const sweep_options& o) {
  const int ranks = launched_ranks();
  if (ranks > 1 && !built_with_mpi()) {
    if (launched_rank() == 0)
      say("started by mpirun with " + std::to_string(ranks) +
          " ranks, but this ptsim was built without MPI: run it without mpirun, or rebuild with MPI "
          "(libopenmpi-dev, -DPTSIM_WITH_MPI=ON)");
    return sweep_bad_input;
  }
  const std::unique_ptr<mpi_job> mpi = ranks > 1 ? std::make_unique<mpi_job>() : nullptr;
  const int rank = mpi ? mpi->rank() : 0;
  const bool root = rank == 0;
  const share mine{o.shard_k, o.shard_n};

  sweep_context c;
  std::string identity;
  fs::path dir;
  int status = load_sweep(sweep_file, o, root, c, identity, dir);
  std::vector<std::size_t> to_run;
  if (root && status == 0) status = refuse_if_all_invalid(c, mine, sweep_file);
  if (root && status == 0) {
    try {
      to_run = c.folder.prepare(c.spec, identity, mine, o.resume);
    } catch (const folder_error& e) {
      say(e.what());
      status = sweep_bad_input;
    }
  }
  if (mpi) {
    const int agreed = mpi->broadcast(status);
    if (agreed == 0 && status != 0) mpi->abort(status);  // this rank alone could not read the sweep
    status = agreed;
  }
  if (status != 0) return status;

  const unsigned jobs = o.jobs ? o.jobs : default_jobs(mpi ? launched_local_ranks() : 1);
  const std::string host = host_name();
  const std::int64_t wall_rank = mpi ? rank : static_cast<std::int64_t>(mine.k);
  if (root && !o.quiet) announce(c, dir, to_run.size(), mine, jobs, mpi.get());

  signal_watch signals;
  sweep_progress progress(to_run.size(), root && !o.quiet && isatty(STDERR_FILENO) != 0);
  const pool_options po{jobs, o.timeout_s, run_environment()};
  bool any_failed = false;
  auto on_done = [&](const launch_plan& plan, const run_result& r) {
    any_failed = any_failed || !r.ok;
    run_record rec{r.ok, r.error, r.wall_s, host, wall_rank};
    try {
      c.folder.write_record(plan.id, rec);
    } catch (const std::exception& e) {
      say(std::string("cannot record the outcome of ") + plan.id + ": " + e.what());
    }
    if (root && !o.quiet) progress.finished(plan.id, r.ok, r.error, r.wall_s, 0);
    else if (!r.ok) say("rank " + std::to_string(rank) + ": " + plan.id + " failed: " + r.error);
  };
  run_pool pool(po, [&](std::size_t i) { return plan_run(c, i); }, on_done, signals,
                root && !o.quiet ? &progress : nullptr);

  // Where the runs come from: this process's list, or rank 0 handing them out over MPI.
  local_queue local(mpi ? std::vector<std::size_t>{} : to_run);
  work_source* src = &local;
  if (mpi && root)
    src = &mpi->dispatch(to_run, [&](const run_result& r, int from) {
      if (!o.quiet) progress.finished(c.spec.runs[r.index].id, r.ok, r.error, r.wall_s, from);
    });
  else if (mpi)
    src = &mpi->request(signals);
  const bool completed = pool.run(*src);

  if (mpi && !root) {
    mpi->report_end_and_wait();
    return !completed ? interrupted_code(signals.stop_signal()) : any_failed ? sweep_failed : sweep_ok;
  }
  bool ranks_ended = true;
  if (mpi) ranks_ended = mpi->wait_for_ranks(signals, 30.0);
  progress.close();

  int rc = write_summary(c, mine, dir, o.quiet);
  const int stop = signals.stop_signal();
  if (stop != 0) {
    say(std::string("stopped by ") + (stop == SIGINT ? "Ctrl-C" : strsignal(stop)) +
        "; finished runs are kept: rerun with --resume to run the rest");
    rc = interrupted_code(stop);
  }
  if (mpi) {
    if (!ranks_ended) {
      say("some ranks did not stop in time; ending the MPI job");
      mpi->abort(rc);
    }
    mpi->release();
  }
  return rc;
}

int merge_sweep(const fs::path& dir) {
  // Under mpirun every rank would merge: one is enough.
  if (launched_rank() != 0) return sweep_ok;
  postproc::install_cleanup_handlers();  // a signal while the summary is written removes its .part
  const sweep_folder folder(dir);
  scenarios::sweep_spec spec;
  try {
    spec = scenarios::manifest_sweep(folder.read_manifest());
  } catch (const folder_error& e) {
    say(e.what());
    return sweep_bad_input;
  } catch (const scenarios::scenario_error& e) {
    say(dir.string() + "/sweep.yaml: " + e.what());
    return sweep_bad_input;
  }
  table_counts n;
  try {
    postproc::write_sweep_summary(dir, build_summary(spec, folder, &n));
  } catch (const std::exception& e) {
    say(std::string("cannot write the summary: ") + e.what());
    return sweep_failed;
  }
  say("'" + spec.name + "': " + counts_text(n) + "; summary in " + (dir / "summary.csv").string());
  if (const std::size_t parts = folder.count_parts())
    say(std::to_string(parts) + " run(s) are being written or were left unfinished (runs/*.h5.part): "
        "a shard still running, or one to rerun with --resume");
  std::cout << (dir / "summary.csv").string() << "\n";
  return n.failed || n.missing ? sweep_failed : sweep_ok;
}

}  // namespace ptsim::cosim

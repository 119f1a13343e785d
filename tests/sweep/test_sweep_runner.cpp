// `ptsim sweep` end to end, with real processes and real files read back: the summary's
// columns, failures recorded with their message, timeouts, kill -9 then --resume, Ctrl-C,
// no clobbering, shards plus --merge, and -j1 equal to -j2 number for number.
#include <algorithm>
#include <set>

#include "ptsim/postproc/metric_catalogue.hpp"
#include "ptsim/postproc/result_file.hpp"
#include "sweep_helpers.hpp"

using namespace sweep_test;
namespace pp = ptsim::postproc;

namespace {

// Six short runs (2 s simulated each).
std::string six_runs() {
  return "base: " + default_scenario +
         "\n"
         "set: { duration: \"2 s\" }\n"
         "grid:\n"
         "  policy.governor: [performance, powersave, schedutil]\n"
         "  thermal.ambient: [\"25 degC\", \"35 degC\"]\n";
}

// The run files' own metric names, ordered as summary.csv orders them: DESIGN.md's list, then
// any others by name.
std::string expected_metric_columns(const fs::path& run_file) {
  const std::vector<std::string> design{"energy_J",      "avg_power_W",   "peak_power_W",
                                        "throughput",    "perf_per_watt", "latency_p50_s",
                                        "latency_p99_s", "peak_temperature_C", "throttled_fraction"};
  const pp::result_reader r(run_file);
  std::string cols;
  for (const auto& m : design) {
    REQUIRE_MESSAGE(r.summary().metrics.count(m), m);
    cols += "," + m;
  }
  // Then the catalogue's other metrics by name, then the labelled ones ("energy_J[npu]")
  // family by family.
  std::vector<std::string> plain, labelled;
  for (const auto& [name, m] : r.summary().metrics)  // std::map: by name
    if (std::find(design.begin(), design.end(), name) == design.end())
      (pp::find_summary_metric(name) ? plain : labelled).push_back(name);
  for (const auto& n : plain) cols += "," + n;
  for (const auto& f : pp::labelled_metrics()) {
    for (const auto& n : labelled)  // the one-stream plain form first
      if (n == f.name) cols += "," + n;
    for (const auto& n : labelled)
      if (n.rfind(std::string(f.name) + "[", 0) == 0) cols += "," + n;
  }
  return cols;
}

}  // namespace

TEST_CASE("six short runs at -j2: all ok, the summary has the contract's columns and the runs' metrics") {
  scratch s("six");
  s.write("six.yaml", six_runs());
  const result r = run_ptsim(s.dir, "sweep six.yaml -o out -j2");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out == "out/summary.csv\n");
  const fs::path out = s.dir / "out";
  CHECK(files_ending(out / "runs", ".h5").size() == 6);
  CHECK(files_ending(out / "runs", ".part").empty());

  const auto t = summary(out);
  REQUIRE(t.rows.size() == 6);
  CHECK(csv_rows(out) == 6);
  const std::vector<std::vector<std::string>> points{
      {"performance", "25 degC"}, {"performance", "35 degC"}, {"powersave", "25 degC"},
      {"powersave", "35 degC"},   {"schedutil", "25 degC"},   {"schedutil", "35 degC"}};
  for (std::size_t i = 0; i < 6; ++i) {
    const auto& row = t.rows[i];
    CHECK(row.index == i);
    CHECK(row.ok);
    CHECK(row.error.empty());
    CHECK(row.params == points[i]);
    CHECK(row.wall_s > 0);
    CHECK(row.wall_rank == 0);
    // Every metric is the run file's own, exactly.
    const pp::result_reader f(out / "runs" / (row.run_id + ".h5"));
    for (std::size_t k = 0; k < t.metric_names.size(); ++k)
      CHECK_MESSAGE(row.metrics[k] == f.summary().metrics.at(t.metric_names[k]).value, t.metric_names[k]);
    CHECK(f.summary().metrics.size() == t.metric_names.size());
  }
  CHECK(t.metric_units[0] == "J");
  CHECK(csv_header(out) == "run_id,status,error,policy.governor,thermal.ambient" +
                               expected_metric_columns(out / "runs" / (t.rows[0].run_id + ".h5")) +
                               ",wall_s,wall_host,wall_rank");

  {  // -j1 gives the same results, number for number
    const result r1 = run_ptsim(s.dir, "sweep six.yaml -o out1 -j1");
    REQUIRE(r1.exit_code == 0);
    check_same_results(t, summary(s.dir / "out1"));
    check_same_series(out, s.dir / "out1", t);  // bit for bit, not only the summary
  }
  {  // running again into the same folder refuses without --resume, and clobbers nothing
    const auto before = fs::last_write_time(out / "runs" / (t.rows[0].run_id + ".h5"));
    const result again = run_ptsim(s.dir, "sweep six.yaml -o out -j2");
    CHECK(again.exit_code == 2);
    CHECK(contains(again.err, "already holds results of 6 run(s) of this sweep"));
    CHECK(contains(again.err, "--resume"));
    CHECK(fs::last_write_time(out / "runs" / (t.rows[0].run_id + ".h5")) == before);
    // --resume with nothing left to do runs nothing and rewrites the same table.
    const result resumed = run_ptsim(s.dir, "sweep six.yaml -o out -j2 --resume");
    CHECK(resumed.exit_code == 0);
    CHECK(contains(resumed.err, "0 of 6 runs"));
    CHECK(fs::last_write_time(out / "runs" / (t.rows[0].run_id + ".h5")) == before);
    check_same_results(t, summary(out));
    CHECK(csv_rows(out) == 6);
  }
  {  // another sweep never writes into this folder
    s.write("other.yaml", six_runs() + "replicates: 2\n");
    const result other = run_ptsim(s.dir, "sweep other.yaml -o out --resume");
    CHECK(other.exit_code == 2);
    CHECK(contains(other.err, "holds the runs of another sweep"));
  }
}

TEST_CASE("a run with a bad value or a runtime failure is recorded as failed with its message; the rest succeed") {
  scratch s("failures");
  s.write("bad.yaml", "base: " + default_scenario +
                          "\n"
                          "set: { duration: \"2 s\" }\n"
                          "grid:\n"
                          "  platform.components.cpu_big.leakage.power: [\"60 mW\", \"400 W\"]\n"
                          "  thermal.ambient: [\"25 degC\", \"35 degC\", \"35 W\"]\n");
  // `ptsim validate` names the bad value where it is written.
  const result v = run_ptsim(s.dir, "validate bad.yaml");
  CHECK(v.exit_code == 2);
  CHECK(contains(v.err, "bad.yaml:5:43: thermal.ambient: expected temperature"));
  CHECK(contains(v.err, "2 of 6 runs are invalid"));

  const result r = run_ptsim(s.dir, "sweep bad.yaml -o out -j2");
  CHECK(r.exit_code == 1);
  const auto t = summary(s.dir / "out");
  REQUIRE(t.rows.size() == 6);
  for (const auto& row : t.rows) {
    INFO(row.run_id << ": " << row.error);
    const bool leaky = row.params[0] == "400 W", bad_unit = row.params[1] == "35 W";
    CHECK(row.ok == (!leaky && !bad_unit));
    if (bad_unit) CHECK(contains(row.error, "bad.yaml:5:43: thermal.ambient: expected temperature (degC), found '35 W'"));
    else if (leaky) CHECK(contains(row.error, "thermal runaway"));
    if (!row.ok) {
      for (double m : row.metrics) CHECK(std::isnan(m));
    }
  }
  CHECK(files_ending(s.dir / "out" / "runs", ".h5").size() == 2);
  CHECK(files_ending(s.dir / "out" / "runs", ".part").empty());
  CHECK(contains(slurp(s.dir / "out" / "summary.csv"), ",failed,\"bad.yaml:5:43: thermal.ambient: expected"));
  CHECK(contains(r.err, "2 ok, 4 failed"));
}

TEST_CASE("--timeout kills a run that takes too long, and records it") {
  scratch s("timeout");
  // A 0.1 s run finishes far inside the timeout even under a sanitizer on a loaded
  // machine; 5000 s simulated takes minutes even without one, so only the timeout ends it.
  s.write("t.yaml", "base: " + default_scenario + "\ngrid:\n  duration: [\"0.1 s\", \"5000 s\"]\n");
  const result r = run_ptsim(s.dir, "sweep t.yaml -o out -j2 --timeout \"15 s\"");
  CHECK(r.exit_code == 1);
  const auto t = summary(s.dir / "out");
  REQUIRE(t.rows.size() == 2);
  CHECK(t.rows[0].ok);
  CHECK_FALSE(t.rows[1].ok);
  CHECK(t.rows[1].error == "timeout after 15 s");
  CHECK(t.rows[1].wall_s >= 15);
  CHECK(files_ending(s.dir / "out" / "runs", ".part").empty());
  CHECK(processes_mentioning((s.dir / "out").string()).empty());
}

TEST_CASE("killed with SIGKILL midway, then resumed (twice): every run once, no partial file, nothing left running") {
  scratch s("kill");
  // Runs of about a second each, so that the kill lands while runs are in flight.
  s.write("k.yaml", "base: " + default_scenario +
                        "\n"
                        "set: { duration: \"150 s\" }\n"
                        "grid:\n"
                        "  policy.governor: [performance, powersave, schedutil]\n"
                        "  thermal.ambient: [\"25 degC\", \"35 degC\"]\n");
  const fs::path out = s.dir / "out";
  const pid_t pid = start_ptsim(s.dir, {"sweep", "k.yaml", "-o", "out", "-j2"});
  REQUIRE(wait_until([&] { return !files_ending(out / "records", ".record").empty(); }, 600));
  kill(pid, SIGKILL);
  CHECK(wait_exit(pid) == 128 + SIGKILL);
  // PR_SET_PDEATHSIG: the runs die with the sweep.
  CHECK(wait_until([&] { return processes_mentioning(out.string()).empty(); }, 600));
  const std::size_t done_before = files_ending(out / "runs", ".h5").size();
  INFO("runs complete at the kill: " << done_before);
  CHECK(done_before < 6);
  CHECK_FALSE(fs::exists(out / "summary.csv"));

  const result r = run_ptsim(s.dir, "sweep k.yaml -o out -j2 --resume");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.err, std::to_string(6 - done_before) + " of 6 runs"));
  const auto t = summary(out);
  REQUIRE(t.rows.size() == 6);
  std::set<std::string> ids;
  for (const auto& row : t.rows) {
    CHECK(row.ok);
    ids.insert(row.run_id);
  }
  CHECK(ids.size() == 6);
  CHECK(files_ending(out / "runs", ".h5").size() == 6);
  CHECK(files_ending(out / "runs", ".part").empty());
  CHECK(csv_rows(out) == 6);

  const result again = run_ptsim(s.dir, "sweep k.yaml -o out -j2 --resume");
  CHECK(again.exit_code == 0);
  CHECK(contains(again.err, "0 of 6 runs"));
  check_same_results(t, summary(out));
  CHECK(csv_rows(out) == 6);
}

TEST_CASE("Ctrl-C stops cleanly: finished runs kept, a summary of them, no partial file, nothing running") {
  scratch s("interrupt");
  s.write("i.yaml", "base: " + default_scenario +
                        "\n"
                        "set: { duration: \"150 s\" }\n"
                        "grid:\n"
                        "  policy.governor: [performance, powersave, schedutil, ondemand]\n");
  const fs::path out = s.dir / "out";
  const pid_t pid = start_ptsim(s.dir, {"sweep", "i.yaml", "-o", "out", "-j1"});
  REQUIRE(wait_until([&] { return !files_ending(out / "records", ".record").empty(); }, 600));
  kill(pid, SIGINT);
  CHECK(wait_exit(pid) == 130);
  CHECK(processes_mentioning(out.string()).empty());
  CHECK(files_ending(out / "runs", ".part").empty());
  const auto t = summary(out);
  CHECK(t.rows.size() >= 1);
  CHECK(t.rows.size() < 4);
  CHECK(t.rows.size() == files_ending(out / "runs", ".h5").size());
  for (const auto& row : t.rows) CHECK(row.ok);
  CHECK(contains(slurp(s.dir / "bg.log"), "--resume"));
}

TEST_CASE("shards 0/2 and 1/2 plus --merge equal the whole sweep; SLURM_ARRAY_* select a shard") {
  scratch s("shards");
  s.write("six.yaml", six_runs());
  REQUIRE(run_ptsim(s.dir, "sweep six.yaml -o whole -j2").exit_code == 0);

  const result a = run_ptsim(s.dir, "sweep six.yaml -o sharded -j1 --shard 0/2");
  INFO(a.err);
  REQUIRE(a.exit_code == 0);
  CHECK(contains(a.err, "3 of 6 runs"));
  CHECK(contains(a.err, "ptsim sweep --merge sharded"));
  CHECK_FALSE(fs::exists(s.dir / "sharded" / "summary.csv"));  // the merge builds it
  // The second shard through Slurm's variables (an array submitted as --array=1-2).
  const result b = run_in(s.dir, "SLURM_ARRAY_TASK_ID=2 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_COUNT=2 '" + ptsim_exe +
                                     "' sweep six.yaml -o sharded -j1");
  INFO(b.err);
  REQUIRE(b.exit_code == 0);
  CHECK(contains(b.err, "shard 1/2"));

  const result m = run_ptsim(s.dir, "sweep --merge sharded");
  INFO(m.err);
  REQUIRE(m.exit_code == 0);
  const auto whole = summary(s.dir / "whole"), merged = summary(s.dir / "sharded");
  check_same_results(whole, merged);
  for (const auto& row : merged.rows) CHECK(row.wall_rank == static_cast<std::int64_t>(row.index % 2));

  // A merge before every shard is done says so.
  const result early = run_ptsim(s.dir, "sweep six.yaml -o early --shard 1/2");
  REQUIRE(early.exit_code == 0);
  const result partial = run_ptsim(s.dir, "sweep --merge early");
  CHECK(partial.exit_code == 1);
  CHECK(contains(partial.err, "3 ok, 0 failed, 3 not run"));
  CHECK(summary(s.dir / "early").rows.size() == 3);

  CHECK(run_ptsim(s.dir, "sweep six.yaml -o x --shard 2/2").exit_code == 2);
  CHECK(run_in(s.dir, "SLURM_ARRAY_TASK_ID=3 SLURM_ARRAY_TASK_COUNT=2 '" + ptsim_exe + "' sweep six.yaml -o x").exit_code ==
        2);
  CHECK(run_ptsim(s.dir, "sweep --merge nowhere").exit_code == 2);
}

TEST_CASE("bad command lines and sweep files are refused before anything is written") {
  scratch s("refused");
  s.write("six.yaml", six_runs());
  s.write("broken.yaml", "base: " + default_scenario + "\ngrid:\n  policy.govrnor: [performance, powersave]\n");
  const result broken = run_ptsim(s.dir, "sweep broken.yaml -o out");
  CHECK(broken.exit_code == 2);
  CHECK(contains(broken.err, "broken.yaml:3:3: policy.govrnor: unknown key 'govrnor'"));
  CHECK(contains(broken.err, "every run of broken.yaml is invalid"));
  CHECK_FALSE(fs::exists(s.dir / "out"));
  CHECK(run_ptsim(s.dir, "sweep six.yaml -o out --timeout \"5 W\"").exit_code == 2);
  CHECK(run_ptsim(s.dir, "sweep six.yaml -o out --shard 1").exit_code == 2);
  CHECK(run_ptsim(s.dir, "sweep --merge out six.yaml").exit_code == 2);
  CHECK(run_ptsim(s.dir, "sweep").exit_code == 2);
  CHECK_FALSE(fs::exists(s.dir / "out"));
  // A folder with results but no sweep.yaml is not written into.
  fs::create_directories(s.dir / "foreign" / "runs");
  const result foreign = run_ptsim(s.dir, "sweep six.yaml -o foreign");
  CHECK(foreign.exit_code == 2);
  CHECK(contains(foreign.err, "no sweep.yaml"));
}

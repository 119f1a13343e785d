// `ptsim sweep` and its folder as a shared resource, with real processes: a second sweep of
// the same folder fails at once naming the first (and the first's summary and records
// agree), the lock of a sweep killed with SIGKILL is taken over by --resume, an infinite
// or huge --timeout is no timeout, and a failed run's error keeps its first and last lines.
#include <set>

#include "sweep_helpers.hpp"

using namespace sweep_test;

namespace {

std::string runs_yaml(const std::string& duration, int governors) {
  static const char* g[] = {"performance", "powersave", "schedutil", "ondemand"};
  std::string list;
  for (int i = 0; i < governors; ++i) list += std::string(i ? ", " : "") + g[i];
  return "base: " + default_scenario + "\nset: { duration: \"" + duration + "\" }\ngrid:\n  policy.governor: [" +
         list + "]\n";
}

}  // namespace

TEST_CASE("two sweeps into one folder: the second fails at once naming the first; the first's runs are all its own") {
  scratch s("paths-two-sweeps");
  s.write("a.yaml", runs_yaml("150 s", 4));
  const fs::path out = s.dir / "out";
  const pid_t a = start_ptsim(s.dir, {"sweep", "a.yaml", "-o", "out", "-j1"});
  REQUIRE(wait_until([&] { return !files_ending(out / "runs", ".part").empty(); }, 120));
  const result b = run_ptsim(s.dir, "sweep a.yaml -o out -j1");
  INFO(b.err);
  CHECK(b.exit_code == 2);
  CHECK(contains(b.err, "is in use by another sweep: process " + std::to_string(a)));
  // With --resume too.
  const result c = run_ptsim(s.dir, "sweep a.yaml -o out -j1 --resume");
  CHECK(c.exit_code == 2);
  CHECK(contains(c.err, "is in use by another sweep"));
  CHECK(wait_exit(a) == 0);
  const auto t = summary(out);
  REQUIRE(t.rows.size() == 4);
  for (const auto& row : t.rows) {
    CHECK(row.ok);
    CHECK(row.error.empty());
  }
  CHECK(files_ending(out / "records", ".record").size() == 4);
  for (const auto& rec : files_ending(out / "records", ".record"))
    CHECK(contains(slurp(out / "records" / rec), "status=ok"));
  CHECK(files_ending(out / "runs", ".part").empty());
}

TEST_CASE("two sweeps started together into one folder: exactly one runs it") {
  scratch s("paths-two-sweeps-race");
  s.write("a.yaml", runs_yaml("2 s", 2));
  const pid_t a = start_ptsim(s.dir, {"sweep", "a.yaml", "-o", "out", "-j1"});
  const pid_t b = start_ptsim(s.dir, {"sweep", "a.yaml", "-o", "out", "-j1"});
  const int ra = wait_exit(a), rb = wait_exit(b);
  INFO(slurp(s.dir / "bg.log"));
  CHECK(((ra == 0) != (rb == 0)));
  CHECK((ra == 0 || ra == 2));
  CHECK((rb == 0 || rb == 2));
  const auto t = summary(s.dir / "out");
  REQUIRE(t.rows.size() == 2);
  for (const auto& row : t.rows) CHECK(row.ok);
}

TEST_CASE("a sweep killed with SIGKILL leaves a stale lock that --resume takes over at once") {
  scratch s("paths-stale-lock");
  s.write("k.yaml", runs_yaml("150 s", 4));
  const fs::path out = s.dir / "out";
  const pid_t pid = start_ptsim(s.dir, {"sweep", "k.yaml", "-o", "out", "-j2"});
  REQUIRE(wait_until([&] { return !files_ending(out / "runs", ".part").empty(); }, 120));
  kill(pid, SIGKILL);
  CHECK(wait_exit(pid) == 128 + SIGKILL);
  CHECK(fs::exists(out / "sweep.lock"));
  // At once: the killed sweep's runs may still be dying; their .part files are waited for.
  const result r = run_ptsim(s.dir, "sweep k.yaml -o out -j2 --resume");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto t = summary(out);
  REQUIRE(t.rows.size() == 4);
  for (const auto& row : t.rows) CHECK(row.ok);
  CHECK(files_ending(out / "runs", ".part").empty());
  CHECK(files_ending(out / "records", ".part").empty());
}

TEST_CASE("--timeout inf and --timeout \"1e300 s\" mean no timeout") {
  scratch s("paths-timeout-inf");
  s.write("t.yaml", runs_yaml("2 s", 2));
  for (const std::string timeout : {"inf", "\"1e300 s\"", "1e300"}) {
    CAPTURE(timeout);
    const std::string dir = "out-" + std::to_string(timeout.size());
    const result r = run_ptsim(s.dir, "sweep t.yaml -o " + dir + " -j2 --timeout " + timeout);
    INFO(r.err);
    CHECK(r.exit_code == 0);
    const auto t = summary(s.dir / dir);
    REQUIRE(t.rows.size() == 2);
    for (const auto& row : t.rows) CHECK(row.ok);
  }
}

TEST_CASE("links planted in a sweep folder never lead a write outside it") {
  scratch s("paths-sweep-links");
  s.write("a.yaml", runs_yaml("2 s", 2));
  const fs::path out = s.dir / "out";
  REQUIRE(run_ptsim(s.dir, "sweep a.yaml -o out -j2").exit_code == 0);
  s.write("victim", "keep");
  // summary.csv as a link to a file outside: --merge refuses to write through it.
  fs::remove(out / "summary.csv");
  fs::create_symlink("../victim", out / "summary.csv");
  const result m = run_ptsim(s.dir, "sweep --merge out");
  CHECK(m.exit_code == 1);
  CHECK(contains(m.err, "is a symbolic link"));
  CHECK(slurp(s.dir / "victim") == "keep");
  CHECK(fs::is_symlink(out / "summary.csv"));
  // A run's record or result as a link: the sweep refuses the folder.
  const auto records = files_ending(out / "records", ".record");
  REQUIRE(!records.empty());
  fs::remove(out / "records" / records.front());
  fs::create_symlink("../../victim", out / "records" / records.front());
  const result r = run_ptsim(s.dir, "sweep a.yaml -o out --resume");
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "is a symbolic link; a sweep writes only inside"));
  CHECK(slurp(s.dir / "victim") == "keep");
  // records/ as a link to a folder elsewhere, in a sweep folder; runs/ as one in a new folder.
  fs::rename(out / "records", s.dir / "moved-records");
  fs::create_directory_symlink("../moved-records", out / "records");
  const result rl = run_ptsim(s.dir, "sweep a.yaml -o out --resume");
  CHECK(rl.exit_code == 2);
  CHECK(contains(rl.err, "is not a folder of its own"));
  fs::create_directories(s.dir / "elsewhere");
  fs::create_directories(s.dir / "out2");
  fs::create_directory_symlink("../elsewhere", s.dir / "out2" / "runs");
  const result l = run_ptsim(s.dir, "sweep a.yaml -o out2");
  CHECK(l.exit_code == 2);
  CHECK(contains(l.err, "out2"));
  CHECK(fs::is_empty(s.dir / "elsewhere"));
}

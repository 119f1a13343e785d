#pragma once
// Running the real ptsim on real sweep files in a scratch folder, and reading back what the
// sweep left: its files, summary.csv's header, summary.h5's table.
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <cstring>

#include "ptsim/postproc/result_file.hpp"
#include "ptsim/postproc/sweep_summary.hpp"

namespace sweep_test {

namespace fs = std::filesystem;

inline const std::string ptsim_exe = PTSIM_BINARY_DIR "/ptsim";
inline const std::string default_scenario = PTSIM_SOURCE_DIR "/scenarios/default.yaml";

struct result {
  int exit_code;
  std::string out, err;
};

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

/// A fresh empty folder under the build tree, removed at the end.
struct scratch {
  fs::path dir;
  explicit scratch(const std::string& name) {
    dir = fs::path(PTSIM_BINARY_DIR) / "sweep-scratch" / (name + "-" + std::to_string(getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~scratch() { fs::remove_all(dir); }
  fs::path write(const std::string& name, const std::string& text) const {
    std::ofstream(dir / name, std::ios::binary) << text;
    return dir / name;
  }
};

/// Runs a shell command line with cwd = dir; stdout and stderr captured.
inline result run_in(const fs::path& dir, const std::string& command) {
  const fs::path out = dir / ".stdout", err = dir / ".stderr";
  const std::string cmd = "cd '" + dir.string() + "' && " + command + " >'" + out.string() + "' 2>'" + err.string() + "'";
  const int status = std::system(cmd.c_str());
  result r{WIFEXITED(status) ? WEXITSTATUS(status) : 128, slurp(out), slurp(err)};
  fs::remove(out);
  fs::remove(err);
  return r;
}

/// Runs `ptsim ARGS` with cwd = dir.
inline result run_ptsim(const fs::path& dir, const std::string& args) { return run_in(dir, "'" + ptsim_exe + "' " + args); }

/// Starts `ptsim ARGS` in the background (cwd = dir, output to dir/bg.log); returns its pid.
inline pid_t start_ptsim(const fs::path& dir, const std::vector<std::string>& args) {
  std::fflush(stdout);  // else the child's freopen would write this process's buffered output again
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid == 0) {
    if (chdir(dir.c_str()) != 0) _exit(127);
    const std::string log = (dir / "bg.log").string();
    if (!freopen(log.c_str(), "w", stdout) || !freopen(log.c_str(), "a", stderr)) _exit(127);
    std::vector<char*> av{const_cast<char*>(ptsim_exe.c_str())};
    for (const auto& a : args) av.push_back(const_cast<char*>(a.c_str()));
    av.push_back(nullptr);
    execv(ptsim_exe.c_str(), av.data());
    _exit(127);
  }
  return pid;
}

inline int wait_exit(pid_t pid) {
  int st = 0;
  waitpid(pid, &st, 0);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/// Files in dir whose names end with `suffix`.
inline std::vector<std::string> files_ending(const fs::path& dir, const std::string& suffix) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string n = e.path().filename().string();
    if (n.size() >= suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0) out.push_back(n);
  }
  return out;
}

/// Waits until `pred` holds, at most `seconds`.
template <typename F>
bool wait_until(F pred, double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    if (pred()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return pred();
}

/// Processes (other than zombies) whose command line mentions `needle`.
inline std::vector<pid_t> processes_mentioning(const std::string& needle) {
  std::vector<pid_t> out;
  for (const auto& e : fs::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string cmdline = slurp(e.path() / "cmdline");
    for (char& c : cmdline)
      if (c == '\0') c = ' ';
    const std::string stat = slurp(e.path() / "stat");
    const auto paren = stat.rfind(')');
    const bool zombie = paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] == 'Z';
    if (!zombie && contains(cmdline, needle)) out.push_back(static_cast<pid_t>(std::stol(name)));
  }
  return out;
}

/// The first line of summary.csv.
inline std::string csv_header(const fs::path& dir) {
  const std::string text = slurp(dir / "summary.csv");
  return text.substr(0, text.find('\n'));
}

inline std::size_t csv_rows(const fs::path& dir) {
  const std::string text = slurp(dir / "summary.csv");
  std::size_t n = 0;
  for (char c : text) n += c == '\n';
  return n == 0 ? 0 : n - 1;
}

inline ptsim::postproc::sweep_summary summary(const fs::path& dir) {
  return ptsim::postproc::read_sweep_summary(dir / "summary.h5");
}

/// Checks that two tables hold the same runs with the same parameters and metrics, number for
/// number (the wall_ columns are the machine's and may differ).
inline void check_same_results(const ptsim::postproc::sweep_summary& a, const ptsim::postproc::sweep_summary& b) {
  REQUIRE(a.rows.size() == b.rows.size());
  CHECK(a.param_names == b.param_names);
  REQUIRE(a.metric_names == b.metric_names);
  for (std::size_t i = 0; i < a.rows.size(); ++i) {
    const auto &x = a.rows[i], &y = b.rows[i];
    CHECK(x.index == y.index);
    CHECK(x.run_id == y.run_id);
    CHECK(x.ok == y.ok);
    CHECK(x.params == y.params);
    for (std::size_t k = 0; k < x.metrics.size(); ++k)
      CHECK_MESSAGE((x.metrics[k] == y.metrics[k] || (std::isnan(x.metrics[k]) && std::isnan(y.metrics[k]))),
                    x.run_id << " " << a.metric_names[k] << ": " << x.metrics[k] << " vs " << y.metrics[k]);
  }
}

/// Every run's time series in two sweep folders are identical bit for bit (each run is the
/// same scenario and seed, whichever worker, -j value or MPI rank ran it).
inline void check_same_series(const fs::path& a_dir, const fs::path& b_dir,
                              const ptsim::postproc::sweep_summary& runs) {
  for (const auto& row : runs.rows) {
    if (!row.ok) continue;
    const ptsim::postproc::result_reader a(a_dir / "runs" / (row.run_id + ".h5"));
    const ptsim::postproc::result_reader b(b_dir / "runs" / (row.run_id + ".h5"));
    CHECK(a.metadata().seed == b.metadata().seed);
    for (const char* v : {"temperature", "power", "frequency", "voltage", "utilization"}) {
      const auto x = a.variable(v), y = b.variable(v);
      REQUIRE(x.size() == y.size());
      REQUIRE(!x.empty());
      CHECK_MESSAGE(std::memcmp(x.data(), y.data(), x.size() * sizeof(double)) == 0, row.run_id << " " << v);
    }
  }
}

}  // namespace sweep_test

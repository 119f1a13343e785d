// bench_thermal_hotspot: `ptsim thermal` against a HotSpot 7 build, side by side in one run.
//
//   bench_thermal_hotspot --hotspot /path/to/hotspot [--hotspot-superlu /path/to/hotspot]
//                         [--data tests/thermal_cli/data] [--scale N] [--reference] [--only TEXT]
//
// For each case (block and grid models on ptsim's own inputs in tests/thermal_cli/data, each
// power trace repeated so that HotSpot runs for a second or more; --scale N repeats N times
// more) it runs HotSpot
// as a child process and `ptsim thermal` in-process on the same files, and prints wall and CPU
// time of each, the speed-up, and the largest differences of the transient (.ttrace) and
// steady (.steady) temperatures. HotSpot prints 2 decimals, so differences below 0.005 K are
// rounding. --hotspot-superlu adds HotSpot's SuperLU build on the grid cases (any grid size;
// its grid transient takes one backward-Euler step per row) against ptsim's default and
// against `-solver superlu`, which reproduces that step. --reference adds
// ptsim's error against a converged reference (extrapolated Euler, 64 fixed sub-steps).
// --only TEXT runs the cases whose name contains TEXT.
// HotSpot is neither built nor shipped here: point --hotspot at your own build.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "ptsim/thermal/hotspot_run.hpp"

namespace fs = std::filesystem;

namespace {

struct timing {
  double wall_s = 0, cpu_s = 0;
};

double cpu_of(int who) {
  rusage u{};
  getrusage(who, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

timing run_child(const std::string& cmd) {
  const double c0 = cpu_of(RUSAGE_CHILDREN);
  const auto t0 = std::chrono::steady_clock::now();
  const int status = std::system(cmd.c_str());
  const auto t1 = std::chrono::steady_clock::now();
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) std::cerr << "warning: failed: " << cmd << "\n";
  return {std::chrono::duration<double>(t1 - t0).count(), cpu_of(RUSAGE_CHILDREN) - c0};
}

timing run_ptsim(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  const double c0 = cpu_of(RUSAGE_SELF);
  const auto t0 = std::chrono::steady_clock::now();
  const int rc = ptsim::thermal::run_hotspot_cli(args, out, err);
  const auto t1 = std::chrono::steady_clock::now();
  if (rc != 0) std::cerr << "warning: ptsim thermal failed: " << err.str();
  return {std::chrono::duration<double>(t1 - t0).count(), cpu_of(RUSAGE_SELF) - c0};
}

// Largest |a - b| over two .ttrace files (same header), and where.
std::string compare_traces(const fs::path& a, const fs::path& b) {
  std::ifstream fa(a), fb(b);
  std::string ha, hb;
  std::getline(fa, ha);
  std::getline(fb, hb);
  if (ha != hb) return "headers differ";
  std::vector<std::string> names;
  {
    std::istringstream h(ha);
    for (std::string n; h >> n;) names.push_back(n);
  }
  double worst = 0, sum = 0;
  std::size_t count = 0, row = 0, worst_row = 0, worst_col = 0;
  for (std::string la, lb; std::getline(fa, la) && std::getline(fb, lb); ++row) {
    std::istringstream sa(la), sb(lb);
    double x, y;
    for (std::size_t c = 0; sa >> x && sb >> y; ++c) {
      const double d = std::abs(x - y);
      sum += d;
      ++count;
      if (d > worst) {
        worst = d;
        worst_row = row + 1;
        worst_col = c;
      }
    }
  }
  char buf[160];
  std::snprintf(buf, sizeof buf, "max %.4f K (row %zu, %s), mean %.4f K", worst, worst_row,
                names.empty() ? "?" : names[worst_col].c_str(), count ? sum / static_cast<double>(count) : 0.0);
  return buf;
}

std::string compare_steady(const fs::path& a, const fs::path& b) {
  std::map<std::string, double> va;
  std::ifstream fa(a), fb(b);
  std::string n;
  double v;
  while (fa >> n >> v) va[n] = v;
  double worst = 0;
  std::string at;
  while (fb >> n >> v) {
    const auto it = va.find(n);
    if (it == va.end()) return "names differ";
    if (std::abs(it->second - v) > worst) {
      worst = std::abs(it->second - v);
      at = n;
    }
  }
  char buf[120];
  std::snprintf(buf, sizeof buf, "max %.4f K (%s)", worst, at.c_str());
  return buf;
}

// The ptrace with its rows repeated n times.
void repeat_trace(const fs::path& in, const fs::path& out, int n) {
  std::ifstream f(in);
  std::string header;
  std::getline(f, header);
  std::vector<std::string> rows;
  for (std::string l; std::getline(f, l);)
    if (!l.empty()) rows.push_back(l);
  std::ofstream o(out);
  o << header << '\n';
  for (int k = 0; k < n; ++k)
    for (const auto& r : rows) o << r << '\n';
}

struct bench_case {
  std::string name, ptrace;
  std::vector<std::string> args;  // model options, without -p/-o/-steady_file
  bool grid;
  int repeat;  // times the trace is repeated (x --scale), so that HotSpot runs a second or more
};

std::vector<std::string> split(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> v;
  for (std::string w; in >> w;) v.push_back(w);
  return v;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& w : v) s += (s.empty() ? "" : " ") + w;
  return s;
}

struct bench_args {
  std::string hotspot, superlu, data = "tests/thermal_cli/data";
  int repeat = 1;
  bool reference = false;
  std::string only;
};

// false: a usage error (said on stderr).
bool parse_args(int argc, char** argv, bench_args& a) {
  for (int i = 1; i < argc; ++i) {
    const std::string w = argv[i];
    auto next = [&] { return i + 1 < argc ? std::string(argv[++i]) : std::string(); };
    if (w == "--hotspot") a.hotspot = next();
    else if (w == "--hotspot-superlu") a.superlu = next();
    else if (w == "--data") a.data = next();
    else if (w == "--scale") a.repeat = std::max(1, std::atoi(next().c_str()));
    else if (w == "--reference") a.reference = true;
    else if (w == "--only") a.only = next();
    else {
      std::cerr << "usage: bench_thermal_hotspot --hotspot PATH [--hotspot-superlu PATH] [--data DIR] "
                   "[--scale N] [--reference] [--only TEXT]\n";
      return false;
    }
  }
  if (a.hotspot.empty()) {
    std::cerr << "bench_thermal_hotspot: --hotspot PATH is required (a HotSpot 7 build of your own)\n";
    return false;
  }
  return true;
}

const std::vector<bench_case>& thermal_cases() {
  static const std::vector<bench_case> cases = {
      {"4 blocks, block", "four.ptrace", split("-c four.config -f four.flp -model_type block"), false, 50},
      {"15 blocks, block", "fifteen.ptrace", split("-c four.config -f fifteen.flp -model_type block"), false, 10},
      {"thin die 64 blocks, block", "thin.ptrace", split("-c thin.config -f thin.flp -model_type block"), false, 1},
      {"4 blocks, grid 32x32", "four.ptrace", split("-c four.config -f four.flp -model_type grid"), true, 1},
      {"15 blocks, grid 32x32", "fifteen.ptrace", split("-c four.config -f fifteen.flp -model_type grid"), true, 1},
      {"thin die, grid 32x32", "thin.ptrace",
       split("-c thin.config -f thin.flp -model_type grid -grid_rows 32 -grid_cols 32 -grid_map_mode avg"), true, 1},
      {"4 blocks, grid 64x64, 3.33 us rows", "four.ptrace",
       split("-c four.config -f four.flp -model_type grid -grid_rows 64 -grid_cols 64 -sampling_intvl 3.333e-6"),
       true, 3},
      {"15 blocks, grid 32x32, 3.33 us rows", "fifteen.ptrace",
       split("-c four.config -f fifteen.flp -model_type grid -sampling_intvl 3.333e-6"), true, 5},
      {"2-die stack (.lcf), grid 16x16", "stack.ptrace",
       split("-c four.config -grid_layer_file stack.lcf -model_type grid -grid_rows 16 -grid_cols 16"), true, 1},
      {"stack, detailed_3D, grid 16x16", "stack.ptrace",
       split("-c four.config -grid_layer_file stack3d.lcf -model_type grid -grid_rows 16 -grid_cols 16 -detailed_3D on"),
       true, 1},
  };
  return cases;
}

// ptsim's default solver and HotSpot against a converged reference (extrapolated Euler, 64
// substeps, no tolerance, 9 decimals). pa: ptsim's arguments, its -o third from the end.
void compare_with_reference(const std::string& tag, const std::vector<std::string>& pa) {
  std::vector<std::string> ra = pa;
  ra[ra.size() - 3] = tag + ".ref.ttrace";
  for (const char* w : {"-solver", "extrapolated_euler", "-substeps", "64", "-solver_tolerance", "0", "-precision", "9"})
    ra.push_back(w);
  std::vector<std::string> pa9 = pa;
  pa9[pa9.size() - 3] = tag + ".pt9.ttrace";
  pa9.push_back("-precision");
  pa9.push_back("9");
  run_ptsim(pa9);
  run_ptsim(ra);
  std::printf("%-32s %6s   ptsim default vs converged reference: %s\n", "", "",
              compare_traces(tag + ".ref.ttrace", tag + ".pt9.ttrace").c_str());
  std::printf("%-32s %6s   HotSpot vs converged reference:       %s\n", "", "",
              compare_traces(tag + ".ref.ttrace", tag + ".hs.ttrace").c_str());
}

// HotSpot's SuperLU build against ptsim's default and its -solver superlu.
void compare_with_superlu(const std::string& superlu, const std::string& tag, const std::string& common,
                          const std::vector<std::string>& pa, const timing& pt) {
  const timing sl = run_child("'" + superlu + "' " + common + " -o " + tag + ".slu.ttrace -steady_file " + tag +
                              ".slu.steady >/dev/null 2>&1");
  std::vector<std::string> be = pa;
  be[be.size() - 3] = tag + ".be1.ttrace";
  for (const char* w : {"-solver", "superlu"}) be.push_back(w);
  const timing pb = run_ptsim(be);
  std::printf("%-32s %6s %8.3fs %8.3fs %8.4fs %7.0fx  SuperLU build vs ptsim: %s; steady %s\n", "  (HotSpot SuperLU)",
              "", sl.wall_s, sl.cpu_s, pt.cpu_s, sl.cpu_s / std::max(pt.cpu_s, 1e-4),
              compare_traces(tag + ".slu.ttrace", tag + ".pt.ttrace").c_str(),
              compare_steady(tag + ".slu.steady", tag + ".pt.steady").c_str());
  std::printf("%-32s %6s %9s %9s %8.4fs %8s  SuperLU build vs ptsim -solver superlu: %s\n", "", "",
              "", "", pb.cpu_s, "", compare_traces(tag + ".slu.ttrace", tag + ".be1.ttrace").c_str());
}

void run_case(const bench_case& c, const std::string& tag, const bench_args& a) {
  const std::string ptrace = tag + ".ptrace";
  repeat_trace(c.ptrace, ptrace, c.repeat * a.repeat);
  std::size_t rows = 0;
  {
    std::ifstream f(ptrace);
    for (std::string l; std::getline(f, l);) ++rows;
    --rows;
  }
  const std::string common = join(c.args) + " -p " + ptrace;
  const timing hs = run_child("'" + a.hotspot + "' " + common + " -o " + tag + ".hs.ttrace -steady_file " + tag +
                              ".hs.steady >/dev/null 2>&1");
  std::vector<std::string> pa = c.args;
  pa.insert(pa.end(), {"-p", ptrace, "-o", tag + ".pt.ttrace", "-steady_file", tag + ".pt.steady"});
  const timing pt = run_ptsim(pa);
  std::printf("%-32s %6zu %8.3fs %8.3fs %8.4fs %7.0fx  %-44s %s\n", c.name.c_str(), rows, hs.wall_s, hs.cpu_s, pt.cpu_s,
              hs.cpu_s / std::max(pt.cpu_s, 1e-4), compare_traces(tag + ".hs.ttrace", tag + ".pt.ttrace").c_str(),
              compare_steady(tag + ".hs.steady", tag + ".pt.steady").c_str());
  if (a.reference) compare_with_reference(tag, pa);
  if (c.grid && !a.superlu.empty()) compare_with_superlu(a.superlu, tag, common, pa, pt);
}

}  // namespace

int main(int argc, char** argv) {
  bench_args a;
  if (!parse_args(argc, argv, a)) return 2;
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // a line per case as it finishes
  const fs::path work = fs::temp_directory_path() / ("ptsim_bench_hotspot_" + std::to_string(::getpid()));
  fs::create_directories(work);
  for (const auto& e : fs::directory_iterator(a.data)) fs::copy_file(e.path(), work / e.path().filename());
  fs::current_path(work);

  std::printf("HotSpot: %s\nscale: traces repeated %d x their case's count\n\n", a.hotspot.c_str(), a.repeat);
  std::printf("%-32s %6s %9s %9s %9s %8s  %-44s %s\n", "case", "rows", "HS wall", "HS cpu", "pt cpu", "speedup",
              "transient |HotSpot - ptsim|", "steady |HotSpot - ptsim|");
  int index = 0;
  for (const bench_case& c : thermal_cases()) {
    if (!a.only.empty() && c.name.find(a.only) == std::string::npos) continue;
    run_case(c, "c" + std::to_string(index++), a);
  }
  fs::current_path(fs::temp_directory_path());
  fs::remove_all(work);
  return 0;
}

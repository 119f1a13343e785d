// End to end: the ptsim executable's `thermal` subcommand, run as a HotSpot script would.
#include <doctest/doctest.h>

#include "relative_approx.hpp"
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "ptsim/thermal/package.hpp"
#include "ptsim/thermal/temperature_formats.hpp"

namespace fs = std::filesystem;

namespace {

struct result {
  int rc;
  std::string out, err;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::size_t count_lines(const std::string& text) {
  std::size_t n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

// A scratch folder with the data files copied in, so that relative names work as in HotSpot.
struct workdir {
  fs::path dir;
  workdir(const std::string& name) {
    dir = fs::temp_directory_path() / ("ptsim_thermal_cli_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    for (const auto& e : fs::directory_iterator(PTSIM_THERMAL_DATA)) fs::copy_file(e.path(), dir / e.path().filename());
  }
  ~workdir() { fs::remove_all(dir); }
  result ptsim(const std::string& args) const {
    const std::string cmd = "cd '" + dir.string() + "' && '" PTSIM_EXE "' " + args + " >.out 2>.err";
    const int status = std::system(cmd.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : 128, slurp(dir / ".out"), slurp(dir / ".err")};
  }
  std::string read(const std::string& f) const { return slurp(dir / f); }
  void write(const std::string& f, const std::string& text) const { std::ofstream(dir / f) << text; }
};

}  // namespace

TEST_CASE("ptsim --help lists thermal; ptsim thermal --help documents HotSpot's options") {
  workdir w("help");
  const result top = w.ptsim("--help");
  CHECK(top.rc == 0);
  CHECK(top.out.find("thermal") != std::string::npos);
  const result help = w.ptsim("thermal --help");
  CHECK(help.rc == 0);
  for (const char* opt : {"-steady_file", "-init_file", "-grid_layer_file", "-grid_map_mode", "-precision"})
    CHECK_MESSAGE(help.out.find(opt) != std::string::npos, opt);
}

TEST_CASE("a HotSpot command line works unchanged: block model, files only, no kernel banner") {
  workdir w("block");
  const result r = w.ptsim("thermal -c four.config -f four.flp -p four.ptrace -o four.ttrace -steady_file four.steady");
  REQUIRE_MESSAGE(r.rc == 0, r.err);
  CHECK(r.out.empty());
  CHECK(r.err.empty());
  const std::string ttrace = w.read("four.ttrace");
  CHECK(ttrace.rfind("io\tmem\tgpu\tcpu\n", 0) == 0);  // the ptrace's column order
  CHECK(count_lines(ttrace) == 1 + 200);
  const auto steady = ptsim::thermal::read_steady(w.dir / "four.steady");
  REQUIRE(steady.size() == 4 * 4 + 12);
  CHECK(steady[0].name == "cpu");
  CHECK(steady[4].name == "iface_cpu");
  CHECK(steady[27].name == "inode_11");
  for (const auto& e : steady) CHECK(e.T_K > 308.15);  // -ambient 308.15 in four.config
}

TEST_CASE("grid model with a layer file at a size HotSpot's default build refuses (7 x 9)") {
  workdir w("grid");
  const result r = w.ptsim(
      "thermal -c four.config -p stack.ptrace -grid_layer_file stack.lcf -model_type grid -grid_rows 7 "
      "-grid_cols 9 -o s.ttrace -steady_file s.steady -grid_steady_file s.grid.steady -grid_map_mode avg");
  REQUIRE_MESSAGE(r.rc == 0, r.err);
  const std::string grid = w.read("s.grid.steady");
  CHECK(count_lines(grid) == 6 * (1 + 63));  // 4 die layers + spreader + sink
  CHECK(w.read("s.steady").find("layer_2_cpu\t") != std::string::npos);
  CHECK(count_lines(w.read("s.ttrace")) == 1 + 100);
}

TEST_CASE("a grid of more than 1024 x 1024 cells is refused before anything is allocated") {
  workdir w("hugegrid");
  const result r = w.ptsim("thermal -c four.config -f four.flp -p four.ptrace -model_type grid -grid_rows 100000 "
                           "-grid_cols 100000 -o s.ttrace");
  CHECK(r.rc == 2);
  CHECK_MESSAGE(r.err.find("grid_rows x grid_cols = 10000000000 cells, more than 1048576") != std::string::npos, r.err);
}

TEST_CASE("closed form through the executable: one block, isothermal sink") {
  workdir w("closed");
  w.write("die.flp", "die\t0.008\t0.008\t0\t0\n");
  w.write("die.ptrace", "die\n12\n");
  const result r = w.ptsim(
      "thermal -f die.flp -p die.ptrace -k_sink 1e9 -ambient 300 -steady_file stdout -precision 9");
  REQUIRE_MESSAGE(r.rc == 0, r.err);
  const auto steady = ptsim::thermal::parse_steady(r.out, "stdout");
  const ptsim::thermal::package_config p;
  const double W = 0.008, A = W * W, s = p.s_spreader;
  const double r_down = p.t_spreader / (p.k_spreader * A);
  const double r_side = (W / 2) / (p.k_spreader * W * p.t_spreader) +
                        ((s - W) / 4) / (p.k_spreader * (s + 3 * W) / 4 * p.t_spreader) +
                        p.t_spreader / (p.k_spreader * (s + W) * (s - W) / 4);
  const double r_total = p.t_chip / (p.k_chip * A) + p.t_interface / (p.k_interface * A) +
                         1.0 / (1.0 / r_down + 4.0 / r_side) + p.r_convec;
  REQUIRE(steady.front().name == "die");
  CHECK(std::abs(steady.front().T_K - (300.0 + 12.0 * r_total)) < 1e-5);
}

TEST_CASE("errors: exit status 2 with file:line; runaway: exit status 1") {
  workdir w("errors");
  const result unknown = w.ptsim("thermal -f four.flp -p four.ptrace -grid_colz 3");
  CHECK(unknown.rc == 2);
  CHECK(unknown.err.find("unknown option '-grid_colz'") != std::string::npos);
  w.write("bad.ptrace", "cpu gpu mem io\n1 2 3 4\n1 2 3\n");
  const result bad = w.ptsim("thermal -f four.flp -p bad.ptrace -o x.ttrace");
  CHECK(bad.rc == 2);
  CHECK(bad.err.find("bad.ptrace:3: expected 4 power values") != std::string::npos);
  w.write("hot.ptrace", "cpu gpu mem io\n5000 0 0 0\n");
  const result hot = w.ptsim("thermal -f four.flp -p hot.ptrace -o x.ttrace -sampling_intvl 1");
  CHECK(hot.rc == 1);
  CHECK(hot.err.find("'cpu'") != std::string::npos);
}

namespace {

// Rows of a .ttrace as numbers (the header line skipped).
std::vector<std::vector<double>> ttrace_rows(const std::string& text) {
  std::vector<std::vector<double>> rows;
  std::istringstream in(text);
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    std::istringstream l(line);
    rows.emplace_back();
    for (double v; l >> v;) rows.back().push_back(v);
  }
  return rows;
}

}  // namespace

TEST_CASE("the default block solver stays within 0.01 K of the exact one on a 196-block floorplan") {
  // 14 x 14 blocks of 1 mm (796 nodes) under square waves of power with their own periods and
  // phases, 300 rows of 10 ms. Before, -solver auto switched to extrapolated Euler above 400
  // nodes and was up to 0.0154 K from the exact exponential here (12 rows above 0.01 K).
  workdir w("b196");
  constexpr int n = 14, rows = 300;
  std::ostringstream flp, trace;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      flp << "b" << i << "_" << j << "\t0.001\t0.001\t" << j * 0.001 << "\t" << i * 0.001 << "\n";
      trace << (i + j ? "\t" : "") << "b" << i << "_" << j;
    }
  trace << "\n";
  for (int r = 0; r < rows; ++r) {
    for (int k = 0; k < n * n; ++k) {
      const int on = ((r + 7 * k) / (5 + k % 11)) % 2;
      trace << (k ? "\t" : "") << 0.05 + 0.6 * on * ((k * 37) % 10) / 10.0;
    }
    trace << "\n";
  }
  w.write("b196.flp", flp.str());
  w.write("b196.ptrace", trace.str());
  const std::string common = "thermal -f b196.flp -p b196.ptrace -sampling_intvl 0.01 ";
  const result def = w.ptsim(common + "-o auto.ttrace");
  REQUIRE_MESSAGE(def.rc == 0, def.err);
  const result exact = w.ptsim(common + "-solver exponential -o exact.ttrace");
  REQUIRE_MESSAGE(exact.rc == 0, exact.err);
  const auto a = ttrace_rows(w.read("auto.ttrace")), e = ttrace_rows(w.read("exact.ttrace"));
  REQUIRE(a.size() == static_cast<std::size_t>(rows));
  REQUIRE(e.size() == a.size());
  double worst = 0;
  for (std::size_t r = 0; r < a.size(); ++r) {
    REQUIRE(a[r].size() == static_cast<std::size_t>(n * n));
    for (std::size_t c = 0; c < a[r].size(); ++c) worst = std::max(worst, std::abs(a[r][c] - e[r][c]));
  }
  CHECK(worst < 0.01);
  // and --help says which sizes are exact
  const result help = w.ptsim("thermal --help");
  CHECK(help.out.find("block models of up to 1500 nodes") != std::string::npos);
}

namespace {

// Largest |ptsim - reference| over every line of two steady files, which must name the same
// nodes in the same order.
double steady_gap(const fs::path& ours, const fs::path& reference) {
  const auto a = ptsim::thermal::read_steady(ours), b = ptsim::thermal::read_steady(reference);
  REQUIRE(a.size() == b.size());
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    REQUIRE_MESSAGE(a[i].name == b[i].name, "line " << i + 1);
    worst = std::max(worst, std::abs(a[i].T_K - b[i].T_K));
  }
  return worst;
}

double steady_of(const fs::path& file, const std::string& name) {
  for (const auto& e : ptsim::thermal::read_steady(file))
    if (e.name == name) return e.T_K;
  FAIL("no " << name << " in " << file);
  return 0;
}

}  // namespace

TEST_CASE("-model_secondary 1: every node's steady temperature within 0.02 K of HotSpot 7's") {
  // References: HotSpot 7's own output on these inputs (data/README.md: commit, command lines).
  // HotSpot writes 2 decimals and stops its multigrid iteration near convergence: measured
  // gaps 0.005-0.007 K.
  workdir w("secondary");
  struct run_case {
    const char* args;
    const char* reference;
    std::size_t lines;  // the nodes HotSpot writes (its line count)
  };
  // Lines: PCB, solder, substrate, C4, metal, silicon, interface, spreader and sink over the
  // die's blocks, then inode_0..27; with the layer file, PCB, solder and substrate over its
  // first layer (3 blocks), its 4 layers (3, 1, 4, 4 blocks), spreader and sink (4 each).
  const run_case cases[] = {
      {"-c secondary.config -f secondary.flp -p secondary.ptrace", "secondary.hotspot.steady", 9 * 3 + 28},
      {"-c four.config -f four.flp -p four.ptrace -model_type grid -model_secondary 1 -r_convec_sec 2",
       "four.secondary.hotspot.steady", 9 * 4 + 28},
      {"-c four.config -p stack.ptrace -grid_layer_file stack.lcf -model_type grid -grid_rows 16 -grid_cols 16 "
       "-model_secondary 1",
       "stack.secondary.hotspot.steady", 3 * 3 + 1 + 3 + 4 + 4 + 2 * 4 + 28},
  };
  for (const run_case& c : cases) {
    CAPTURE(c.args);
    const result r = w.ptsim(std::string("thermal ") + c.args + " -steady_file s.steady -grid_steady_file s.grid");
    REQUIRE_MESSAGE(r.rc == 0, r.err);
    CHECK(r.err.empty());  // no "ignoring -model_secondary" note any more
    CHECK(count_lines(w.read("s.steady")) == c.lines);
    CHECK(steady_gap(w.dir / "s.steady", w.dir / c.reference) < 0.02);
  }
  // The last case's grid file has every layer: 9 layers of 16 x 16 cells, each after a
  // "Layer n:" line, as HotSpot's.
  CHECK(count_lines(w.read("s.grid")) == 9 * (1 + 16 * 16));
  // The comparison can tell: without the secondary path this die is 1.1 K hotter than HotSpot's.
  const result primary = w.ptsim("thermal -c secondary.config -model_secondary 0 -f secondary.flp -p "
                                 "secondary.ptrace -steady_file p.steady");
  REQUIRE_MESSAGE(primary.rc == 0, primary.err);
  CHECK(steady_of(w.dir / "p.steady", "core") - steady_of(w.dir / "secondary.hotspot.steady", "core") > 0.5);
}

TEST_CASE("-model_secondary 1 is grid-only (as HotSpot); -d echoes numbers as HotSpot's %g") {
  workdir w("secondary_errors");
  const result block = w.ptsim("thermal -f four.flp -p four.ptrace -model_secondary 1");
  CHECK(block.rc == 2);
  CHECK_MESSAGE(block.err.find("-model_secondary 1 needs -model_type grid") != std::string::npos, block.err);
  const result zero = w.ptsim("thermal -f four.flp -p four.ptrace -s_pcb 0");
  CHECK(zero.rc == 2);
  CHECK_MESSAGE(zero.err.find("-s_pcb must be positive") != std::string::npos, zero.err);
  const result dump = w.ptsim("thermal -f four.flp -p four.ptrace -r_convec_sec 1.0 -base_proc_freq 3000000000.0 "
                              "-n_c4 400 -d stdout");
  REQUIRE_MESSAGE(dump.rc == 0, dump.err);
  CHECK(dump.out.find("-r_convec_sec\t1\n") != std::string::npos);
  CHECK(dump.out.find("-base_proc_freq\t3e+09\n") != std::string::npos);
  CHECK(dump.out.find("-n_c4\t400\n") != std::string::npos);
  CHECK(dump.out.find("-model_secondary\t0\n") != std::string::npos);
}

TEST_CASE("-package_model_used 1: r_convec from the sink and fan, steady temperatures within 0.02 K of HotSpot 7's") {
  // References and HotSpot's -d values of r_convec: data/README.md.
  workdir w("package_model");
  struct run_case {
    const char* args;
    const char* reference;
    const char* r_convec;  // as HotSpot's -d wrote it
  };
  const run_case cases[] = {
      {"-model_type grid -package_config_file fan.package", "four.fan.hotspot.steady", "0.378882"},
      {"-package_config_file pin.package", "four.pin.hotspot.steady", "0.823775"},
      {"-model_type grid -package_config_file natural.package", "four.natural.hotspot.steady", "4.53151"},
  };
  for (const run_case& c : cases) {
    CAPTURE(c.args);
    const result r = w.ptsim(std::string("thermal -c four.config -f four.flp -p four.ptrace -package_model_used 1 ") +
                             c.args + " -steady_file s.steady -d s.dump");
    REQUIRE_MESSAGE(r.rc == 0, r.err);
    CHECK(r.err.empty());
    CHECK(steady_gap(w.dir / "s.steady", w.dir / c.reference) < 0.02);
    CHECK(w.read("s.dump").find(std::string("-r_convec\t") + c.r_convec + "\n") != std::string::npos);
  }
  // The comparison can tell: four.config's own r_convec (0.35 K/W) leaves the die far cooler
  // than natural convection does.
  const result fixed = w.ptsim("thermal -c four.config -f four.flp -p four.ptrace -model_type grid -steady_file p.steady");
  REQUIRE_MESSAGE(fixed.rc == 0, fixed.err);
  CHECK(steady_of(w.dir / "four.natural.hotspot.steady", "cpu") - steady_of(w.dir / "p.steady", "cpu") > 10.0);
  // Natural convection in a transient: r_convec follows the sink's temperature row by row.
  // Against HotSpot's grid model (its block model computes the update but its RK4 keeps the
  // first r_convec: A^-1 B is not recomputed), 40 rows: measured 0.0077 K.
  {
    std::istringstream all(w.read("four.ptrace"));
    std::string rows40, line;
    for (int i = 0; i < 41 && std::getline(all, line); ++i) rows40 += line + "\n";
    w.write("four40.ptrace", rows40);
  }
  const result tr = w.ptsim("thermal -c four.config -f four.flp -p four40.ptrace -model_type grid -grid_rows 16 "
                            "-grid_cols 16 -package_model_used 1 -package_config_file natural.package -o n.ttrace");
  REQUIRE_MESSAGE(tr.rc == 0, tr.err);
  const auto ours = ttrace_rows(w.read("n.ttrace")), theirs = ttrace_rows(w.read("four.natural.hotspot.ttrace"));
  REQUIRE(ours.size() == 40);
  REQUIRE(theirs.size() == 40);
  double worst = 0;
  for (std::size_t r = 0; r < ours.size(); ++r)
    for (std::size_t c = 0; c < ours[r].size(); ++c) worst = std::max(worst, std::abs(ours[r][c] - theirs[r][c]));
  CHECK(worst < 0.02);
  // A bad package file: a motor wider than its fan.
  w.write("bad.package", "-fan_radius 0.01\n-motor_radius 0.02\n");
  const result bad = w.ptsim("thermal -f four.flp -p four.ptrace -package_model_used 1 -package_config_file bad.package");
  CHECK(bad.rc == 2);
  CHECK_MESSAGE(bad.err.find("bad.package:2: -motor_radius must be smaller than -fan_radius") != std::string::npos, bad.err);
}

namespace {

// The numbers of a .ttrace after its header line.
std::vector<double> ttrace_values(const std::string& text) {
  std::istringstream in(text.substr(text.find('\n') + 1));
  std::vector<double> v;
  for (double x; in >> x;) v.push_back(x);
  return v;
}

}  // namespace

TEST_CASE("-use_microchannels 1: every node's steady temperature and the SuperLU build's transient as HotSpot 7's") {
  // Inputs of our own; references from HotSpot 7 built from source (data/README.md).
  workdir w("microchannels");
  const std::string common = " -materials_file micro.materials -model_type grid -detailed_3D on -use_microchannels 1";
  struct run_case {
    const char* args;
    const char* stem;
    std::size_t lines;
  };
  // Lines: every block of every layer (a channel layer has one per cell), spreader and sink
  // over the last layer's blocks, inode_0..11.
  const run_case cases[] = {
      {"-c micro.config -p micro.ptrace -grid_layer_file micro.lcf", "micro", 3 + 8 * 10 + 1 + 1 + 1 + 12},
      {"-c micro2.config -p micro2.ptrace -grid_layer_file micro2.lcf", "micro2", 4 + 6 * 12 + 1 + 6 * 12 + 2 * 3 + 12},
  };
  for (const run_case& c : cases) {
    CAPTURE(c.args);
    const result r = w.ptsim(std::string("thermal ") + c.args + common + " -steady_file s.steady -o s.ttrace -solver superlu");
    REQUIRE_MESSAGE(r.rc == 0, r.err);
    CHECK(r.err.empty());
    CHECK(count_lines(w.read("s.steady")) == c.lines);
    // The same model: agreement to HotSpot's printed digits (measured 1e-6 K; the goal is 0.1 K).
    CHECK(steady_gap(w.dir / "s.steady", w.dir / (std::string(c.stem) + ".hotspot.steady")) < 1e-4);
    // -solver superlu integrates as that build (one backward-Euler step per row): same numbers.
    const std::vector<double> ours = ttrace_values(w.read("s.ttrace"));
    const std::vector<double> ref = ttrace_values(w.read(std::string(c.stem) + ".hotspot.ttrace"));
    REQUIRE(ours.size() == ref.size());
    for (std::size_t i = 0; i < ours.size(); ++i) CHECK(ours[i] == ptsim_test::Approx(ref[i]).epsilon(1e-8));
  }
  // ptsim's default integrator is not first order: on micro's 2 ms rows it is 1.3 K from the
  // SuperLU build's single step (and within 0.001 K of 4000 backward-Euler sub-steps).
  const result def = w.ptsim("thermal -c micro.config -p micro.ptrace -grid_layer_file micro.lcf" + common + " -o d.ttrace");
  REQUIRE_MESSAGE(def.rc == 0, def.err);
  const result fine = w.ptsim("thermal -c micro.config -p micro.ptrace -grid_layer_file micro.lcf" + common +
                              " -o f.ttrace -solver backward_euler -substeps 4000");
  REQUIRE_MESSAGE(fine.rc == 0, fine.err);
  const std::vector<double> d = ttrace_values(w.read("d.ttrace")), f = ttrace_values(w.read("f.ttrace"));
  REQUIRE(d.size() == f.size());
  for (std::size_t i = 0; i < d.size(); ++i) CHECK(std::abs(d[i] - f[i]) < 0.01);
}

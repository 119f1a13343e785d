// End to end: the ptsim executable's `thermal` subcommand, run as a HotSpot script would.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

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

// `ptsim thermal` (run_hotspot_cli) on small files: closed forms, formats, errors.
#include <doctest/doctest.h>

#include <cmath>
#include <sstream>

#include "fixtures.hpp"
#include "ptsim/thermal/hotspot_run.hpp"
#include "ptsim/thermal/temperature_formats.hpp"

using namespace ptsim::thermal;

namespace {

struct result {
  int rc;
  std::string out, err;
};

result run(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  const int rc = run_hotspot_cli(args, out, err);
  return {rc, out.str(), err.str()};
}

double steady_of(const std::vector<named_temperature>& s, const std::string& name) {
  for (const auto& e : s)
    if (e.name == name) return e.T_K;
  FAIL("no " << name);
  return 0;
}

// A 10 mm square die, one block, 20 W; the sink made isothermal (k_sink huge) so that the
// package reduces by hand to series and parallel resistances. (1e9 W/(m K) leaves the sink
// 1e-6 K from isothermal; much more would make G too ill-conditioned to resolve that.)
const char* const one_block_config =
    "-k_sink 1e9\n-ambient 300\n-init_temp 300\n-sampling_intvl 0.01\n";

}  // namespace

TEST_CASE("a one-block die's steady temperature equals the hand-reduced package resistance") {
  test::scratch_dir d("run_closed_form");
  const auto flp = d.write("die.flp", "die\t0.01\t0.01\t0\t0\n");
  const auto ptr = d.write("die.ptrace", "die\n20\n10\n30\n");  // mean 20 W
  const auto cfg = d.write("c.config", one_block_config);
  const result r = run({"-c", cfg, "-f", flp, "-p", ptr, "-steady_file", d.path("s"), "-precision", "9"});
  REQUIRE_MESSAGE(r.rc == 0, r.err);
  // HotSpot defaults, die W = H = 10 mm, A = 1e-4 m^2:
  const package_config pkg;
  const double W = 0.01, A = W * W, s = pkg.s_spreader;
  const double r_si = pkg.t_chip / (pkg.k_chip * A), r_tim = pkg.t_interface / (pkg.k_interface * A);
  // Spreader: straight down under the die, or sideways through each of the four trapezoids:
  // half the die, the trapezoid's own r_sp1 (length (s-W)/4, width (s+3W)/4), then down.
  const double r_down = pkg.t_spreader / (pkg.k_spreader * A);
  const double r_half = (W / 2) / (pkg.k_spreader * W * pkg.t_spreader);
  const double r_sp1 = ((s - W) / 4) / (pkg.k_spreader * (s + 3 * W) / 4 * pkg.t_spreader);
  const double a_trap = (s + W) * (s - W) / 4;
  const double r_side = r_half + r_sp1 + pkg.t_spreader / (pkg.k_spreader * a_trap);
  const double r_spreader = 1.0 / (1.0 / r_down + 4.0 / r_side);
  // An isothermal sink: its area shares of r_convec add back up to r_convec in parallel.
  const double rise = 20.0 * (r_si + r_tim + r_spreader + pkg.r_convec);
  const auto steady = read_steady(d.path("s"));
  CHECK(steady.size() == 4 + 12);
  CHECK(std::abs(steady_of(steady, "die") - (300.0 + rise)) < 1e-5);
  CHECK(std::abs(steady_of(steady, "iface_die") - (300.0 + rise - 20.0 * r_si)) < 1e-5);
  CHECK(std::abs(steady_of(steady, "hsink_die") - (300.0 + 20.0 * pkg.r_convec)) < 1e-5);
  // The 1 x 1 grid model is the same network.
  const result g = run({"-c", cfg, "-f", flp, "-p", ptr, "-steady_file", d.path("g"), "-precision", "9",
                        "-model_type", "grid", "-grid_rows", "1", "-grid_cols", "1"});
  REQUIRE_MESSAGE(g.rc == 0, g.err);
  CHECK(std::abs(steady_of(read_steady(d.path("g")), "die") - (300.0 + rise)) < 1e-5);
}

TEST_CASE("transient from the steady state stays there; .ttrace layout follows the ptrace header") {
  // Block model: the init file holds every node, so the run starts exactly at the steady
  // state. Grid model: it holds block averages, which HotSpot (and ptsim) spread evenly over
  // each block's cells, so the cells relax back towards the steady field within the rows.
  test::scratch_dir d("run_transient");
  const auto flp = d.write("a.flp", "left\t0.004\t0.006\t0\t0\nright\t0.004\t0.006\t0.004\t0\n");
  const auto ptr = d.write("a.ptrace", "right left\n3 5\n3 5\n3 5\n3 5\n");
  const auto cfg = d.write("c.config", "-ambient 310\n-sampling_intvl 0.5\n");
  for (const std::string model : {"block", "grid"}) {
    CAPTURE(model);
    const double tol = model == "block" ? 1e-9 : 0.01;
    REQUIRE(run({"-c", cfg, "-f", flp, "-p", ptr, "-model_type", model, "-grid_rows", "6", "-grid_cols", "5",
                 "-steady_file", d.path("init"), "-precision", "10"}).rc == 0);
    const result r = run({"-c", cfg, "-f", flp, "-p", ptr, "-model_type", model, "-grid_rows", "6", "-grid_cols", "5",
                          "-init_file", d.path("init"), "-o", d.path("t"), "-precision", "10"});
    REQUIRE_MESSAGE(r.rc == 0, r.err);
    std::istringstream t(d.read("t"));
    std::string header;
    std::getline(t, header);
    CHECK(header == "right\tleft");
    const auto steady = read_steady(d.path("init"));
    int rows = 0;
    for (double right, left; t >> right >> left; ++rows) {
      CHECK(std::abs(right - steady_of(steady, "right")) < tol);
      CHECK(std::abs(left - steady_of(steady, "left")) < tol);
    }
    CHECK(rows == 4);
  }
  // HotSpot's two decimals on request.
  REQUIRE(run({"-c", cfg, "-f", flp, "-p", ptr, "-o", d.path("t2"), "-precision", "2"}).rc == 0);
  std::istringstream t2(d.read("t2"));
  std::string line;
  std::getline(t2, line);
  std::getline(t2, line);
  CHECK(line.size() == std::string("310.00\t310.00").size());
}

TEST_CASE("-solver superlu: one backward-Euler step per grid row, as HotSpot's SuperLU build") {
  test::scratch_dir d("run_superlu");
  const auto flp = d.write("a.flp", "a\t0.004\t0.004\t0\t0\nb\t0.004\t0.004\t0.004\t0\n");
  const auto ptr = d.write("a.ptrace", "a b\n10 1\n1 10\n5 5\n");
  const std::vector<std::string> grid{"-f", flp, "-p", ptr, "-model_type", "grid", "-grid_rows", "5", "-grid_cols", "6",
                                      "-sampling_intvl", "0.01", "-precision", "9"};
  auto with = [&](std::vector<std::string> extra, const std::string& out) {
    std::vector<std::string> a = grid;
    a.insert(a.end(), extra.begin(), extra.end());
    a.insert(a.end(), {"-o", d.path(out)});
    REQUIRE(run(a).rc == 0);
    return d.read(out);
  };
  const std::string slu = with({"-solver", "superlu"}, "slu");
  CHECK(slu == with({"-solver", "backward_euler", "-substeps", "1"}, "be1"));
  CHECK(slu != with({}, "default"));  // first order, visibly off on 10 ms rows
}

TEST_CASE("init_temp start, HotSpot's default outputs, notes for unmodelled options") {
  test::scratch_dir d("run_defaults");
  const auto flp = d.write("a.flp", "a\t0.002\t0.002\t0\t0\n");
  const auto ptr = d.write("a.ptrace", "a\n1\n");
  const result r = run({"-f", flp, "-p", ptr, "-lambdaA", "2", "-grid_steady_file",
                        d.path("gs"), "-steady_file", "stdout"});
  REQUIRE_MESSAGE(r.rc == 0, r.err);
  CHECK(r.err.find("ignoring -grid_steady_file because the grid model is not used") != std::string::npos);
  CHECK(r.err.find("lambdaA") == std::string::npos);  // no effect in HotSpot either: silent
  CHECK(r.out.find("a\t") == 0);                      // -steady_file stdout
  CHECK(r.out.find("inode_11\t") != std::string::npos);
}

TEST_CASE("bad input: exit status 2 and a message with file:line") {
  test::scratch_dir d("run_errors");
  const auto flp = d.write("a.flp", "a\t0.002\t0.002\t0\t0\nb\t0.002\t0.002\t0.002\t0\n");
  const auto ok = d.write("ok.ptrace", "a b\n1 2\n");
  const auto cols = d.write("cols.ptrace", "a b\n1 2\n1\n");
  const auto names = d.write("names.ptrace", "a c\n1 2\n");
  const auto empty = d.write("empty.ptrace", "a b\n");
  auto err_of = [&](const std::vector<std::string>& args) {
    const result r = run(args);
    CHECK(r.rc == 2);
    return r.err;
  };
  CHECK(err_of({"-f", flp, "-p", cols, "-o", d.path("t")}).find(cols + ":3: expected 2 power values") != std::string::npos);
  CHECK(err_of({"-f", flp, "-p", names}).find(names + ":1: column 2 names block 'c', which is not in the floorplan") !=
        std::string::npos);
  CHECK(err_of({"-f", flp, "-p", empty}).find("no power rows") != std::string::npos);
  CHECK(err_of({"-f", flp, "-p", ok, "-grid_rowz", "4"}).find("unknown option '-grid_rowz'") != std::string::npos);
  CHECK(err_of({"-f", flp, "-p", ok, "-model_type", "cube"}).find("-model_type must be 'block' or 'grid'") !=
        std::string::npos);
  CHECK(err_of({"-f", flp}).find("-p (the power trace) is required") != std::string::npos);
  const auto bad_flp = d.write("bad.flp", "a 0.002 0.002 0\n");
  CHECK(err_of({"-f", bad_flp, "-p", ok}).find(bad_flp + ":1: expected 5 fields") != std::string::npos);
  const auto cfg = d.write("bad.config", "-t_chip 0.1\n-k_chipp 3\n");
  CHECK(err_of({"-c", cfg, "-f", flp, "-p", ok}).find(cfg + ":2: unknown option '-k_chipp'") != std::string::npos);
  const auto init = d.write("init", "a 300\nb 300\n");
  CHECK(err_of({"-f", flp, "-p", ok, "-o", d.path("t"), "-init_file", init}).find("no temperature for 'iface_a'") !=
        std::string::npos);
  CHECK(run({}).rc == 2);
  const result help = run({"--help"});
  CHECK(help.rc == 0);
  CHECK(help.out.find("-grid_layer_file") != std::string::npos);
}

TEST_CASE("a runaway stops with exit status 1, naming the block and the time") {
  test::scratch_dir d("run_runaway");
  const auto flp = d.write("a.flp", "hot\t0.001\t0.001\t0\t0\ncold\t0.001\t0.001\t0.001\t0\n");
  const auto ptr = d.write("a.ptrace", "hot cold\n500 0\n500 0\n500 0\n");
  const result r = run({"-f", flp, "-p", ptr, "-o", d.path("t"), "-sampling_intvl", "0.001", "-max_temp", "400"});
  CHECK(r.rc == 1);
  CHECK(r.err.find("'hot'") != std::string::npos);
  CHECK(r.err.find("at t = 0.001 s") != std::string::npos);
  CHECK(r.err.find("power row 1") != std::string::npos);
}

TEST_CASE("-d writes a configuration that reproduces the run") {
  test::scratch_dir d("run_dump");
  const auto flp = d.write("a.flp", "a\t0.003\t0.002\t0\t0\n");
  const auto ptr = d.write("a.ptrace", "a\n4\n");
  REQUIRE(run({"-f", flp, "-p", ptr, "-r_convec", "0.7", "-t_chip", "2e-4", "-d", d.path("dump"),
               "-steady_file", d.path("s1")}).rc == 0);
  const std::string dump = d.read("dump");
  CHECK(dump.find("-r_convec\t0.7\n") != std::string::npos);
  CHECK(dump.find("-t_chip\t0.0002\n") != std::string::npos);
  CHECK(dump.find("-model_type\tblock\n") != std::string::npos);
  REQUIRE(run({"-c", d.path("dump"), "-f", flp, "-p", ptr, "-steady_file", d.path("s2"), "-d", "(null)"}).rc == 0);
  CHECK(d.read("s1") == d.read("s2"));
}

TEST_CASE("layer configuration files: several layers, power per layer, HotSpot's names") {
  test::scratch_dir d("run_lcf");
  d.write("top.flp", "m0\t0.004\t0.004\t0\t0\nm1\t0.004\t0.004\t0.004\t0\n");
  d.write("bottom.flp", "core\t0.008\t0.004\t0\t0\n");
  const auto lcf = d.write("s.lcf",
                           "0\nY\nY\n1.75e6\n0.01\n1e-4\ntop.flp\n"
                           "1\nN\nN\n4e6\n0.25\n2e-5\nbottom.flp\n"
                           "2\nY\nY\n1.75e6\n0.01\n1.5e-4\nbottom.flp\n");
  const auto ptr = d.write("s.ptrace", "m1 m0 core\n1 2 10\n");
  const result r = run({"-p", ptr, "-grid_layer_file", lcf, "-model_type", "grid", "-grid_rows", "4", "-grid_cols", "6",
                        "-steady_file", d.path("s"), "-grid_steady_file", d.path("g")});
  REQUIRE_MESSAGE(r.rc == 0, r.err);
  const auto s = read_steady(d.path("s"));
  std::vector<std::string> names;
  for (const auto& e : s) names.push_back(e.name);
  CHECK(names == std::vector<std::string>{"layer_0_m0", "layer_0_m1", "layer_1_core", "layer_2_core", "hsp_core",
                                          "hsink_core", "inode_0", "inode_1", "inode_2", "inode_3", "inode_4",
                                          "inode_5", "inode_6", "inode_7", "inode_8", "inode_9", "inode_10", "inode_11"});
  CHECK(steady_of(s, "layer_0_m0") > steady_of(s, "layer_0_m1"));  // 2 W against 1 W
  const std::string grid = d.read("g");
  CHECK(grid.find("Layer 4:\n") != std::string::npos);  // 3 die layers + spreader + sink
  CHECK(grid.find("Layer 5:") == std::string::npos);
  // The ptrace lists each power layer's blocks in turn; core belongs to layer 2.
  const auto swapped = d.write("w.ptrace", "core m0 m1\n10 1 2\n");
  CHECK(run({"-p", swapped, "-grid_layer_file", lcf, "-model_type", "grid"}).err.find(
            "column 1 names block 'core', which is not in the floorplan of power layer 0") != std::string::npos);
}

TEST_CASE("-use_microchannels 1: what it needs, and bad networks or parameters as errors with file:line") {
  test::scratch_dir d("run_micro");
  d.write("top.flp", "die\t0.0008\t0.0006\t0\t0\n");
  d.write("ok.csv", "0 0 0 0\n2 1 1 3\n0 0 0 0\n");
  d.write("bad.csv", "0 0 0 0\n2 1 x 3\n0 0 0 0\n");
  d.write("m.materials", "water\nfluid\n0.6\n4.2e6\n9e-4\nsilicon\nsolid\n130\n1.6e6\n");
  auto lcf = [&](const std::string& network) {
    return d.write(network + ".lcf", "0\nY\nY\n1.6e6\n0.0077\n50e-6\ntop.flp\n1\nY\nN\n1.6e6\n0.0077\n100e-6\n" +
                                         network + "\n2\nY\nN\n1.6e6\n0.0077\n100e-6\ntop.flp\n");
  };
  const auto ptr = d.write("p.ptrace", "die\n1\n");
  const std::vector<std::string> base = {"-p", ptr, "-model_type", "grid", "-grid_rows", "3", "-grid_cols", "4",
                                         "-materials_file", d.path("m.materials")};
  auto with = [&](std::vector<std::string> extra) {  // first occurrence wins: extra before base
    extra.insert(extra.end(), base.begin(), base.end());
    return run(extra);
  };
  const std::string ok = lcf("ok.csv");
  const result good = with({"-grid_layer_file", ok, "-detailed_3D", "on", "-use_microchannels", "1", "-steady_file",
                            "stdout", "-coolant_material", "water"});
  REQUIRE_MESSAGE(good.rc == 0, good.err);
  CHECK(good.out.find("layer_1_Cell_1_2\t") != std::string::npos);  // HotSpot's names for the channel cells
  // The network's layer without the flag, the flag without detailed_3D: refused, as HotSpot.
  const result no_flag = with({"-grid_layer_file", ok, "-detailed_3D", "on"});
  CHECK(no_flag.rc == 2);
  CHECK_MESSAGE(no_flag.err.find("is a microchannel network (.csv), which needs -use_microchannels 1") !=
                    std::string::npos, no_flag.err);
  const result no_3d = with({"-grid_layer_file", ok, "-use_microchannels", "1"});
  CHECK(no_3d.rc == 2);
  CHECK(no_3d.err.find("-use_microchannels 1 needs -model_type grid, -detailed_3D on") != std::string::npos);
  const std::vector<std::string> micro = {"-detailed_3D", "on", "-use_microchannels", "1"};
  auto micro_with = [&](const std::string& layers, std::vector<std::string> extra) {
    extra.insert(extra.begin(), micro.begin(), micro.end());
    extra.insert(extra.begin(), {"-grid_layer_file", layers});
    return with(extra);
  };
  const result bad = micro_with(lcf("bad.csv"), {});
  CHECK(bad.rc == 2);
  CHECK_MESSAGE(bad.err.find("bad.csv:2:3: expected a cell type") != std::string::npos, bad.err);
  const result rows = micro_with(ok, {"-grid_rows", "4"});
  CHECK(rows.rc == 2);
  CHECK(rows.err.find("ok.csv: expected 4 rows (-grid_rows), found 3") != std::string::npos);
  const result solid = micro_with(ok, {"-coolant_material", "silicon"});
  CHECK(solid.rc == 2);
  CHECK(solid.err.find("-coolant_material names 'silicon', which is not a fluid") != std::string::npos);
  const result htc = micro_with(ok, {"-htc", "0"});
  CHECK(htc.rc == 2);
  CHECK(htc.err.find("command line: -htc must be positive") != std::string::npos);
  const result expo = micro_with(ok, {"-o", d.path("t"), "-solver", "exponential"});
  CHECK(expo.rc == 2);
  CHECK(expo.err.find("-solver exponential cannot integrate coolant flow") != std::string::npos);
}

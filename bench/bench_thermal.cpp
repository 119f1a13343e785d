// bench_thermal: cost of one co-simulation thermal step (transient_solver::step) against
// the bare floor of a sparse implicit step, and of a steady-state solve on 1000 blocks.
//
//   bare BE step = rhs = C/h T + P + g_amb T_amb;  T = LDLT(C/h + G).solve(rhs)
//                  (factorised once, T preallocated): the least a backward-Euler step can do.
//   bare exp step = T = Phi T + M drive with the same dense matrices the solver precomputes.
#include <Eigen/Dense>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseLU>
#include <cstdio>
#include <string>
#include <vector>

#include "ptsim/thermal/package.hpp"
#include "ptsim/thermal/plant.hpp"
#include "ptsim/thermal/solver.hpp"
#include "summary_reporter.hpp"

namespace {

using namespace ptsim::thermal;
using sparse = Eigen::SparseMatrix<double>;

constexpr double dt_s = 1e-3;          // the default control period
constexpr double ambient_K = 298.15;
constexpr double block_power_W = 0.5;  // on every silicon node

floorplan grid(int cols, int rows, double side_m) {
  std::vector<block> b;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      b.push_back({"b" + std::to_string(r * cols + c), side_m, side_m, c * side_m, r * side_m});
  return floorplan(std::move(b));
}

// scenarios/default.yaml: its floorplan and package, in SI.
floorplan default_floorplan() {
  const double mm = 1e-3;
  return floorplan({{"cpu_big", 3 * mm, 3 * mm, 0, 0},
                    {"cpu_mid", 3 * mm, 3 * mm, 3 * mm, 0},
                    {"cpu_little", 4 * mm, 3 * mm, 6 * mm, 0},
                    {"npu", 5 * mm, 5 * mm, 0, 3 * mm},
                    {"noc", 5 * mm, 2 * mm, 5 * mm, 3 * mm},
                    {"mem_ctrl", 5 * mm, 3 * mm, 5 * mm, 5 * mm}});
}
package_config default_package() {
  package_config p;
  p.t_interface = 50e-6;
  p.k_interface = 3.0;
  p.s_spreader = 0.03;
  p.t_spreader = 0.5e-3;
  p.s_sink = 0.07;
  p.t_sink = 1e-3;
  p.k_sink = 200.0;
  p.p_sink = 2.4e6;
  p.r_convec = 5.0;
  p.c_convec = 300.0;
  return p;
}

struct network_case {
  std::string name;
  rc_network net;
  std::size_t blocks;
};

std::vector<double> node_power(const network_case& c) {
  std::vector<double> p(c.net.size(), 0.0);
  for (std::size_t i = 0; i < c.blocks; ++i) p[i] = block_power_W;
  return p;
}

sparse conductance(const rc_network& net) {
  const auto n = static_cast<Eigen::Index>(net.size());
  using triplet = Eigen::Triplet<double, Eigen::Index>;
  std::vector<triplet> e;
  for (const auto& l : net.links()) {
    const auto a = static_cast<Eigen::Index>(l.a), b = static_cast<Eigen::Index>(l.b);
    e.insert(e.end(), {triplet(a, a, l.g), triplet(b, b, l.g), triplet(a, b, -l.g), triplet(b, a, -l.g)});
  }
  for (Eigen::Index i = 0; i < n; ++i) e.emplace_back(i, i, net.ambient_conductance(std::size_t(i)));
  sparse g(n, n);
  g.setFromTriplets(e.begin(), e.end());
  g.makeCompressed();
  return g;
}

Eigen::VectorXd drive_of(const network_case& c) {
  const auto n = static_cast<Eigen::Index>(c.net.size());
  const auto p = node_power(c);
  Eigen::VectorXd d(n);
  for (Eigen::Index i = 0; i < n; ++i) d[i] = p[std::size_t(i)] + c.net.ambient_conductance(std::size_t(i)) * ambient_K;
  return d;
}

void bm_step(benchmark::State& st, const network_case* c, integration_method m, int substeps) {
  transient_solver s(c->net, dt_s, substeps, ambient_K, m);
  const auto p = node_power(*c);
  for (auto _ : st) {
    s.step(p.data());
    benchmark::DoNotOptimize(s.temperatures().data());
  }
}

void bm_bare_be(benchmark::State& st, const network_case* c) {
  const auto n = static_cast<Eigen::Index>(c->net.size());
  Eigen::VectorXd c_over_h(n), t = Eigen::VectorXd::Constant(n, ambient_K), rhs(n);
  for (Eigen::Index i = 0; i < n; ++i) c_over_h[i] = c->net.capacitance(std::size_t(i)) / dt_s;
  sparse a = conductance(c->net);
  a.diagonal() += c_over_h;
  Eigen::SimplicialLDLT<sparse> ldlt(a);
  const Eigen::VectorXd drive = drive_of(*c);
  for (auto _ : st) {
    rhs = c_over_h.cwiseProduct(t) + drive;
    t = ldlt.solve(rhs);
    benchmark::DoNotOptimize(t.data());
  }
}

// The exponential step's floor: the two dense mat-vecs (matrices' values do not matter).
void bm_bare_exp(benchmark::State& st, const network_case* c) {
  const auto n = static_cast<Eigen::Index>(c->net.size());
  const Eigen::MatrixXd phi = Eigen::MatrixXd::Identity(n, n) * 0.5, m = Eigen::MatrixXd::Identity(n, n) * 1e-3;
  Eigen::VectorXd t = Eigen::VectorXd::Constant(n, ambient_K), next(n);
  const Eigen::VectorXd drive = drive_of(*c);
  for (auto _ : st) {
    next.noalias() = phi * t;
    next.noalias() += m * drive;
    t.swap(next);
    benchmark::DoNotOptimize(t.data());
  }
}

// The server preset's datacenter model: 12 dies of one 30 mm block each under their own
// package (16 nodes each), in five air streams (four of two GPUs, one of four host dies).
thermal_config server12() {
  thermal_config c;
  c.kind = package_kind::datacenter;
  std::vector<block> b;
  const char* names[] = {"gpu0", "gpu1", "gpu2", "gpu3", "gpu4", "gpu5", "gpu6", "gpu7", "cpu0", "cpu1", "nvswitch", "io"};
  for (int i = 0; i < 12; ++i) b.push_back({names[i], 0.03, 0.03, (i % 4) * 0.03, (i / 4) * 0.03});
  c.fp = floorplan(b);
  c.package.t_chip = 0.5e-3;
  c.package.k_interface = 8.0;
  c.package.s_spreader = 0.06;
  c.package.t_spreader = 3e-3;
  c.package.s_sink = 0.11;
  c.package.t_sink = 10e-3;
  c.package.k_sink = 2000.0;
  c.package.r_convec = 0.03;
  c.package.c_convec = 1500.0;
  for (const char* n : names) c.datacenter.dies.push_back({n, {n}, c.package, std::nullopt});
  c.datacenter.streams = {{"a", {"gpu0", "gpu4"}}, {"b", {"gpu1", "gpu5"}}, {"c", {"gpu2", "gpu6"}},
                          {"d", {"gpu3", "gpu7"}}, {"host", {"io", "nvswitch", "cpu0", "cpu1"}}};
  return c;
}

void bm_plant_step(benchmark::State& st, const thermal_config* c) {
  plant p(*c);
  p.start(dt_s);
  const std::vector<double> P(c->fp.size(), 500.0);
  for (auto _ : st) {
    p.step(P.data());
    benchmark::DoNotOptimize(p.block_temperatures_K().data());
  }
}

// Its floor: each die's two dense 16 x 16 mat-vecs.
void bm_bare_exp_dies(benchmark::State& st, const thermal_config* c) {
  const Eigen::Index n = 16;
  const Eigen::MatrixXd phi = Eigen::MatrixXd::Identity(n, n) * 0.5, m = Eigen::MatrixXd::Identity(n, n) * 1e-3;
  std::vector<Eigen::VectorXd> t(c->fp.size(), Eigen::VectorXd::Constant(n, ambient_K));
  Eigen::VectorXd next(n);
  const Eigen::VectorXd drive = Eigen::VectorXd::Constant(n, 1.0);
  for (auto _ : st) {
    for (auto& x : t) {
      next.noalias() = phi * x;
      next.noalias() += m * drive;
      x.swap(next);
    }
    benchmark::DoNotOptimize(t.front().data());
  }
}

void bm_steady(benchmark::State& st, const network_case* c) {
  const auto p = node_power(*c);
  for (auto _ : st) benchmark::DoNotOptimize(steady_state(c->net, p, ambient_K));
}

// Floors for steady_state: factorise G (already assembled) and solve once.
template <class Solver>
void bm_bare_steady(benchmark::State& st, const network_case* c) {
  const sparse g = conductance(c->net);
  const Eigen::VectorXd drive = drive_of(*c);
  Eigen::VectorXd t(drive.size());
  for (auto _ : st) {
    Solver s;
    s.compute(g);
    t = s.solve(drive);
    benchmark::DoNotOptimize(t.data());
  }
}

void ratio_line(const ptsim::bench::summary_reporter& r, const std::string& what, const std::string& num,
                const std::string& den, double den_times = 1.0) {
  const double a = r.ns(num), b = r.ns(den) * den_times;
  if (!(a > 0 && b > 0)) return;
  if (a < 1e6) std::printf("  %-44s %10.0f ns  %6.2fx\n", what.c_str(), a, a / b);
  else std::printf("  %-44s %10.2f ms  %6.2fx\n", what.c_str(), a * 1e-6, a / b);
}

}  // namespace

int main(int argc, char** argv) {
  const package_config hotspot;  // HotSpot 7 defaults
  const network_case small{"default6", build_block_model(default_floorplan(), default_package()), 6};
  const network_case grid20{"grid20", build_block_model(grid(5, 4, 1e-3), hotspot), 20};
  // 0.5 mm blocks so that the 20 x 12.5 mm die fits HotSpot's 30 mm spreader.
  const network_case grid1000{"grid1000", build_block_model(grid(40, 25, 0.5e-3), hotspot), 1000};

  for (const network_case* c : {&small, &grid20}) {
    const std::string p = c->name + "/";
    benchmark::RegisterBenchmark((p + "step_exponential").c_str(), bm_step, c, integration_method::exponential, 1);
    benchmark::RegisterBenchmark((p + "step_backward_euler_1").c_str(), bm_step, c, integration_method::backward_euler, 1);
    benchmark::RegisterBenchmark((p + "step_backward_euler_8").c_str(), bm_step, c, integration_method::backward_euler, 8);
    benchmark::RegisterBenchmark((p + "bare_ldlt_step").c_str(), bm_bare_be, c);
    benchmark::RegisterBenchmark((p + "bare_dense_expstep").c_str(), bm_bare_exp, c);
  }
  const thermal_config server = server12();
  benchmark::RegisterBenchmark("server12/plant_step_datacenter", bm_plant_step, &server);
  benchmark::RegisterBenchmark("server12/bare_dense_expstep_x12", bm_bare_exp_dies, &server);
  benchmark::RegisterBenchmark("grid1000/steady_state", bm_steady, &grid1000)->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("grid1000/bare_sparselu", bm_bare_steady<Eigen::SparseLU<sparse>>, &grid1000)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("grid1000/bare_ldlt", bm_bare_steady<Eigen::SimplicialLDLT<sparse>>, &grid1000)
      ->Unit(benchmark::kMillisecond);

  ptsim::bench::summary_reporter rep;
  ptsim::bench::run_all(argc, argv, rep);

  std::printf("\nCPU time per call and ratio, this run (target: step within 1.5x of the bare LDLT step)\n");
  for (const network_case* c : {&small, &grid20}) {
    const std::string p = c->name + "/";
    std::printf("%s: %zu nodes\n", c->name.c_str(), c->net.size());
    ratio_line(rep, "step exponential / bare LDLT step", p + "step_exponential", p + "bare_ldlt_step");
    ratio_line(rep, "step exponential / bare dense exp step", p + "step_exponential", p + "bare_dense_expstep");
    ratio_line(rep, "step backward_euler x1 / bare LDLT step", p + "step_backward_euler_1", p + "bare_ldlt_step");
    ratio_line(rep, "step backward_euler x8 / 8 bare LDLT steps", p + "step_backward_euler_8", p + "bare_ldlt_step", 8);
  }
  std::printf("server12: datacenter plant, 12 dies x 16 nodes in 5 air streams\n");
  ratio_line(rep, "plant step / 12 bare dense exp steps", "server12/plant_step_datacenter",
             "server12/bare_dense_expstep_x12");
  std::printf("grid1000: %zu nodes\n", grid1000.net.size());
  ratio_line(rep, "steady_state / bare SparseLU (G given)", "grid1000/steady_state", "grid1000/bare_sparselu");
  ratio_line(rep, "steady_state / bare LDLT (G given)", "grid1000/steady_state", "grid1000/bare_ldlt");
  return 0;
}

// transient_solver::step() must not touch the heap: it runs every control period.
#include <doctest/doctest.h>

#include <cstdlib>
#include <new>

#include "fixtures.hpp"
#include "ptsim/thermal/compact_model.hpp"
#include "ptsim/thermal/grid_model.hpp"
#include "ptsim/thermal/leakage.hpp"
#include "ptsim/thermal/package.hpp"
#include "ptsim/thermal/plant.hpp"
#include "ptsim/thermal/solver.hpp"

#ifdef PTSIM_TEST_COUNT_MALLOC
// The link redirects malloc & co. (see CMakeLists.txt) to these counting wrappers; the global
// operator new is replaced so that C++ allocations from anywhere land here too.
namespace {
long allocations = 0;
}
extern "C" {
void* __real_malloc(std::size_t);
void* __real_calloc(std::size_t, std::size_t);
void* __real_realloc(void*, std::size_t);
void* __real_aligned_alloc(std::size_t, std::size_t);
int __real_posix_memalign(void**, std::size_t, std::size_t);
void* __wrap_malloc(std::size_t n) { ++allocations; return __real_malloc(n); }
void* __wrap_calloc(std::size_t k, std::size_t n) { ++allocations; return __real_calloc(k, n); }
void* __wrap_realloc(void* p, std::size_t n) { ++allocations; return __real_realloc(p, n); }
void* __wrap_aligned_alloc(std::size_t a, std::size_t n) { ++allocations; return __real_aligned_alloc(a, n); }
int __wrap_posix_memalign(void** p, std::size_t a, std::size_t n) {
  ++allocations;
  return __real_posix_memalign(p, a, n);
}
}
void* operator new(std::size_t n) {
  void* p = __wrap_malloc(n == 0 ? 1 : n);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

using namespace ptsim::thermal;

namespace {
void* volatile escape = nullptr;
}

TEST_CASE("the allocation counter sees C and C++ allocations") {
  const long before = allocations;
  escape = std::malloc(64);
  std::free(escape);
  auto* v = new double[16];
  escape = v;
  delete[] v;
  CHECK(allocations - before == 2);
}

TEST_CASE("step() does not allocate, with either integrator") {
  const rc_network net = build_block_model(test::three_blocks(), package_config{});
  const auto p = test::block_power(3, {3.0, 2.0, 1.0});
  for (auto method : {integration_method::backward_euler, integration_method::exponential,
                      integration_method::extrapolated_euler}) {
    CAPTURE(static_cast<int>(method));
    transient_solver s(net, 1e-3, 4, 300.0, method);
    s.step(p.data());  // warm-up, in case anything is lazily initialised
    const long before = allocations;
    for (int k = 0; k < 100; ++k) s.step(p.data());
    const long during = allocations - before;
    CHECK(during == 0);
    CHECK(s.temperatures()[0] > 300.0);
  }
}

TEST_CASE("step() on a grid model (the layered grid solver) does not allocate") {
  // 24 x 24 cells, 4 layers: 2,316 nodes, above the layered solver's threshold.
  grid_config gc;
  gc.rows = gc.cols = 24;
  gc.package = package_config{};
  gc.layers = default_grid_layers(test::three_blocks(), gc.package);
  const compact_model m = build_grid_model(gc);
  std::vector<double> p;
  const double P[3] = {3.0, 2.0, 1.0};
  m.node_power(P, p);
  for (auto method : {integration_method::backward_euler, integration_method::extrapolated_euler}) {
    CAPTURE(static_cast<int>(method));
    transient_solver s(m.net, 1e-3, 1, 300.0, method);
    s.step(p.data());
    CHECK(s.linear_solver() == "layered");
    const long before = allocations;
    for (int k = 0; k < 40; ++k) s.step(p.data());  // past the solver's first checked solves
    CHECK(allocations - before == 0);
  }
}

TEST_CASE("a leakage-coupled step does not allocate either") {
  const compact_model m = make_block_compact_model(test::three_blocks(), package_config{});
  transient_solver s(m.net, 1e-3, 1, 300.0, integration_method::exponential);
  coupled_transient ct(m, s, make_leakage_fn(m));
  const double p[] = {3.0, 2.0, 1.0};
  ct.step(p);
  const long before = allocations;
  for (int k = 0; k < 100; ++k) ct.step(p);
  CHECK(allocations - before == 0);
}
TEST_CASE("the co-simulation's plant steps without allocating: hotspot, phone, datacenter (fans at known speeds)") {
  for (const package_kind kind : {package_kind::hotspot, package_kind::phone, package_kind::datacenter}) {
    thermal_config c;
    c.kind = kind;
    c.fp = test::three_blocks();
    if (kind == package_kind::datacenter) {
      c.fp = floorplan({{"a", 0.01, 0.01, 0, 0}, {"b", 0.01, 0.01, 0.01, 0}});
      c.datacenter.dies = {{"a", {"a"}, c.package, std::nullopt}, {"b", {"b"}, c.package, std::nullopt}};
      c.datacenter.streams = {{"s", {"a", "b"}}};
    }
    plant pl(c);
    pl.start(1e-3);
    const std::vector<double> P(c.fp.size(), 2.0);
    pl.set_fan_speed(1.0);  // a first visit to a speed builds its solvers
    pl.set_fan_speed(0.5);
    pl.step(P.data());
    const long before = allocations;
    for (int k = 0; k < 100; ++k) {
      if (k == 50) pl.set_fan_speed(1.0);  // already built: no allocation
      pl.step(P.data());
    }
    CHECK(allocations == before);
  }
}

#endif

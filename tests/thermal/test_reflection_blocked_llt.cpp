// The mirror-class Cholesky used by the layered grid solver: solves equal a plain LLT's to
// rounding, with the classes the mirrors allow (and none that S does not have).
#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <cmath>
#include <vector>

#include "reflection_blocked_llt.hpp"

using ptsim::thermal::detail::reflection_blocked_llt;
using Eigen::Index;

namespace {

// Points (i, j) on a 5 x 6 lattice centred at the origin (the middle row i = 2 is its own
// mirror image under the row flip); S(k, m) a Gaussian kernel of their distance plus a
// diagonal that depends on |i - 2| and |j - 2.5| only: invariant under both flips.
constexpr Index R = 5, C = 6, N = R * C;
double yi(Index k) { return static_cast<double>(k / C) - 2.0; }
double xj(Index k) { return static_cast<double>(k % C) - 2.5; }

Eigen::MatrixXd mirrored_spd() {
  Eigen::MatrixXd s(N, N);
  for (Index k = 0; k < N; ++k)
    for (Index m = 0; m < N; ++m) {
      const double dx = xj(k) - xj(m), dy = yi(k) - yi(m);
      s(k, m) = std::exp(-0.3 * (dx * dx + dy * dy));
    }
  for (Index k = 0; k < N; ++k) s(k, k) += 1.0 + 0.1 * std::abs(yi(k)) + 0.05 * std::abs(xj(k));
  return s;
}

std::vector<Index> flip_columns() {
  std::vector<Index> p(N);
  for (Index k = 0; k < N; ++k) p[static_cast<std::size_t>(k)] = (k / C) * C + (C - 1 - k % C);
  return p;
}
std::vector<Index> flip_rows() {
  std::vector<Index> p(N);
  for (Index k = 0; k < N; ++k) p[static_cast<std::size_t>(k)] = (R - 1 - k / C) * C + k % C;
  return p;
}

// Largest relative difference from a plain LLT's solve, over a few right-hand sides.
double worst_against_llt(const reflection_blocked_llt& f, const Eigen::MatrixXd& s) {
  const Eigen::LLT<Eigen::MatrixXd> ref(s);
  double worst = 0;
  for (int t = 0; t < 3; ++t) {
    Eigen::VectorXd b(N);
    for (Index k = 0; k < N; ++k) b[k] = std::sin(1.7 * static_cast<double>(k + 1) * (t + 1)) + 0.3 * t;
    Eigen::VectorXd x = b;
    f.solve_in_place(x);
    const Eigen::VectorXd want = ref.solve(b);
    worst = std::max(worst, (x - want).norm() / want.norm());
  }
  return worst;
}

}  // namespace

TEST_CASE("reflection_blocked_llt: two mirrors give four classes and the LLT's solution") {
  const Eigen::MatrixXd s = mirrored_spd();
  reflection_blocked_llt f;
  REQUIRE(f.compute(s, {flip_columns(), flip_rows()}));
  CHECK(f.classes() == 4);
  CHECK(worst_against_llt(f, s) < 1e-13);
  // Every column of a matrix at once (as the solver's S1^-1 D^-1 B).
  Eigen::MatrixXd b = Eigen::MatrixXd::Identity(N, N), x = b;
  f.solve_in_place(x);
  CHECK((s * x - b).norm() < 1e-12);
}

TEST_CASE("reflection_blocked_llt: a mirror S is not invariant under is left out") {
  Eigen::MatrixXd s = mirrored_spd();
  // Couple cells 0 and 1 more: still symmetric and definite, and still invariant under the
  // row flip (cells 0 and 1 are in row 0, their images in row 4 get the same), not the column flip.
  const Index a = 0, b = 1, a2 = (R - 1) * C + 0, b2 = (R - 1) * C + 1;
  s(a, b) += 0.2;
  s(b, a) += 0.2;
  s(a2, b2) += 0.2;
  s(b2, a2) += 0.2;
  reflection_blocked_llt f;
  REQUIRE(f.compute(s, {flip_columns(), flip_rows()}));
  CHECK(f.classes() == 2);
  CHECK(worst_against_llt(f, s) < 1e-13);
}

TEST_CASE("reflection_blocked_llt: no mirrors, or a map that is not a mirror, is one plain factor") {
  const Eigen::MatrixXd s = mirrored_spd();
  reflection_blocked_llt f;
  REQUIRE(f.compute(s, {}));
  CHECK(f.classes() == 1);
  CHECK(worst_against_llt(f, s) < 1e-13);
  std::vector<Index> shift(N);  // k -> k + 1: a permutation, not an involution
  for (Index k = 0; k < N; ++k) shift[static_cast<std::size_t>(k)] = (k + 1) % N;
  REQUIRE(f.compute(s, {shift}));
  CHECK(f.classes() == 1);
  CHECK(worst_against_llt(f, s) < 1e-13);
}

TEST_CASE("reflection_blocked_llt: a matrix that is not positive definite is refused") {
  Eigen::MatrixXd s = mirrored_spd();
  s.diagonal().array() -= 50.0;  // far below the kernel's smallest eigenvalue
  reflection_blocked_llt f;
  CHECK_FALSE(f.compute(s, {flip_columns(), flip_rows()}));
}

#pragma once
// Private: a direct solver for grid models whose layers are uniform (HotSpot's grid model
// without per-block materials or coolant), used by the transient solver instead of a sparse
// factorisation, whose fill grows with the square of the layer count, and by the steady
// solver instead of conjugate gradients.
#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <memory>
#include <string>
#include <vector>

#include "reflection_blocked_llt.hpp"

namespace ptsim::thermal::detail {

struct uniform_form;  // layered_grid_solver.cpp

struct grid_shape {
  Eigen::Index layers = 0, rows = 0, cols = 0;
};

/// Grid models from this many nodes use layered_grid_solver (transient and steady), below it a
/// sparse factorisation, cheap there. Measured on `four` (bench/RESULTS.md), 200-row
/// transients: 4 layers (the primary path) at 64 x 64 2.9 s -> 0.8 s; 9 layers (with the
/// secondary path) 17.3 s -> 2.5 s.
constexpr Eigen::Index layered_min_nodes = 2000;

/// The grid model's shape from its node names ("layer_L_cell_I_J", layer by layer from node
/// 0, as build_grid_model adds them); all zero when the network is not such a grid.
grid_shape grid_shape_of(const std::vector<std::string>& names);

/// Solves A x = b for A = (grid part) + (the other nodes), where the grid part is
/// K (x) L2 + M (x) I on its interior: every layer the same in-plane Laplacian L2 (Neumann,
/// the cells' aspect ratio) scaled by its own lateral conductance K_l, and one vertical
/// tridiagonal M (links between layers, C/h and ambient terms) for every cell column.
/// A generalised eigen-decomposition M V = K V diag(mu) separates the layers into modes;
/// per mode, the eigenvectors of the 1D Laplacian across the columns and a tridiagonal solve
/// along the rows invert L2 + mu I exactly. What breaks the uniformity (edge cells' links to
/// the package's periphery nodes, those nodes themselves) is solved exactly by a dense
/// capacitance system on those few hundred unknowns. Cost per solve: one transform there
/// and back (the uniform part's answer is needed only at those cells before the correction
/// goes in) and the dense system, instead of triangular solves with a factor of 790k entries
/// (9 layers at 32 x 32).
class layered_grid_solver {
 public:
  /// nullptr when A does not have that structure (checked entry by entry) or when the
  /// non-uniform part is too large for a dense system.
  static std::unique_ptr<layered_grid_solver> make(const Eigen::SparseMatrix<double>& a, grid_shape shape);

  /// x = A^-1 b. Returns false when the backward error |b - A x| / (|A| |x| + |b|) (infinity
  /// norms) stays above `backward_error_tolerance` after refinement (the caller then
  /// factorises or iterates). Checked on the first `checked_solves` solves, then on every
  /// `check_every`-th.
  bool solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) const;

  /// Backward error accepted; up to two refinement steps are taken above it. A backward-stable
  /// solve gives a few eps; a relative residual |r| / |b| would instead grow with the
  /// condition number (1e-11 on steady states of 128 x 128 grids, whose G has no C/h).
  static constexpr double backward_error_tolerance = 1e-13;
  static constexpr long checked_solves = 8, check_every = 16;

 private:
  using mat = Eigen::MatrixXd;
  using vec = Eigen::VectorXd;
  using index = Eigen::Index;

  // make's stages: the layers' modes, the columns' basis and the rows' pivots (false when a
  // mode is not definite); the edge cells' positions; H, their block of A0^-1; the
  // capacitance system and the other nodes' Schur complement (false when not definite).
  bool set_transforms(const uniform_form& u);
  void index_edge_cells();
  mat edge_inverse_block() const;
  bool set_capacitance(const Eigen::SparseMatrix<double>& a, mat h, const vec& excess);
  // Column transforms of fields cols x (rows * layers), folded by the cosines' parity about
  // the middle column (half a dense product's work): out = Qp^T f, and f = Qp w.
  void to_waves(const double* f, mat& out) const;
  void from_waves(const mat& w, double* f) const;
  // Mode md's tridiagonal solves along the rows, on the cols x rows field at column o of f
  // (wave numbers down, rows across).
  void sweep_rows(mat& f, index o, index md) const;
  void solve_once(const vec& b, vec& x) const;

  index nl_ = 0, rows_ = 0, cols_ = 0, nrc_ = 0, ng_ = 0, n_ = 0;
  index ce_ = 0, co_ = 0;          // even and odd wave numbers across the columns
  double rho_ = 1;                 // y-link / x-link conductance, the same in every layer
  mat v_;                          // nl x nl: V^T K V = I, V^T M V = diag(mu)
  mat qpt_;                        // cols x cols: the 1D Neumann Laplacian's eigenvectors
                                   // (DCT-II) as rows, even wave numbers first; column j
                                   // is column j's values
  mat qe_, qo_;                    // its even block (ce x ce) and odd block (co x co)
  std::vector<mat> inv_piv_;       // per mode: cols x rows, inverse pivots along the rows
  std::vector<index> e_;           // grid nodes outside the uniform form
  std::vector<index> e_pos_, e_layer_;  // their position (index into pos_*) and layer
  std::vector<index> pos_i_, pos_j_;    // the distinct cell positions among them
  reflection_blocked_llt s1_;      // H + D^-1 (see make), per mirror-symmetry class
  mat bt_, w_;                     // D^-1 B and S1^-1 D^-1 B (|E| x np)
  Eigen::PartialPivLU<mat> sp_;    // the other nodes' Schur complement
  Eigen::SparseMatrix<double> a_;  // for the residual
  double a_norm_ = 0;              // |A| (infinity norm)
  mutable mat modes_, waves_, swept_, fe_, fo_, at_pos_;
  mutable vec y_, red_, xp_, bp_, r_;
  mutable long solves_ = 0;
};

}  // namespace ptsim::thermal::detail

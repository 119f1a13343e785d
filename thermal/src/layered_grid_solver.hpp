#pragma once
// Private: a direct solver for grid models whose layers are uniform (HotSpot's grid model
// without per-block materials or coolant), used by the transient solver instead of a sparse
// factorisation, whose fill grows with the square of the layer count.
#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <memory>
#include <string>
#include <vector>

namespace ptsim::thermal::detail {

struct grid_shape {
  Eigen::Index layers = 0, rows = 0, cols = 0;
};

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
/// capacitance system on those few hundred unknowns. Cost per solve: two such transforms
/// and the dense system, instead of triangular solves with a factor of 790k entries
/// (9 layers at 32 x 32).
class layered_grid_solver {
 public:
  /// nullptr when A does not have that structure (checked entry by entry) or when the
  /// non-uniform part is too large for a dense system.
  static std::unique_ptr<layered_grid_solver> make(const Eigen::SparseMatrix<double>& a, grid_shape shape);

  /// x = A^-1 b. Returns false when the relative residual |b - A x| / |b| stays above
  /// `residual_tolerance` after refinement (the caller then factorises).
  bool solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) const;

  /// Relative residual (2-norm) accepted; one refinement step is taken above it.
  static constexpr double residual_tolerance = 1e-12;

 private:
  using mat = Eigen::MatrixXd;
  using vec = Eigen::VectorXd;
  using index = Eigen::Index;

  // x_grid = A0^-1 b_grid, on ng-long vectors (fields are layer-major, then row, column).
  void solve_uniform(const double* b, double* x) const;
  // Fields in place: (L2 + mu_m I)^-1, `f` cols x (rows * count); mode md for every field,
  // or mode k for field k when md < 0.
  void solve_mode(Eigen::Ref<mat> f, index m, index count) const;
  void solve_once(const vec& b, vec& x) const;
  // Mode md's tridiagonal solves along the rows, on the cols x rows field at column o of f
  // (column wave numbers down, rows across).
  void sweep_rows(mat& f, index o, index md) const;

  index nl_ = 0, rows_ = 0, cols_ = 0, nrc_ = 0, ng_ = 0, n_ = 0;
  double rho_ = 1;                 // y-link / x-link conductance, the same in every layer
  mat v_;                          // nl x nl: V^T K V = I, V^T M V = diag(mu)
  mat qx_;                         // cols x cols: eigenvectors of the 1D Neumann Laplacian
  std::vector<mat> inv_piv_;       // per mode: cols x rows, inverse pivots along the rows
  std::vector<index> e_;           // grid nodes outside the uniform form
  Eigen::LLT<mat> s1_;             // H + D^-1 (see make)
  mat bt_, w_;                     // D^-1 B and S1^-1 D^-1 B (|E| x np)
  Eigen::PartialPivLU<mat> sp_;    // the other nodes' Schur complement
  Eigen::SparseMatrix<double> a_;  // for the residual
  mutable mat modes_, tmp_;
  mutable vec y_, z_, red_, xp_, r_;
};

}  // namespace ptsim::thermal::detail

#pragma once
// Private: Cholesky factorisation of a dense symmetric positive definite matrix that mirror
// images of its unknowns leave unchanged (e.g. the edge cells of a grid centred on its
// package), factorised per symmetry class.
#include <Eigen/Dense>
#include <vector>

namespace ptsim::thermal::detail {

/// S = B diag(S_c) B^T, with B orthogonal and sparse (each column one orbit of the mirrors,
/// signed by its class): with two commuting mirrors, four factors of about n/4 unknowns each,
/// 1/16 of one factor's work and 1/4 of its memory and solve cost.
class reflection_blocked_llt {
 public:
  using index = Eigen::Index;

  /// `mirrors`: up to two involutive permutations of the unknowns (p[p[k]] == k) that commute.
  /// A mirror under which S is not invariant (to 1e-9 of its largest entry) is left out.
  /// False when S (a block of it) is not positive definite.
  bool compute(const Eigen::MatrixXd& s, std::vector<std::vector<index>> mirrors);

  /// r <- S^-1 r, for a vector or for every column of a matrix.
  void solve_in_place(Eigen::Ref<Eigen::VectorXd> r) const;
  void solve_in_place(Eigen::MatrixXd& r) const;

  /// The symmetry classes used (1, 2 or 4).
  index classes() const { return static_cast<index>(blocks_.size()); }

 private:
  struct block {
    std::vector<index> start{0}, k;  // column c: entries [start[c], start[c + 1]) of k and a
    std::vector<double> a;
    Eigen::LLT<Eigen::MatrixXd> llt;
    mutable Eigen::VectorXd work;
  };
  std::vector<block> blocks_;
  mutable Eigen::VectorXd out_;
};

}  // namespace ptsim::thermal::detail

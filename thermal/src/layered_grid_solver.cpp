// layered_grid_solver: exact solves for grid models of uniform layers by separation of
// variables (layers: generalised eigenvectors; columns: 1D Laplacian eigenvectors; rows:
// tridiagonal), plus a dense capacitance system for the cells and nodes that break it.
#include "layered_grid_solver.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <cstdio>

namespace ptsim::thermal::detail {

namespace {

bool parse_cell(const std::string& name, long& l, long& i, long& j) {
  int used = 0;
  return std::sscanf(name.c_str(), "layer_%ld_cell_%ld_%ld%n", &l, &i, &j, &used) == 3 &&
         static_cast<std::size_t>(used) == name.size();
}

// Non-uniform cells and other nodes above this count: the dense system would cost more than
// the factorisation it replaces.
constexpr Eigen::Index max_reduced = 3000;
// Entries within this relative difference of the uniform form count as equal (the network's
// sums of the same conductances in another order).
constexpr double same = 1e-12;

}  // namespace

grid_shape grid_shape_of(const std::vector<std::string>& names) {
  grid_shape s;
  long l = 0, i = 0, j = 0;
  if (names.empty() || !parse_cell(names[0], l, i, j) || l != 0 || i != 0 || j != 0) return s;
  std::size_t last = 0;
  while (last + 1 < names.size() && names[last + 1].rfind("layer_", 0) == 0) ++last;
  if (!parse_cell(names[last], l, i, j)) return s;
  const std::size_t nl = static_cast<std::size_t>(l) + 1, rows = static_cast<std::size_t>(i) + 1,
                    cols = static_cast<std::size_t>(j) + 1;
  if (nl * rows * cols != last + 1) return s;
  // Layer-major, then row, then column (spot checks; the solver verifies every link).
  long l2 = 0, i2 = 0, j2 = 0;
  if (cols > 1 && !(parse_cell(names[1], l2, i2, j2) && l2 == 0 && i2 == 0 && j2 == 1)) return s;
  if (rows > 1 && !(parse_cell(names[cols], l2, i2, j2) && l2 == 0 && i2 == 1 && j2 == 0)) return s;
  s.layers = static_cast<Eigen::Index>(nl);
  s.rows = static_cast<Eigen::Index>(rows);
  s.cols = static_cast<Eigen::Index>(cols);
  return s;
}

std::unique_ptr<layered_grid_solver> layered_grid_solver::make(const Eigen::SparseMatrix<double>& a,
                                                               grid_shape shape) {
  const index nl = shape.layers, R = shape.rows, C = shape.cols, nrc = R * C, ng = nl * nrc, n = a.rows();
  if (nl < 1 || R < 3 || C < 3 || ng > n || a.cols() != n) return nullptr;
  auto node = [&](index l, index i, index j) { return l * nrc + i * C + j; };
  vec ax(nl), ay(nl), vz = vec::Zero(nl), mdiag(nl);
  for (index l = 0; l < nl; ++l) {
    ax[l] = -a.coeff(node(l, 1, 1), node(l, 1, 2));
    ay[l] = -a.coeff(node(l, 1, 1), node(l, 2, 1));
    if (!(ax[l] > 0 && ay[l] > 0)) return nullptr;
    if (l + 1 < nl) vz[l] = -a.coeff(node(l, 1, 1), node(l + 1, 1, 1));
    mdiag[l] = a.coeff(node(l, 1, 1), node(l, 1, 1)) - 2 * ax[l] - 2 * ay[l];
  }
  const double rho = ay[0] / ax[0];
  for (index l = 0; l < nl; ++l)
    if (std::abs(ay[l] / ax[l] - rho) > same * rho) return nullptr;

  // Every grid-grid link must be the uniform one; diagonal excesses and links to the other
  // nodes mark a cell as non-uniform.
  std::vector<char> odd(static_cast<std::size_t>(ng), 0);
  vec excess = vec::Zero(ng);
  index matched = 0, expected = 0;
  for (index l = 0; l < nl; ++l) {
    expected += 2 * (R * (C - 1) + (R - 1) * C);
    if (l + 1 < nl && vz[l] != 0) expected += 2 * nrc;
  }
  for (index col = 0; col < ng; ++col) {
    const index l = col / nrc, c = col % nrc, i = c / C, j = c % C;
    for (Eigen::SparseMatrix<double>::InnerIterator it(a, col); it; ++it) {
      const index row = it.row();
      const double v = it.value();
      if (row >= ng) {
        if (v != 0) odd[static_cast<std::size_t>(col)] = 1;
        continue;
      }
      if (row == col) {
        const double uniform = mdiag[l] + ax[l] * ((j > 0) + (j < C - 1)) + ay[l] * ((i > 0) + (i < R - 1));
        if (std::abs(v - uniform) > same * std::abs(v)) {
          odd[static_cast<std::size_t>(col)] = 1;
          excess[col] = v - uniform;
        }
        continue;
      }
      const index l2 = row / nrc, c2 = row % nrc, i2 = c2 / C, j2 = c2 % C;
      double uniform = 0;
      if (l2 == l && i2 == i && std::abs(j2 - j) == 1) uniform = -ax[l];
      else if (l2 == l && j2 == j && std::abs(i2 - i) == 1) uniform = -ay[l];
      else if (c2 == c && std::abs(l2 - l) == 1) uniform = -vz[std::min(l, l2)];
      if (v == 0 && uniform == 0) continue;
      if (uniform == 0 || std::abs(v - uniform) > same * std::abs(uniform)) return nullptr;
      ++matched;
    }
  }
  if (matched != expected) return nullptr;

  auto s = std::unique_ptr<layered_grid_solver>(new layered_grid_solver);
  for (index k = 0; k < ng; ++k)
    if (odd[static_cast<std::size_t>(k)]) s->e_.push_back(k);
  const index ne = static_cast<index>(s->e_.size()), np = n - ng;
  if (ne + np > max_reduced || 4 * ne > ng) return nullptr;

  s->nl_ = nl;
  s->rows_ = R;
  s->cols_ = C;
  s->nrc_ = nrc;
  s->ng_ = ng;
  s->n_ = n;
  s->rho_ = rho;
  // Layers: M V = K V diag(mu) through K^-1/2 M K^-1/2 = Q diag(mu) Q^T, V = K^-1/2 Q.
  mat m = mat::Zero(nl, nl);
  for (index l = 0; l < nl; ++l) {
    m(l, l) = mdiag[l];
    if (l + 1 < nl) m(l, l + 1) = m(l + 1, l) = -vz[l];
  }
  const vec k_isqrt = ax.cwiseSqrt().cwiseInverse();
  Eigen::SelfAdjointEigenSolver<mat> layers(k_isqrt.asDiagonal() * m * k_isqrt.asDiagonal());
  const vec mu = layers.eigenvalues();
  // mu > 0 (C/h or an ambient link in every column) keeps every mode's L2 + mu I definite.
  if (layers.info() != Eigen::Success || !(mu.minCoeff() > 1e-12 * mu.cwiseAbs().maxCoeff())) return nullptr;
  s->v_ = k_isqrt.asDiagonal() * layers.eigenvectors();
  // Columns: the 1D Neumann Laplacian's eigenvectors.
  mat lx = mat::Zero(C, C);
  for (index j = 0; j < C; ++j) {
    lx(j, j) = (j > 0) + (j < C - 1);
    if (j + 1 < C) lx(j, j + 1) = lx(j + 1, j) = -1;
  }
  Eigen::SelfAdjointEigenSolver<mat> cols(lx);
  s->qx_ = cols.eigenvectors();
  // Rows, per mode and column wave number: rho Ly + (lambda_x + mu) I, LDL^T pivots.
  s->inv_piv_.assign(static_cast<std::size_t>(nl), mat(C, R));
  for (index md = 0; md < nl; ++md) {
    mat& ip = s->inv_piv_[static_cast<std::size_t>(md)];
    for (index kx = 0; kx < C; ++kx) {
      const double shift = std::max(cols.eigenvalues()[kx], 0.0) + mu[md];
      double prev = 0;
      for (index i = 0; i < R; ++i) {
        const double piv = rho * ((i > 0) + (i < R - 1)) + shift - (i > 0 ? rho * rho * prev : 0.0);
        prev = ip(kx, i) = 1.0 / piv;
      }
    }
  }

  // H = (A0^-1) restricted to the non-uniform cells, through their distinct positions.
  std::vector<index> pos_of(static_cast<std::size_t>(nrc), -1), positions;
  for (index e : s->e_) {
    const index c = e % nrc;
    if (pos_of[static_cast<std::size_t>(c)] < 0) {
      pos_of[static_cast<std::size_t>(c)] = static_cast<index>(positions.size());
      positions.push_back(c);
    }
  }
  const index np_pos = static_cast<index>(positions.size());
  // Per mode, (L2 + mu I)^-1 between those positions: a unit field's column transform is
  // a row of qx (free), and the inverse transform is needed only at the positions.
  mat h = mat::Zero(ne, ne), w(np_pos, np_pos), fh(C, R);
  for (index md = 0; md < nl; ++md) {
    for (index k = 0; k < np_pos; ++k) {
      const index c0 = positions[static_cast<std::size_t>(k)];
      fh.setZero();
      fh.col(c0 / C) = s->qx_.row(c0 % C).transpose();
      s->sweep_rows(fh, 0, md);
      for (index k2 = 0; k2 < np_pos; ++k2) {
        const index c = positions[static_cast<std::size_t>(k2)];
        w(k2, k) = s->qx_.row(c % C).dot(fh.col(c / C));
      }
    }
    for (index b = 0; b < ne; ++b) {
      const index eb = s->e_[static_cast<std::size_t>(b)], pb = pos_of[static_cast<std::size_t>(eb % nrc)];
      const double vb = s->v_(eb / nrc, md);
      for (index q = 0; q < ne; ++q) {
        const index eq = s->e_[static_cast<std::size_t>(q)];
        h(q, b) += s->v_(eq / nrc, md) * vb * w(pos_of[static_cast<std::size_t>(eq % nrc)], pb);
      }
    }
  }

  // The capacitance system, in f = D x_E + B x_p (what the odd cells add to the uniform
  // form) and x_p: x_E = y_E - H f and x_E = D^-1 (f - B x_p) give
  //   (H + D^-1) f = y_E + D^-1 B x_p,   (A_pp - B^T D^-1 B + Bt^T S1^-1 Bt) x_p = b_p - Bt^T S1^-1 y_E
  // with S1 = H + D^-1 (positive definite: Cholesky, half an LU's work) and Bt = D^-1 B.
  // D > 0: an odd cell's excess is its links to the other nodes (or the form is not met).
  mat b_ep = mat::Zero(ne, np);
  vec d_inv(ne);
  for (index k = 0; k < ne; ++k) {
    const index e = s->e_[static_cast<std::size_t>(k)];
    if (!(excess[e] > 0)) return nullptr;
    d_inv[k] = 1.0 / excess[e];
    for (Eigen::SparseMatrix<double>::InnerIterator it(a, e); it; ++it)
      if (it.row() >= ng) b_ep(k, it.row() - ng) += it.value();
  }
  h.diagonal() += d_inv;
  s->s1_.compute(h);
  if (s->s1_.info() != Eigen::Success) return nullptr;
  s->bt_ = d_inv.asDiagonal() * b_ep;
  s->w_ = s->s1_.solve(s->bt_);
  mat sp = -b_ep.transpose() * s->bt_ + s->bt_.transpose() * s->w_;
  for (index col = ng; col < n; ++col)
    for (Eigen::SparseMatrix<double>::InnerIterator it(a, col); it; ++it)
      if (it.row() >= ng) sp(it.row() - ng, col - ng) += it.value();
  s->sp_.compute(sp);

  s->a_ = a;
  s->modes_.resize(nrc, nl);
  s->tmp_.resize(C, R * nl);
  s->y_.resize(n);
  s->z_.resize(ng);
  s->red_.resize(ne);
  s->xp_.resize(np);
  s->r_.resize(n);
  return s;
}

void layered_grid_solver::sweep_rows(mat& f, index o, index md) const {
  const index R = rows_;
  const mat& ip = inv_piv_[static_cast<std::size_t>(md)];
  for (index i = 1; i < R; ++i) f.col(o + i).array() += rho_ * ip.col(i - 1).array() * f.col(o + i - 1).array();
  f.col(o + R - 1).array() *= ip.col(R - 1).array();
  for (index i = R - 2; i >= 0; --i)
    f.col(o + i).array() = (f.col(o + i).array() + rho_ * f.col(o + i + 1).array()) * ip.col(i).array();
}

void layered_grid_solver::solve_mode(Eigen::Ref<mat> f, index md, index count) const {
  tmp_.noalias() = qx_.transpose() * f;
  for (index k = 0; k < count; ++k) sweep_rows(tmp_, k * rows_, md < 0 ? k : md);
  f.noalias() = qx_ * tmp_;
}

void layered_grid_solver::solve_uniform(const double* b, double* x) const {
  modes_.noalias() = Eigen::Map<const mat>(b, nrc_, nl_) * v_;
  solve_mode(Eigen::Map<mat>(modes_.data(), cols_, rows_ * nl_), -1, nl_);  // mode k in block k
  Eigen::Map<mat>(x, nrc_, nl_).noalias() = modes_ * v_.transpose();
}

void layered_grid_solver::solve_once(const vec& b, vec& x) const {
  const index ne = static_cast<index>(e_.size()), np = n_ - ng_;
  solve_uniform(b.data(), x.data());  // y = A0^-1 b_grid
  for (index k = 0; k < ne; ++k) red_[k] = x[e_[static_cast<std::size_t>(k)]];
  s1_.solveInPlace(red_);  // u = S1^-1 y_E
  xp_ = b.tail(np);
  xp_.noalias() -= bt_.transpose() * red_;
  xp_ = sp_.solve(xp_);
  red_.noalias() += w_ * xp_;  // f
  // x_grid = y - A0^-1 f
  z_.setZero();
  for (index k = 0; k < ne; ++k) z_[e_[static_cast<std::size_t>(k)]] = red_[k];
  solve_uniform(z_.data(), z_.data());
  x.head(ng_) -= z_;
  x.tail(np) = xp_;
}

bool layered_grid_solver::solve(const vec& b, vec& x) const {
  solve_once(b, x);
  const double limit = residual_tolerance * b.norm();
  for (int refine = 0;; ++refine) {
    r_.noalias() = a_ * x;
    r_ = b - r_;
    if (r_.norm() <= limit) return true;
    if (refine == 2) return false;
    solve_once(r_, y_);
    x += y_;
  }
}

}  // namespace ptsim::thermal::detail

// layered_grid_solver: exact solves for grid models of uniform layers by separation of
// variables (layers: generalised eigenvectors; columns: 1D Laplacian eigenvectors; rows:
// tridiagonal), plus a dense capacitance system for the cells and nodes that break it.
#include "layered_grid_solver.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <cstdio>
#include <vector>

namespace ptsim::thermal::detail {

// The uniform form read off A (see layered_grid_solver): per layer the lateral conductances,
// the vertical link to the next layer and M's diagonal; the cells outside the form and their
// diagonal excess.
struct uniform_form {
  Eigen::VectorXd ax, ay, vz, mdiag, excess;
  std::vector<Eigen::Index> odd;
  double rho = 1;
};

namespace {

using index = Eigen::Index;
using vec = Eigen::VectorXd;
using mat = Eigen::MatrixXd;
using sparse = Eigen::SparseMatrix<double>;

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

// The uniform form read off A (see layered_grid_solver); false when a grid-grid link breaks it.
bool read_uniform_form(const sparse& a, grid_shape shape, uniform_form& u) {
  const index nl = shape.layers, R = shape.rows, C = shape.cols, nrc = R * C, ng = nl * nrc;
  auto node = [&](index l, index i, index j) { return l * nrc + i * C + j; };
  vec &ax = u.ax, &ay = u.ay, &vz = u.vz, &mdiag = u.mdiag;
  ax.resize(nl);
  ay.resize(nl);
  vz = vec::Zero(nl);
  mdiag.resize(nl);
  for (index l = 0; l < nl; ++l) {
    ax[l] = -a.coeff(node(l, 1, 1), node(l, 1, 2));
    ay[l] = -a.coeff(node(l, 1, 1), node(l, 2, 1));
    if (!(ax[l] > 0 && ay[l] > 0)) return false;
    if (l + 1 < nl) vz[l] = -a.coeff(node(l, 1, 1), node(l + 1, 1, 1));
    mdiag[l] = a.coeff(node(l, 1, 1), node(l, 1, 1)) - 2 * ax[l] - 2 * ay[l];
  }
  u.rho = ay[0] / ax[0];
  for (index l = 0; l < nl; ++l)
    if (std::abs(ay[l] / ax[l] - u.rho) > same * u.rho) return false;

  // Every grid-grid link must be the uniform one; diagonal excesses and links to the other
  // nodes mark a cell as non-uniform.
  std::vector<char> odd(static_cast<std::size_t>(ng), 0);
  vec& excess = u.excess;
  excess = vec::Zero(ng);
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
      if (uniform == 0 || std::abs(v - uniform) > same * std::abs(uniform)) return false;
      ++matched;
    }
  }
  if (matched != expected) return false;
  for (index k = 0; k < ng; ++k)
    if (odd[static_cast<std::size_t>(k)]) u.odd.push_back(k);
  return true;

}

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

bool layered_grid_solver::set_transforms(const uniform_form& u) {
  // Layers: M V = K V diag(mu) through K^-1/2 M K^-1/2 = Q diag(mu) Q^T, V = K^-1/2 Q.
  const index nl = nl_, R = rows_, C = cols_;
  const vec &ax = u.ax, &vz = u.vz, &mdiag = u.mdiag;
  const double rho = u.rho;
  mat m = mat::Zero(nl, nl);
  for (index l = 0; l < nl; ++l) {
    m(l, l) = mdiag[l];
    if (l + 1 < nl) m(l, l + 1) = m(l + 1, l) = -vz[l];
  }
  const vec k_isqrt = ax.cwiseSqrt().cwiseInverse();
  Eigen::SelfAdjointEigenSolver<mat> layers(k_isqrt.asDiagonal() * m * k_isqrt.asDiagonal());
  const vec mu = layers.eigenvalues();
  // mu > 0 (C/h or an ambient link in every column) keeps every mode's L2 + mu I definite.
  if (layers.info() != Eigen::Success || !(mu.minCoeff() > 1e-12 * mu.cwiseAbs().maxCoeff())) return false;
  v_ = k_isqrt.asDiagonal() * layers.eigenvectors();
  // Columns: the 1D Neumann Laplacian's eigenvectors are the DCT-II basis, wave number k
  // cos(pi k (j + 1/2) / C) for eigenvalue 2 - 2 cos(pi k / C), even (k even) or odd about
  // the middle column. Stored even wave numbers first, so that transforms fold.
  ce_ = (C + 1) / 2;
  co_ = C / 2;
  const double pi = std::acos(-1.0);
  auto wave = [&](index p) { return p < ce_ ? 2 * p : 2 * (p - ce_) + 1; };
  mat qp(C, C);
  vec lambda(C);
  for (index p = 0; p < C; ++p) {
    const index k = wave(p);
    const double norm = std::sqrt((k == 0 ? 1.0 : 2.0) / static_cast<double>(C));
    lambda[p] = 2.0 - 2.0 * std::cos(pi * static_cast<double>(k) / static_cast<double>(C));
    for (index j = 0; j < C; ++j)
      qp(j, p) = norm * std::cos(pi * static_cast<double>(k) * (static_cast<double>(j) + 0.5) / static_cast<double>(C));
  }
  qe_ = qp.topLeftCorner(ce_, ce_);
  qo_ = qp.block(0, ce_, co_, co_);
  qpt_ = qp.transpose();
  // Rows, per mode and column wave number: rho Ly + (lambda_x + mu) I, LDL^T pivots.
  inv_piv_.assign(static_cast<std::size_t>(nl), mat(C, R));
  for (index md = 0; md < nl; ++md) {
    mat& ip = inv_piv_[static_cast<std::size_t>(md)];
    for (index kx = 0; kx < C; ++kx) {
      const double shift = lambda[kx] + mu[md];
      double prev = 0;
      for (index i = 0; i < R; ++i) {
        const double piv = rho * ((i > 0) + (i < R - 1)) + shift - (i > 0 ? rho * rho * prev : 0.0);
        prev = ip(kx, i) = 1.0 / piv;
      }
    }
  }

  return true;
}

void layered_grid_solver::index_edge_cells() {
  const index nrc = nrc_, C = cols_;
  // The non-uniform cells' distinct positions; e_ is layer-major (node order).
  std::vector<index> pos_of(static_cast<std::size_t>(nrc), -1);
  for (index e : e_) {
    const index c = e % nrc;
    if (pos_of[static_cast<std::size_t>(c)] < 0) {
      pos_of[static_cast<std::size_t>(c)] = static_cast<index>(pos_i_.size());
      pos_i_.push_back(c / C);
      pos_j_.push_back(c % C);
    }
    e_pos_.push_back(pos_of[static_cast<std::size_t>(c)]);
    e_layer_.push_back(e / nrc);
  }
}

mat layered_grid_solver::edge_inverse_block() const {
  const index nl = nl_, R = rows_, C = cols_, ne = static_cast<index>(e_.size()),
              np_pos = static_cast<index>(pos_i_.size());
  // Layer blocks of E: [first, first + size) holds layer l's cells, at positions pos[l].
  std::vector<index> first(static_cast<std::size_t>(nl + 1), 0);
  std::vector<std::vector<index>> pos(static_cast<std::size_t>(nl));
  for (index k = 0; k < ne; ++k) {
    const auto l = static_cast<std::size_t>(e_layer_[static_cast<std::size_t>(k)]);
    ++first[l + 1];
    pos[l].push_back(e_pos_[static_cast<std::size_t>(k)]);
  }
  for (index l = 0; l < nl; ++l) first[static_cast<std::size_t>(l + 1)] += first[static_cast<std::size_t>(l)];

  // H = (A0^-1) restricted to the non-uniform cells. Per mode, (L2 + mu I)^-1 between their
  // positions: W(a, b) = sum_k qp(j_a, k) qp(j_b, k) T_k^-1(i_a, i_b), with T_k the rows'
  // tridiagonal at wave number k. One sweep of a field of ones at row i gives T_k^-1(., i)
  // for every k; the positions in that row then take one dense product. Then the layers'
  // weights V(la, m) V(lb, m), block by block.
  std::vector<index> rows_used;
  std::vector<std::vector<index>> in_row(static_cast<std::size_t>(R));
  for (index k = 0; k < np_pos; ++k) {
    auto& list = in_row[static_cast<std::size_t>(pos_i_[static_cast<std::size_t>(k)])];
    if (list.empty()) rows_used.push_back(pos_i_[static_cast<std::size_t>(k)]);
    list.push_back(k);
  }
  std::vector<mat> q_row(static_cast<std::size_t>(R));  // qp's rows of those positions, as columns
  for (index i : rows_used) {
    const auto& list = in_row[static_cast<std::size_t>(i)];
    mat& q = q_row[static_cast<std::size_t>(i)];
    q.resize(C, static_cast<index>(list.size()));
    for (std::size_t t = 0; t < list.size(); ++t)
      q.col(static_cast<index>(t)) = qpt_.col(pos_j_[static_cast<std::size_t>(list[t])]);
  }
  // Layers with the same positions (the periphery layers' edge rings) share W's gathered
  // blocks: z[ga, gb] holds them for every mode (columns), and each layer pair's block of H
  // is one product with that pair's weights.
  std::vector<std::vector<index>> groups;
  std::vector<index> group_of(static_cast<std::size_t>(nl), -1);
  for (index l = 0; l < nl; ++l) {
    const auto& pl = pos[static_cast<std::size_t>(l)];
    if (pl.empty()) continue;
    std::size_t g = 0;
    while (g < groups.size() && groups[g] != pl) ++g;
    if (g == groups.size()) groups.push_back(pl);
    group_of[static_cast<std::size_t>(l)] = static_cast<index>(g);
  }
  std::vector<mat> z(groups.size() * groups.size());
  for (std::size_t ga = 0; ga < groups.size(); ++ga)
    for (std::size_t gb = 0; gb < groups.size(); ++gb)
      z[ga * groups.size() + gb].resize(static_cast<index>(groups[ga].size() * groups[gb].size()), nl);
  mat h(ne, ne), w(np_pos, np_pos), fh(C, R), xt(C, np_pos), wcols;
  for (index md = 0; md < nl; ++md) {
    for (index i0 : rows_used) {
      fh.setZero();
      fh.col(i0).setOnes();
      sweep_rows(fh, 0, md);
      for (index a2 = 0; a2 < np_pos; ++a2)
        xt.col(a2) = qpt_.col(pos_j_[static_cast<std::size_t>(a2)]).cwiseProduct(
            fh.col(pos_i_[static_cast<std::size_t>(a2)]));
      const auto& list = in_row[static_cast<std::size_t>(i0)];
      wcols.noalias() = xt.transpose() * q_row[static_cast<std::size_t>(i0)];
      for (std::size_t t = 0; t < list.size(); ++t) w.col(list[t]) = wcols.col(static_cast<index>(t));
    }
    for (std::size_t ga = 0; ga < groups.size(); ++ga)
      for (std::size_t gb = 0; gb < groups.size(); ++gb)
        Eigen::Map<mat>(z[ga * groups.size() + gb].col(md).data(), static_cast<index>(groups[ga].size()),
                        static_cast<index>(groups[gb].size())) = w(groups[ga], groups[gb]);
  }
  vec weights(nl), block_h;
  for (index la = 0; la < nl; ++la) {
    const auto ua = static_cast<std::size_t>(la);
    if (group_of[ua] < 0) continue;
    for (index lb = 0; lb < nl; ++lb) {
      const auto ub = static_cast<std::size_t>(lb);
      if (group_of[ub] < 0) continue;
      weights = v_.row(la).transpose().cwiseProduct(v_.row(lb).transpose());
      block_h.noalias() = z[static_cast<std::size_t>(group_of[ua]) * groups.size() + static_cast<std::size_t>(group_of[ub])] * weights;
      const index na = first[ua + 1] - first[ua], nb = first[ub + 1] - first[ub];
      h.block(first[ua], first[ub], na, nb) = Eigen::Map<const mat>(block_h.data(), na, nb);
    }
  }
  return h;
}

bool layered_grid_solver::set_capacitance(const sparse& a, mat h, const vec& excess) {
  const index ng = ng_, n = n_, nrc = nrc_, R = rows_, C = cols_, ne = static_cast<index>(e_.size()), np = n - ng;
  auto node = [&](index l, index i, index j) { return l * nrc + i * C + j; };
  // The capacitance system, in f = D x_E + B x_p (what the odd cells add to the uniform
  // form) and x_p: x_E = y_E - H f and x_E = D^-1 (f - B x_p) give
  //   (H + D^-1) f = y_E + D^-1 B x_p,   (A_pp - B^T D^-1 B + Bt^T S1^-1 Bt) x_p = b_p - Bt^T S1^-1 y_E
  // with S1 = H + D^-1 (positive definite: Cholesky, half an LU's work) and Bt = D^-1 B.
  // D > 0: an odd cell's excess is its links to the other nodes (or the form is not met).
  mat b_ep = mat::Zero(ne, np);
  vec d_inv(ne);
  for (index k = 0; k < ne; ++k) {
    const index e = e_[static_cast<std::size_t>(k)];
    if (!(excess[e] > 0)) return false;
    d_inv[k] = 1.0 / excess[e];
    for (Eigen::SparseMatrix<double>::InnerIterator it(a, e); it; ++it)
      if (it.row() >= ng) b_ep(k, it.row() - ng) += it.value();
  }
  h.diagonal() += d_inv;
  // Grids centred on their package are mirror-symmetric across both axes (checked on S1
  // itself): its four symmetry classes are factorised apart.
  std::vector<index> at(static_cast<std::size_t>(ng), -1);
  for (index k = 0; k < ne; ++k) at[static_cast<std::size_t>(e_[static_cast<std::size_t>(k)])] = k;
  std::vector<std::vector<index>> mirrors(2, std::vector<index>(static_cast<std::size_t>(ne)));
  for (index k = 0; k < ne; ++k) {
    const index e = e_[static_cast<std::size_t>(k)], l = e / nrc, i = (e % nrc) / C, j = e % C;
    mirrors[0][static_cast<std::size_t>(k)] = at[static_cast<std::size_t>(node(l, i, C - 1 - j))];
    mirrors[1][static_cast<std::size_t>(k)] = at[static_cast<std::size_t>(node(l, R - 1 - i, j))];
  }
  if (!s1_.compute(h, std::move(mirrors))) return false;
  bt_ = d_inv.asDiagonal() * b_ep;
  w_ = bt_;
  s1_.solve_in_place(w_);
  mat sp = -b_ep.transpose() * bt_ + bt_.transpose() * w_;
  for (index col = ng; col < n; ++col)
    for (Eigen::SparseMatrix<double>::InnerIterator it(a, col); it; ++it)
      if (it.row() >= ng) sp(it.row() - ng, col - ng) += it.value();
  sp_.compute(sp);
  return true;
}

std::unique_ptr<layered_grid_solver> layered_grid_solver::make(const sparse& a, grid_shape shape) {
  const index nl = shape.layers, R = shape.rows, C = shape.cols, nrc = R * C, ng = nl * nrc, n = a.rows();
  if (nl < 1 || R < 3 || C < 3 || ng > n || a.cols() != n) return nullptr;
  uniform_form u;
  if (!read_uniform_form(a, shape, u)) return nullptr;
  const index ne = static_cast<index>(u.odd.size()), np = n - ng;
  if (ne + np > max_reduced || 4 * ne > ng) return nullptr;
  auto s = std::unique_ptr<layered_grid_solver>(new layered_grid_solver);
  s->e_ = std::move(u.odd);
  s->nl_ = nl;
  s->rows_ = R;
  s->cols_ = C;
  s->nrc_ = nrc;
  s->ng_ = ng;
  s->n_ = n;
  s->rho_ = u.rho;
  if (!s->set_transforms(u)) return nullptr;
  s->index_edge_cells();
  if (!s->set_capacitance(a, s->edge_inverse_block(), u.excess)) return nullptr;
  s->a_ = a;
  vec row_sums = vec::Zero(n);
  for (index col = 0; col < n; ++col)
    for (sparse::InnerIterator it(a, col); it; ++it) row_sums[it.row()] += std::abs(it.value());
  s->a_norm_ = row_sums.maxCoeff();
  s->modes_.resize(nrc, nl);
  s->waves_.resize(C, R * nl);
  s->swept_.resize(C, R * nl);
  s->fe_.resize(s->ce_, R * nl);
  s->fo_.resize(s->co_, R * nl);
  s->at_pos_.resize(static_cast<index>(s->pos_i_.size()), nl);
  s->y_.resize(n);
  s->red_.resize(ne);
  s->xp_.resize(np);
  s->bp_.resize(np);
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

void layered_grid_solver::to_waves(const double* f, mat& out) const {
  const Eigen::Map<const mat> fm(f, cols_, rows_ * nl_);
  fe_.topRows(co_) = fm.topRows(co_) + fm.bottomRows(co_).colwise().reverse();
  if (ce_ > co_) fe_.row(co_) = fm.row(co_);
  fo_ = fm.topRows(co_) - fm.bottomRows(co_).colwise().reverse();
  out.topRows(ce_).noalias() = qe_.transpose() * fe_;
  out.bottomRows(co_).noalias() = qo_.transpose() * fo_;
}

void layered_grid_solver::from_waves(const mat& w, double* f) const {
  Eigen::Map<mat> fm(f, cols_, rows_ * nl_);
  fe_.noalias() = qe_ * w.topRows(ce_);
  fo_.noalias() = qo_ * w.bottomRows(co_);
  fm.topRows(co_) = fe_.topRows(co_) + fo_;
  fm.bottomRows(co_) = (fe_.topRows(co_) - fo_).colwise().reverse();
  if (ce_ > co_) fm.row(co_) = fe_.row(co_);
}

void layered_grid_solver::solve_once(const vec& b, vec& x) const {
  const index ne = static_cast<index>(e_.size()), np = n_ - ng_, npos = static_cast<index>(pos_i_.size());
  // The grid part in modes (layers) and wave numbers (columns): waves_ = F b_grid.
  modes_.noalias() = Eigen::Map<const mat>(b.data(), nrc_, nl_) * v_;
  to_waves(modes_.data(), waves_);
  // y = A0^-1 b_grid, needed only at the non-uniform cells: rows swept, then each cell's
  // inverse transform alone.
  swept_ = waves_;
  for (index md = 0; md < nl_; ++md) sweep_rows(swept_, md * rows_, md);
  for (index p = 0; p < npos; ++p)
    for (index md = 0; md < nl_; ++md)
      at_pos_(p, md) = qpt_.col(pos_j_[static_cast<std::size_t>(p)]).dot(swept_.col(md * rows_ + pos_i_[static_cast<std::size_t>(p)]));
  for (index k = 0; k < ne; ++k)
    red_[k] = v_.row(e_layer_[static_cast<std::size_t>(k)]).dot(at_pos_.row(e_pos_[static_cast<std::size_t>(k)]));
  s1_.solve_in_place(red_);  // u = S1^-1 y_E
  bp_ = b.tail(np);  // apart from xp_: an in-place LU solve allocates (its permutation)
  bp_.noalias() -= bt_.transpose() * red_;
  xp_ = sp_.solve(bp_);
  red_.noalias() += w_ * xp_;  // f
  // x_grid = A0^-1 (b_grid - f): f's transform (nonzero at E only) taken from waves_.
  at_pos_.setZero();
  for (index k = 0; k < ne; ++k)
    at_pos_.row(e_pos_[static_cast<std::size_t>(k)]) += red_[k] * v_.row(e_layer_[static_cast<std::size_t>(k)]);
  for (index p = 0; p < npos; ++p)
    for (index md = 0; md < nl_; ++md)
      waves_.col(md * rows_ + pos_i_[static_cast<std::size_t>(p)]) -= at_pos_(p, md) * qpt_.col(pos_j_[static_cast<std::size_t>(p)]);
  for (index md = 0; md < nl_; ++md) sweep_rows(waves_, md * rows_, md);
  from_waves(waves_, modes_.data());
  Eigen::Map<mat>(x.data(), nrc_, nl_).noalias() = modes_ * v_.transpose();
  x.tail(np) = xp_;
}

bool layered_grid_solver::solve(const vec& b, vec& x) const {
  solve_once(b, x);
  // The check (a sparse product, ~15 % of a solve) guards the set-up: a backward-stable
  // method's backward error does not depend on the right-hand side.
  if (solves_++ >= checked_solves && solves_ % check_every != 0) return true;
  const double b_norm = b.lpNorm<Eigen::Infinity>();
  for (int refine = 0;; ++refine) {
    r_.noalias() = a_ * x;
    r_ = b - r_;
    if (r_.lpNorm<Eigen::Infinity>() <= backward_error_tolerance * (a_norm_ * x.lpNorm<Eigen::Infinity>() + b_norm))
      return true;
    if (refine == 2) return false;
    solve_once(r_, y_);
    x += y_;
  }
}

}  // namespace ptsim::thermal::detail
